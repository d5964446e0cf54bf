#include "commands.h"
#include "sim/resultjson.h"
#include "sim/scenariojson.h"
#include "sim/simulator.h"
#include "simulationsummary.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <filesystem>

namespace bs::cli {

namespace {

/// Applies --seed, --requests and --records to the scenario read from the file.
Status applyOverrides(const ParsedArgs& args, sim::Scenario& scenario)
{
    auto seed = wholeNumberOption(args, "--seed", 0, UINT64_MAX);
    if (!seed)
        return seed.error();
    if (*seed)
        scenario.seed = **seed;
    auto requests = wholeNumberOption(args, "--requests", 1, sim::kMaxRequests);
    if (!requests)
        return requests.error();
    if (*requests)
        scenario.requests = **requests;
    if (args.has("--records"))
        scenario.output.records = true;
    return {};
}

int runSimulate(const ParsedArgs& args, CliIo& io)
{
    if (args.positionals.size() != 1) {
        return reportError(makeError(ErrorCode::Usage,
                                     "usage: batchscope-cli simulate SCENARIO.json [--seed S] "
                                     "[--requests N] [--threads N] [--records FILE.csv] [--json]"),
                           args, io);
    }
    const std::string& path = args.positionals[0];
    auto threads = wholeNumberOption(args, "--threads", 1, 1024);
    if (!threads)
        return reportError(threads.error(), args, io);
    auto scenario = sim::loadScenario(path);
    if (!scenario)
        return reportError(scenario.error(), args, io);
    if (auto status = applyOverrides(args, *scenario); !status)
        return reportError(status.error(), args, io);

    sim::SimOptions options;
    options.threads = threads->value_or(0);
    options.baseDirectory = std::filesystem::path(path).parent_path().string();
    auto result = sim::simulate(*scenario, options);
    if (!result) {
        Error error = result.error();
        if (error.path.empty())
            error.path = path;
        return reportError(error, args, io);
    }
    if (const auto records = args.value("--records")) {
        if (auto status = sim::writeRecordsCsv(*result, *records); !status)
            return reportError(status.error(), args, io);
    }
    if (args.json())
        io.out << sim::resultToJson(*result).dump(2) << '\n';
    else
        io.out << formatSimulationSummary(*result);
    if (!result->stability.stable) {
        // The result is printed (it says why); the exit status says the metrics are missing.
        io.err << makeError(ErrorCode::Value, path, 0, 0, result->stability.reason).toString()
               << '\n';
        return kExitBadInput;
    }
    return kExitOk;
}

} // namespace

CommandSpec simulateCommand()
{
    return {
        "simulate",
        "simulate SCENARIO.json [--seed S] [--requests N] [--threads N] [--records FILE.csv]",
        "Run the queueing/batching simulator on a scenario: latency, throughput, batches, energy.",
        "The scenario JSON is described in core/sim/README.md. Replications run in parallel and\n"
        "the result is identical for any --threads. A scenario whose offered load reaches the\n"
        "capacity is reported as unstable (exit status 1) instead of with meaningless latencies.\n"
        "Relative replay files are resolved against the scenario file's folder.",
        {{"--seed", "S", "override the scenario's seed"},
         {"--requests", "N", "override the measured requests per replication"},
         {"--threads", "N", "threads for the replications (default: all cores)"},
         {"--records", "FILE.csv", "write the per-request records of replication 0"}},
        &runSimulate};
}

} // namespace bs::cli
