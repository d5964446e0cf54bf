#include "analysis/llmregionpack.h"
#include "analysis/region.h"
#include "commands.h"
#include "llmregioncommand.h"
#include "regionsummary.h"

#include <charconv>

namespace bs::cli {

namespace {

/// mergeRegions names a misfit as "shards[K] (...)": K is the K-th file given.
void nameShardFile(Error& error, const std::vector<std::string>& files)
{
    const std::string tag = "shards[";
    const auto at = error.message.find(tag);
    if (at == std::string::npos || !error.path.empty())
        return;
    std::size_t k = 0;
    const char* begin = error.message.data() + at + tag.size();
    const auto [ptr, ec] = std::from_chars(begin, error.message.data() + error.message.size(), k);
    if (ec == std::errc() && ptr != begin && k < files.size())
        error.path = files[k];
}

int runMerge(const ParsedArgs& args, CliIo& io)
{
    if (args.positionals.empty())
        return reportError(
            makeError(ErrorCode::Usage, "usage: batchscope-cli merge SHARD.json... [--out DIR]"),
            args, io);
    auto threads = numberOption(args, "--threads", 0.0);
    if (!threads || *threads < 0 || *threads > 1024 || *threads != double(std::size_t(*threads)))
        return reportError(
            makeError(ErrorCode::Usage, "--threads: not a whole number from 1 to 1024"), args, io);
    std::vector<analysis::RegionResult> shards;
    std::vector<analysis::LlmRegionResult> llmShards;
    for (const auto& file : args.positionals) {
        auto json = readJsonFile(file);
        if (!json)
            return reportError(json.error(), args, io);
        if (analysis::isLlmRegionJson(*json) || !llmShards.empty()) {
            auto shard = analysis::llmRegionFromJson(*json, file);
            if (!shard)
                return reportError(shard.error(), args, io);
            llmShards.push_back(std::move(*shard));
            continue;
        }
        auto shard = analysis::regionResultFromJson(*json, file);
        if (!shard)
            return reportError(shard.error(), args, io);
        shards.push_back(std::move(*shard));
    }
    if (!llmShards.empty()) {
        if (!shards.empty())
            return reportError(makeError(ErrorCode::Usage, "merge: " + args.positionals.front() +
                                                               " is a queueing region shard, " +
                                                               "the others LLM region shards"),
                               args, io);
        auto merged = analysis::mergeLlmRegions(std::move(llmShards));
        if (!merged) {
            Error error = merged.error();
            nameShardFile(error, args.positionals);
            return reportError(error, args, io);
        }
        if (const auto base = args.value("--base-dir"))
            merged->baseDirectory = *base;
        // As a single machine's run ends: the recommendation's load headroom, simulated here
        // (a handful of runs) where the scenario's files resolve.
        if (auto status = analysis::findLlmLoadHeadroom(*merged, std::size_t(*threads)); !status)
            return reportError(status.error(), args, io);
        return finishLlmRegion(*merged, args, io);
    }
    analysis::RegionOptions options;
    options.threads = std::size_t(*threads);
    options.baseDirectory = args.value("--base-dir").value_or("");
    auto merged = analysis::mergeRegions(std::move(shards), options);
    if (!merged) {
        Error error = merged.error();
        nameShardFile(error, args.positionals);
        return reportError(error, args, io);
    }
    return finishRegion(*merged, args, io);
}

} // namespace

CommandSpec mergeCommand()
{
    return {"merge",
            "merge SHARD.json... [--out DIR] [--threads N] [--base-dir DIR]",
            "Join the results of batchscope-cli region --shard I/N runs into the whole region.",
            "Every shard 0..N-1 of the same region spec must be given once (in any order). The\n"
            "merge adds what needs every cell - Pareto front, recommendation and its headroom -\n"
            "exactly as a single run would, so the result equals an unsharded run. --out DIR\n"
            "writes the curve pack (core/analysis/REGION.md has a Slurm job-array example).",
            {{"--out", "DIR", "write the curve pack into DIR"},
             {"--threads", "N", "threads for the headroom search (default: all cores)"},
             {"--base-dir", "DIR",
              "where relative replay files of the scenario resolve (default: as the shards say)"}},
            &runMerge};
}

} // namespace bs::cli
