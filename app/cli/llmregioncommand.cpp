// `batchscope-cli region` on an LLM scenario (llmregioncommand.h).
#include "llmregioncommand.h"

#include "analysis/llmregionpack.h"
#include "llmsim/llmscenariojson.h"
#include "util/numbertext.h"

#include <cmath>
#include <filesystem>

namespace bs::cli {

namespace {

/// Options of the queueing region that mean nothing for an LLM engine.
constexpr const char* kQueueingOnly[] = {"--max-batch",
                                         "--max-delay-ms",
                                         "--precision",
                                         "--sla-p99-ms",
                                         "--min-throughput-per-s",
                                         "--max-energy-per-inference-j",
                                         "--robust",
                                         "--requests",
                                         "--no-screen",
                                         "--no-capacity",
                                         "--no-headroom"};

Expected<std::vector<std::int32_t>> wholeList(const ParsedArgs& args, const std::string& name,
                                              bool required = true)
{
    if (!args.has(name) && !required)
        return std::vector<std::int32_t>();
    if (!args.has(name))
        return makeError(ErrorCode::Usage, name + ": required for an LLM scenario (a list such "
                                                  "as 8,16,32)");
    auto values = numberListOption(args, name);
    if (!values)
        return values.error();
    std::vector<std::int32_t> out;
    for (double v : *values) {
        if (!(v >= 1.0 && v <= double(1 << 24)) || std::floor(v) != v)
            return makeError(ErrorCode::Usage, name + ": '" + significant(v, 10) +
                                                   "' is not a whole number from 1 to 16777216");
        out.push_back(std::int32_t(v));
    }
    return out;
}

Expected<analysis::LlmRegionLimits> limitsOf(const ParsedArgs& args)
{
    analysis::LlmRegionLimits limits;
    for (const char* required : {"--sla-ttft-ms", "--sla-tpot-ms"}) {
        if (!args.has(required))
            return makeError(ErrorCode::Usage,
                             std::string(required) + ": required for an LLM scenario");
    }
    const std::pair<const char*, std::optional<double>*> optional[] = {
        {"--sla-itl-ms", &limits.maxItlP99Ms},
        {"--sla-e2e-ms", &limits.maxE2eP99Ms},
        {"--min-output-tokens-per-s", &limits.minOutputTokensPerS},
        {"--min-goodput-per-s", &limits.minGoodputPerS},
        {"--max-preemptions-per-request", &limits.maxPreemptionsPerRequest},
        {"--power-cap-w", &limits.maxPowerPerGpuW},
        {"--max-energy-per-output-token-j", &limits.maxEnergyPerOutputTokenJ},
        {"--max-temperature-c", &limits.maxTemperatureC}};
    for (const auto& [name, limit] : optional) {
        if (!args.has(name))
            continue;
        auto value = numberOption(args, name, NAN);
        if (!value)
            return value.error();
        *limit = *value;
    }
    auto ttft = numberOption(args, "--sla-ttft-ms", 0.0);
    auto tpot = numberOption(args, "--sla-tpot-ms", 0.0);
    if (!ttft)
        return ttft.error();
    if (!tpot)
        return tpot.error();
    limits.ttftP99Ms = *ttft;
    limits.tpotP99Ms = *tpot;
    return limits;
}

/// The axes from their options (an absent optional axis stays empty).
Status readAxes(const ParsedArgs& args, analysis::LlmRegionSpec& spec)
{
    const std::pair<const char*, std::vector<std::int32_t>*> wholeAxes[] = {
        {"--max-num-seqs", &spec.maxNumSeqs},
        {"--max-num-batched-tokens", &spec.maxNumBatchedTokens},
        {"--servers", &spec.replicas},
        {"--tensor-parallel", &spec.tensorParallel}};
    for (const auto& [name, axis] : wholeAxes) {
        const bool required = axis == &spec.maxNumSeqs || axis == &spec.maxNumBatchedTokens;
        auto values = wholeList(args, name, required);
        if (!values)
            return values.error();
        *axis = std::move(*values);
    }
    const std::pair<const char*, std::vector<double>*> numberAxes[] = {
        {"--rate-per-s", &spec.ratesPerS},
        {"--rate-multiplier", &spec.rateMultipliers},
        {"--power-cap-w-axis", &spec.powerCapsW},
        {"--gpu-memory-utilization", &spec.gpuMemoryUtilizations}};
    for (const auto& [name, axis] : numberAxes) {
        if (!args.has(name))
            continue;
        auto values = numberListOption(args, name);
        if (!values)
            return values.error();
        *axis = std::move(*values);
    }
    if (const auto objective = args.value("--objective")) {
        const auto parsed = analysis::llmObjectiveFromName(*objective);
        if (!parsed)
            return makeError(ErrorCode::Usage, "--objective: '" + *objective +
                                                   "' is not an LLM objective (max-output-tokens, "
                                                   "max-tokens-per-gpu, min-energy-per-token)");
        spec.objective = *parsed;
    }
    return {};
}

Expected<analysis::LlmRegionSpec> specOf(const nlohmann::json& json, const std::string& path,
                                         const ParsedArgs& args)
{
    for (const char* option : kQueueingOnly) {
        if (args.has(option))
            return makeError(ErrorCode::Usage,
                             std::string(option) + ": applies to queueing scenarios; " + path +
                                 " is an LLM scenario (axes --max-num-seqs, "
                                 "--max-num-batched-tokens, ...; limits --sla-ttft-ms, "
                                 "--sla-tpot-ms, ...)");
    }
    auto scenario = llmsim::llmScenarioFromJson(json, path);
    if (!scenario)
        return scenario.error();
    analysis::LlmRegionSpec spec;
    spec.scenario = std::move(*scenario);
    auto seed = wholeNumberOption(args, "--seed", 0, UINT64_MAX);
    if (!seed)
        return seed.error();
    if (*seed)
        spec.scenario.seed = **seed;
    auto replications = wholeNumberOption(args, "--replications", 1, 1000);
    if (!replications)
        return replications.error();
    if (*replications) {
        if (spec.scenario.arrivals.kind == llmsim::LlmArrivalSpec::Kind::Replay)
            return makeError(ErrorCode::Usage, "--replications: this LLM scenario replays its "
                                               "requests, which is deterministic (one run)");
        spec.scenario.replications = std::int32_t(**replications);
    }
    if (auto axes = readAxes(args, spec); !axes)
        return axes.error();
    auto limits = limitsOf(args);
    if (!limits)
        return limits.error();
    spec.limits = *limits;
    if (auto status = analysis::validate(spec); !status)
        return status.error();
    return spec;
}

} // namespace

std::vector<OptionSpec> llmRegionOptions()
{
    return {
        {"--max-num-seqs", "LIST", "LLM axis: max_num_seqs values, e.g. 8,16,32"},
        {"--max-num-batched-tokens", "LIST",
         "LLM axis: token budgets per step (max_num_batched_tokens; under sglang its "
         "chunked_prefill_size), e.g. 512,1024,2048"},
        {"--tensor-parallel", "LIST", "LLM axis: GPUs per replica (roofline step), e.g. 1,2,4"},
        {"--gpu-memory-utilization", "LIST",
         "LLM axis: the fraction of GPU memory the engine may use (its KV cache sized from "
         "memory: engine.kv_memory), e.g. 0.8,0.9,0.95"},
        {"--sla-ttft-ms", "X", "LLM limit: TTFT p99 in ms (required with an LLM scenario)"},
        {"--sla-tpot-ms", "Y", "LLM limit: TPOT p99 in ms (required with an LLM scenario)"},
        {"--sla-itl-ms", "Z",
         "LLM limit: inter-token latency p99 in ms, over every gap (a decode stall)"},
        {"--sla-e2e-ms", "W", "LLM limit: end-to-end latency p99 in ms (arrival to last token)"},
        {"--min-output-tokens-per-s", "N", "LLM demand: output tokens/s the point must serve"},
        {"--min-goodput-per-s", "N",
         "LLM demand: requests/s meeting the scenario's sla (TTFT and TPOT)"},
        {"--max-preemptions-per-request", "P",
         "LLM limit: preemptions per request (a preemption storm)"},
        {"--max-energy-per-output-token-j", "J", "LLM limit: energy per output token, J"}};
}

std::string firstLlmRegionOption(const ParsedArgs& args)
{
    for (const auto& option : llmRegionOptions()) {
        if (args.has(option.name))
            return option.name;
    }
    return {};
}

int runLlmRegion(const nlohmann::json& json, const std::string& path, const ParsedArgs& args,
                 CliIo& io)
{
    auto threads = wholeNumberOption(args, "--threads", 1, 1024);
    if (!threads)
        return reportError(threads.error(), args, io);
    auto shard = shardOption(args);
    if (!shard)
        return reportError(shard.error(), args, io);
    auto spec = specOf(json, path, args);
    if (!spec)
        return reportError(spec.error(), args, io);
    analysis::LlmRegionOptions options;
    options.baseDirectory = std::filesystem::path(path).parent_path().string();
    options.threads = threads->value_or(0);
    options.shardIndex = shard->first;
    options.shardCount = shard->second;
    if (!args.json())
        options.preview = [&io](const analysis::LlmRegionResult& coarse) {
            std::size_t pending = 0;
            for (const auto& c : coarse.cells)
                pending += c.pending;
            io.err << "region: coarse pass done: " << coarse.feasible << " feasible, "
                   << coarse.infeasible << " infeasible, " << coarse.refused << " refused; "
                   << pending << " cell(s) to go\n";
        };
    auto result = analysis::computeLlmRegion(*spec, options);
    if (!result) {
        Error error = result.error();
        if (error.path.empty())
            error.path = path;
        return reportError(error, args, io);
    }
    return finishLlmRegion(*result, args, io);
}

int finishLlmRegion(const analysis::LlmRegionResult& result, const ParsedArgs& args, CliIo& io)
{
    if (const auto folder = args.value("--out")) {
        auto written = analysis::writeLlmCurvePack(result, *folder);
        if (!written)
            return reportError(written.error(), args, io);
        std::string list;
        for (const auto& name : *written)
            list += (list.empty() ? "" : ", ") + name;
        io.err << (result.isShard() ? "shard written to " : "curve pack written to ") << *folder
               << ": " << list << '\n';
    }
    if (args.json() || result.isShard())
        io.out << analysis::llmRegionToJson(result).dump(2) << '\n';
    else
        io.out << formatLlmRegionSummary(result);
    return kExitOk;
}

} // namespace bs::cli
