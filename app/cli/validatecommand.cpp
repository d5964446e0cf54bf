#include "accel/model.h"
#include "accelpresets.h"
#include "analysis/mlperfvalidation.h"
#include "commands.h"
#include "validateperfanalyzer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace bs::cli {

namespace {

struct Row
{
    const char* name;
    const sim::Estimate* predicted;
    double analysis::MlperfMeasuredRun::*measured;
};

double medianOf(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::vector<double> column(const analysis::MlperfServerValidation& v,
                           double analysis::MlperfMeasuredRun::*field)
{
    std::vector<double> out;
    for (const auto& run : v.measured)
        out.push_back(run.*field);
    return out;
}

std::vector<Row> rows(const analysis::MlperfServerValidation& v)
{
    const auto& l = v.predicted.latency;
    return {{"mean", &l.mean, &analysis::MlperfMeasuredRun::meanS},
            {"p50", &l.p50, &analysis::MlperfMeasuredRun::p50S},
            {"p90", &l.p90, &analysis::MlperfMeasuredRun::p90S},
            {"p99", &l.p99, &analysis::MlperfMeasuredRun::p99S}};
}

void printText(const analysis::MlperfServerValidation& v, const analysis::MlperfSubmissionQuery& q,
               CliIo& io)
{
    char line[256];
    io.out << "MLPerf Server, predicted from the Offline result and harness settings: " << q.system
           << " / " << q.benchmark << "\n";
    std::snprintf(line, sizeof line,
                  "Offline %.1f samples/s (%d devices); Server at %.0f qps; compared with %zu "
                  "measured run(s)\n\n",
                  v.offlineSamplesPerS, v.devices, v.measured.front().targetQps, v.measured.size());
    io.out << line;
    std::snprintf(line, sizeof line, "  %-6s %26s %28s %9s\n", "", "predicted [95%]",
                  "measured median (range)", "error");
    io.out << line;
    for (const Row& row : rows(v)) {
        const auto values = column(v, row.measured);
        const double measured = medianOf(values);
        const auto [low, high] = std::minmax_element(values.begin(), values.end());
        const sim::Estimate& p = *row.predicted;
        std::snprintf(line, sizeof line,
                      "  %-6s %9.3f ms [%6.3f, %6.3f] %9.3f ms (%6.3f-%6.3f) %+8.1f%%\n", row.name,
                      p.value * 1e3, p.ciLow * 1e3, p.ciHigh * 1e3, measured * 1e3, *low * 1e3,
                      *high * 1e3, (p.value / measured - 1.0) * 100.0);
        io.out << line;
    }
    io.out << "\nAssumed (nothing is fitted to the Server runs):\n";
    for (const auto& assumption : v.built.assumptions)
        io.out << "  - " << assumption << "\n";
}

nlohmann::json toJson(const analysis::MlperfServerValidation& v)
{
    nlohmann::json figures = nlohmann::json::object();
    for (const Row& row : rows(v)) {
        const double measured = medianOf(column(v, row.measured));
        figures[std::string(row.name) + "_s"] = {
            {"predicted",
             {{"value", row.predicted->value},
              {"ci_low", row.predicted->ciLow},
              {"ci_high", row.predicted->ciHigh}}},
            {"measured_median", measured},
            {"measured_runs", column(v, row.measured)},
            {"relative_error", row.predicted->value / measured - 1.0}};
    }
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& run : v.measured)
        runs.push_back(run.path);
    return {{"offline_summary", v.offlinePath},
            {"offline_samples_per_s", v.offlineSamplesPerS},
            {"devices", v.devices},
            {"server_runs", runs},
            {"latency", figures},
            {"assumptions", v.built.assumptions},
            {"kernel_scale", v.built.kernelScale},
            {"scenario", v.built.scenario}};
}

int runValidate(const ParsedArgs& args, CliIo& io)
{
    const auto fail = [&](const std::string& message) {
        return reportError(makeError(ErrorCode::Usage, "batchscope-cli validate: " + message), args,
                           io);
    };
    if (args.positionals.size() != 1)
        return fail("give the submitter's folder (e.g. .../closed/NVIDIA) or a perf_analyzer "
                    "CSV; see --help");
    if (std::filesystem::is_regular_file(args.positionals.front()))
        return runValidatePerfAnalyzer(args, io);
    analysis::MlperfSubmissionQuery query;
    query.root = args.positionals.front();
    for (const auto& [option, target] :
         {std::pair{"--system", &query.system}, std::pair{"--benchmark", &query.benchmark}}) {
        const auto value = args.value(option);
        if (!value)
            return fail(std::string(option) + " is required");
        *target = *value;
    }
    query.harnessSystem = args.value("--harness-system").value_or("");
    const auto accelerator = args.value("--accelerator");
    if (!accelerator)
        return fail("--accelerator NAME is required (the preset of the submission's devices)");
    auto library = cliPresetLibrary(args);
    if (!library)
        return reportError(library.error(), args, io);
    auto model =
        accel::modelFromJson({{"accelerator", *accelerator},
                              {"workload", args.value("--workload").value_or(query.benchmark)}},
                             "model", {}, *library);
    if (!model)
        return reportError(model.error(), args, io);
    auto requests = wholeNumberOption(args, "--requests", 1000, 100'000'000);
    if (!requests)
        return reportError(requests.error(), args, io);
    auto validation =
        analysis::validateMlperfServer(query, model->params(), requests->value_or(300000), 5);
    if (!validation)
        return reportError(validation.error(), args, io);
    if (args.json())
        io.out << toJson(*validation).dump(2) << '\n';
    else
        printText(*validation, query, io);
    return kExitOk;
}

} // namespace

std::vector<OptionSpec> validateOptions()
{
    std::vector<OptionSpec> options = {
        {"--system", "NAME", "results folder of the system (e.g. T4x8_TRT)"},
        {"--benchmark", "NAME", "benchmark folder (e.g. resnet50)"},
        {"--harness-system", "KEY",
         "key in the harness configs (default: the system name up to its first '_')"},
        {"--accelerator", "PRESET", "accelerator preset of the devices (e.g. t4)"},
        {"--workload", "PRESET", "workload preset (default: the benchmark name)"},
        {"--requests", "N",
         "measured requests per replication (default 300000; perf_analyzer: 20000 per row)"},
        presetsOption()};
    for (auto& option : perfAnalyzerValidateOptions())
        options.push_back(std::move(option));
    return options;
}

CommandSpec validateCommand()
{
    return {"validate",
            "validate SUBMITTER_FOLDER --system NAME --benchmark NAME --accelerator PRESET "
            "[--workload PRESET] | validate PERF_ANALYZER.csv [--instances N] [--max-batch "
            "ITEMS] [--preferred ITEMS,..] [--max-queue-delay-us US] | validate "
            "MODEL_ANALYZER.ckpt",
            "Predict a real MLPerf Server run from its Offline result and harness settings, or "
            "each row of a perf_analyzer sweep from its server columns, and compare with what "
            "was measured.",
            "Reads, in an MLPerf submitter's folder (NVIDIA layout): results/SYSTEM/BENCHMARK/\n"
            "Offline/performance/run_1 (the Offline throughput), configs/BENCHMARK/{Offline,\n"
            "Server}/config.json (batch size, deque timeout, inference streams, CUDA graphs,\n"
            "input type), systems/SYSTEM.json (devices). It builds the Server scenario from\n"
            "those alone, simulates it (5 replications), and prints predicted latency mean/p50/\n"
            "p90/p99 with 95% intervals beside every measured Server run's, and every setting\n"
            "it assumed. Method: core/accel/README.md, 'Predicting a Server run from its Offline\n"
            "result'.\n\n"
            "Given a perf_analyzer CSV (concurrency mode) instead, it builds a closed-loop\n"
            "scenario per row (the row's concurrency as clients; its server compute input,\n"
            "infer and output as copy-in, compute and copy-out; its client and network time as\n"
            "overhead; --instances servers; dynamic batching from --max-batch, --preferred,\n"
            "--max-queue-delay-us, which the CSV does not state), simulates it and prints\n"
            "predicted vs measured throughput, p50 and p99 per row with the residuals and every\n"
            "setting it assumed. A request-rate row (open loop) gets arrivals at its rate\n"
            "instead, its client time added to the predicted latencies. Method:\n"
            "core/accel/README.md, 'Predicting a perf_analyzer sweep'.\n\n"
            "Given a Model Analyzer checkpoint (checkpoints/N.ckpt), every measurement is\n"
            "predicted the same way under its own configuration's instances and batching, as\n"
            "the checkpoint states them (the options above are refused), the mean latency in\n"
            "place of p50, which the checkpoint does not keep.",
            validateOptions(),
            runValidate};
}

} // namespace bs::cli
