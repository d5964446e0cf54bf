#include "analysis/region.h"
#include "commands.h"
#include "llmregioncommand.h"
#include "llmsim/llmscenariojson.h"
#include "regionsummary.h"
#include "sim/scenariojson.h"

#include <charconv>
#include <chrono>
#include <filesystem>

namespace bs::cli {

namespace {

using analysis::RegionAxis;
using analysis::RegionAxisKind;
using analysis::RegionSpec;

struct AxisOption
{
    const char* option;
    RegionAxisKind kind;
};

/// Grid axes in the order a scenario's grid gets them: policies first, the rate last (it
/// varies fastest, so a policy's cells are neighbours).
constexpr AxisOption kAxisOptions[] = {
    {"--max-batch", RegionAxisKind::MaxBatch},
    {"--max-delay-ms", RegionAxisKind::MaxQueueDelayMs},
    {"--servers", RegionAxisKind::Servers},
    {"--precision", RegionAxisKind::Precision},
    {"--power-cap-w-axis", RegionAxisKind::PowerCapW},
    {"--rate-per-s", RegionAxisKind::RatePerS},
    {"--rate-multiplier", RegionAxisKind::RateMultiplier},
};

std::vector<std::string> nameList(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const auto comma = text.find(',', start);
        out.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
        if (comma == std::string::npos)
            return out;
        start = comma + 1;
    }
}

/// Axis options replace the spec's axis of the same kind (a rate option either rate axis) or
/// add one; the values are checked by analysis::validate with the spec's rules.
Status applyAxes(const ParsedArgs& args, RegionSpec& spec)
{
    for (const auto& [option, kind] : kAxisOptions) {
        if (!args.has(option))
            continue;
        RegionAxis axis;
        axis.kind = kind;
        if (kind == RegionAxisKind::Precision) {
            axis.names = nameList(*args.value(option));
        } else {
            auto values = numberListOption(args, option);
            if (!values)
                return values.error();
            axis.values = *values;
        }
        const auto same = [&axis](const RegionAxis& a) {
            return a.kind == axis.kind || (a.isRate() && axis.isRate());
        };
        const auto it = std::find_if(spec.axes.begin(), spec.axes.end(), same);
        if (it != spec.axes.end())
            *it = std::move(axis);
        else
            spec.axes.push_back(std::move(axis));
    }
    return {};
}

Status applyConstraints(const ParsedArgs& args, bool required, RegionSpec& spec)
{
    auto& c = spec.constraints;
    if (!args.has("--sla-p99-ms") && required)
        return makeError(ErrorCode::Usage,
                         "--sla-p99-ms: the p99 latency limit is required with a scenario");
    const auto optional = [&](const char* name, std::optional<double>& target) -> Status {
        if (!args.has(name))
            return {};
        auto v = numberOption(args, name, 0.0);
        if (!v)
            return v.error();
        target = *v;
        return {};
    };
    if (args.has("--sla-p99-ms")) {
        auto sla = numberOption(args, "--sla-p99-ms", 0.0);
        if (!sla)
            return sla.error();
        c.slaP99S = *sla / 1000.0;
    }
    for (auto status : {optional("--min-throughput-per-s", c.minThroughputPerS),
                        optional("--power-cap-w", c.maxPowerW),
                        optional("--max-temperature-c", c.maxTemperatureC),
                        optional("--max-energy-per-inference-j", c.maxEnergyPerInferenceJ)}) {
        if (!status)
            return status;
    }
    if (args.has("--robust"))
        c.robust = true;
    if (const auto objective = args.value("--objective")) {
        const auto parsed = analysis::parseObjective(*objective);
        if (!parsed)
            return makeError(ErrorCode::Usage, "--objective: '" + *objective +
                                                   "' is not one of max-throughput, min-energy, "
                                                   "min-p99");
        spec.objective = *parsed;
    }
    return {};
}

/// --requests, --replications, --seed change every cell's run; --no-* switch phases off.
Status applyRunSettings(const ParsedArgs& args, RegionSpec& spec)
{
    auto requests = wholeNumberOption(args, "--requests", 1, sim::kMaxRequests);
    auto replications = wholeNumberOption(args, "--replications", 1, sim::kMaxReplications);
    auto seed = wholeNumberOption(args, "--seed", 0, UINT64_MAX);
    for (const auto* option : {&requests, &replications, &seed}) {
        if (!*option)
            return option->error();
    }
    auto& scenario = spec.scenario;
    if (*requests) {
        scenario.requests = **requests;
        // As the scenario reader defaults it: a tenth of the measured requests.
        scenario.warmupRequests = std::min(scenario.warmupRequests, **requests / 10);
    }
    if (*replications)
        scenario.replications = int(**replications);
    if (*seed)
        scenario.seed = **seed;
    if (args.has("--no-screen"))
        spec.refinement.screen = false;
    if (args.has("--no-capacity"))
        spec.capacity.enabled = false;
    if (args.has("--no-headroom"))
        spec.headroom.enabled = false;
    return {};
}

struct RegionInput
{
    RegionSpec spec;
    std::string baseDirectory;
};

/// A scenario, a region spec or a region result (its spec is recomputed), with the options.
Expected<RegionInput> readInput(const ParsedArgs& args, const std::string& path)
{
    auto json = readJsonFile(path);
    if (!json)
        return json.error();
    RegionInput in;
    in.baseDirectory = std::filesystem::path(path).parent_path().string();
    const std::string kind =
        json->is_object() && json->contains("kind") && (*json)["kind"].is_string()
            ? (*json)["kind"].get<std::string>()
            : std::string();
    const bool isResult = kind == "batchscope.region.result";
    const bool isSpec =
        kind == "batchscope.region.spec" ||
        (json->is_object() && (json->contains("axes") || json->contains("constraints")));
    if (isResult || isSpec) {
        const auto& specJson = isResult && json->contains("spec") ? (*json)["spec"] : *json;
        auto spec = analysis::regionSpecFromJson(specJson, path);
        if (!spec)
            return spec.error();
        in.spec = std::move(*spec);
        if (isResult && json->contains("base_directory") && (*json)["base_directory"].is_string() &&
            !(*json)["base_directory"].get<std::string>().empty())
            in.baseDirectory = (*json)["base_directory"].get<std::string>();
    } else {
        auto scenario = sim::scenarioFromJson(*json, path);
        if (!scenario)
            return scenario.error();
        in.spec.scenario = std::move(*scenario);
    }
    for (auto status :
         {applyAxes(args, in.spec), applyConstraints(args, !(isResult || isSpec), in.spec),
          applyRunSettings(args, in.spec)}) {
        if (!status)
            return status.error();
    }
    if (auto status = analysis::validate(in.spec, path); !status)
        return status.error();
    return in;
}

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int runRegion(const ParsedArgs& args, CliIo& io)
{
    if (args.positionals.size() != 1)
        return reportError(makeError(ErrorCode::Usage,
                                     "usage: batchscope-cli region SCENARIO.json|REGION.json "
                                     "--max-batch LIST --max-delay-ms LIST --sla-p99-ms X ..."),
                           args, io);
    const std::string& path = args.positionals[0];
    // An LLM scenario (as `simulate` detects it) gets the LLM region; anything else, a file
    // that cannot be read included, takes the queueing path and its errors.
    if (auto json = llmsim::readScenarioFile(path); json && llmsim::isLlmScenarioJson(*json))
        return runLlmRegion(*json, path, args, io);
    if (const auto option = firstLlmRegionOption(args); !option.empty())
        return reportError(makeError(ErrorCode::Usage, option + ": applies to LLM scenarios; " +
                                                           path + " is not one"),
                           args, io);
    auto threads = wholeNumberOption(args, "--threads", 1, 1024);
    if (!threads)
        return reportError(threads.error(), args, io);
    auto shard = shardOption(args);
    if (!shard)
        return reportError(shard.error(), args, io);
    auto input = readInput(args, path);
    if (!input)
        return reportError(input.error(), args, io);

    analysis::RegionOptions options;
    options.threads = threads->value_or(0);
    options.baseDirectory = input->baseDirectory;
    options.shardIndex = shard->first;
    options.shardCount = shard->second;
    const bool chatty = !args.json();
    const auto start = std::chrono::steady_clock::now();
    std::string phase;
    Progress progress([&](const ProgressUpdate& update) {
        if (chatty && update.phase != phase) {
            phase = update.phase;
            io.err << "region: " << phase << " (" << update.total << ") after "
                   << secondsSince(start) << " s\n";
        }
    });
    const auto preview = [&](const analysis::RegionResult& coarse) {
        if (!chatty)
            return;
        std::size_t pending = 0;
        for (const auto& c : coarse.cells)
            pending += c.pending;
        io.err << "region: coarse pass done after " << secondsSince(start)
               << " s: " << coarse.summary.feasible << " feasible, " << coarse.summary.infeasible
               << " infeasible, " << coarse.summary.unstable << " unstable; " << pending
               << " cell(s) to refine\n";
    };
    auto result = analysis::computeRegion(input->spec, options, progress, CancelToken(), preview);
    if (!result) {
        Error error = result.error();
        if (error.path.empty())
            error.path = path;
        return reportError(error, args, io);
    }
    if (chatty)
        io.err << "region: done after " << secondsSince(start) << " s\n";
    return finishRegion(*result, args, io);
}

} // namespace

CommandSpec regionCommand()
{
    CommandSpec spec = {
        "region",
        "region SCENARIO.json|REGION.json --max-batch LIST --max-delay-ms LIST "
        "[--rate-per-s LIST] --sla-p99-ms X [options]",
        "Feasible operating regions of batch policies: which meet the SLA and limits, what "
        "binds, the Pareto front, a recommendation with headroom, capacity curves.",
        "Builds a grid over the axis options (comma-separated values) around the scenario and\n"
        "checks every cell against the limits: coarse short runs first, then the full\n"
        "simulation of the cells near a limit (core/analysis/REGION.md). The input may also be\n"
        "a region spec JSON (axes, constraints and settings in one file) or a region.json of an\n"
        "earlier run; options then replace what the file says. --out DIR writes the curve pack:\n"
        "cells.csv, pareto.csv, capacity.csv, region.json and SVG plots. --shard I/N computes\n"
        "one slice of the grid (policies p with p % N == I) for an array job; join the slices\n"
        "with batchscope-cli merge. Results are identical for any --threads and sharding.\n"
        "\n"
        "An LLM scenario (\"kind\": \"llm\" or an \"engine\" block, as for simulate) gets the\n"
        "LLM region instead: a grid over --max-num-seqs x --max-num-batched-tokens and,\n"
        "optionally, --tensor-parallel, --power-cap-w-axis (roofline step), --servers\n"
        "(replicas), --gpu-memory-utilization (a KV cache sized from memory) and a load axis\n"
        "--rate-per-s (Poisson) or --rate-multiplier (at most 4096 cells), each cell a full\n"
        "LLM simulation of one replica with the scenario's seed and at least 3\n"
        "replications (a replay: one deterministic run), judged against --sla-ttft-ms\n"
        "and --sla-tpot-ms (p99, required), --sla-itl-ms and --sla-e2e-ms (p99),\n"
        "--min-output-tokens-per-s, --min-goodput-per-s, --max-preemptions-per-request and,\n"
        "with a roofline step, --power-cap-w (mean per GPU), --max-energy-per-output-token-j\n"
        "and --max-temperature-c. A cell whose 95% interval\n"
        "holds a limit that sets its verdict is 'not confident' (?). The recommendation: among\n"
        "confident feasible cells the best --objective (max-output-tokens, max-tokens-per-gpu,\n"
        "min-energy-per-token), ties within the intervals going to the lower TTFT p99; with a\n"
        "load axis, each configuration's capacity (the highest load met); the Pareto front. --out\n"
        "DIR writes cells.csv, capacity.csv, pareto.csv, recommendation.json, llm-region.json,\n"
        "SVG plots and recommended-scenario.json (simulate reproduces the recommended cell from\n"
        "it). --shard I/N and merge, --seed, --replications, --threads and --json apply too;\n"
        "the other queueing options are refused.\n"

        "  batchscope-cli region llm.json --max-num-seqs 8,16,32 \\\n"
        "      --max-num-batched-tokens 512,1024,2048 --sla-ttft-ms 2000 --sla-tpot-ms 100",
        {{"--max-batch", "LIST", "axis: max batch sizes, e.g. 1,2,4,8,16,32"},
         {"--max-delay-ms", "LIST", "axis: max queue delays in ms, e.g. 0,0.5,1,2"},
         {"--rate-per-s", "LIST", "axis: arrival rates in requests/s"},
         {"--rate-multiplier", "LIST", "axis: multipliers on the scenario's rate (or replay)"},
         {"--servers", "LIST", "axis: server (replica) counts"},
         {"--precision", "LIST", "axis: precisions (accelerator model), e.g. int8,fp16"},
         {"--power-cap-w-axis", "LIST", "axis: power caps in W (accelerator model)"},
         {"--sla-p99-ms", "X", "p99 latency limit in ms (required with a scenario)"},
         {"--min-throughput-per-s", "Y", "throughput the point must serve"},
         {"--power-cap-w", "W", "limit on the mean power per server, W (LLM: per GPU)"},
         {"--max-temperature-c", "C", "limit on the peak device temperature (accelerator)"},
         {"--max-energy-per-inference-j", "J", "energy budget per inference, J"},
         {"--objective", "NAME",
          "max-throughput (default), min-energy or min-p99 (LLM: max-output-tokens, "
          "max-tokens-per-gpu, min-energy-per-token)"},
         {"--robust", {}, "judge each limit by the pessimistic end of its 95% interval"},
         {"--requests", "N",
          "measured requests per replication of each cell (warm-up: at most a tenth)"},
         {"--replications", "N", "replications of each cell"},
         {"--seed", "S", "override the scenario's seed"},
         {"--no-screen", {}, "simulate every stable cell in full (no short-run decisions)"},
         {"--no-capacity", {}, "skip the capacity curves"},
         {"--no-headroom", {}, "skip the headroom search of the recommendation"},
         {"--threads", "N", "threads (default: all cores); the result does not depend on it"},
         {"--shard", "I/N", "compute slice I of N (0-based) for batchscope-cli merge"},
         {"--out", "DIR", "write the curve pack (a shard: its result JSON) into DIR"}},
        &runRegion};
    for (auto& option : llmRegionOptions())
        spec.options.push_back(std::move(option));
    return spec;
}

} // namespace bs::cli
