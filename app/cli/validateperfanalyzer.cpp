#include "validateperfanalyzer.h"

#include "analysis/perfanalyzervalidation.h"
#include "analysis/tritonconfig.h"
#include "io/readdataset.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace bs::cli {

namespace {

/// The model's config.pbtxt when --triton-config names one, else Triton's defaults.
Expected<analysis::TritonModelSettings> baseSettings(const ParsedArgs& args)
{
    const auto path = args.value("--triton-config");
    if (!path)
        return analysis::TritonModelSettings{};
    std::ifstream file(*path, std::ios::binary);
    if (!file)
        return makeError(ErrorCode::Io, *path, 0, 0, "cannot be read");
    std::ostringstream text;
    text << file.rdbuf();
    return analysis::tritonSettingsFromConfig(text.str(), *path);
}

/// The settings: the config's (or Triton's defaults), each replaced by its option when given.
Expected<analysis::TritonModelSettings> settingsFromArgs(const ParsedArgs& args)
{
    auto settings = baseSettings(args);
    if (!settings)
        return settings.error();
    auto instances = wholeNumberOption(args, "--instances", 1, 1024);
    if (!instances)
        return instances.error();
    if (*instances)
        settings->instances = int(**instances);
    auto maxBatch = wholeNumberOption(args, "--max-batch", 1, 1'000'000);
    if (!maxBatch)
        return maxBatch.error();
    if (*maxBatch)
        settings->maxBatchItems = int(**maxBatch);
    if (args.has("--preferred")) {
        auto preferred = numberListOption(args, "--preferred");
        if (!preferred)
            return preferred.error();
        settings->preferredBatchItems.clear();
        for (double items : *preferred)
            settings->preferredBatchItems.push_back(int(items));
    }
    if (args.has("--max-queue-delay-us")) {
        auto delayUs = numberOption(args, "--max-queue-delay-us", 0.0);
        if (!delayUs)
            return delayUs.error();
        settings->maxQueueDelayS = *delayUs / 1e6;
    }
    return settings;
}

/// "median |error| x%, worst y%" of one figure over the rows.
std::string residualLine(const char* name, const analysis::ResidualSpread& spread)
{
    char line[160];
    std::snprintf(line, sizeof line, "  %-10s median |error| %5.1f%%, worst %5.1f%%\n", name,
                  spread.medianAbs * 100.0, spread.worstAbs * 100.0);
    return line;
}

void printText(const analysis::PerfAnalyzerValidation& v, const std::string& path, CliIo& io)
{
    io.out << "perf_analyzer sweep, each row predicted from its own server columns: " << path
           << "\n\n";
    char line[256];
    std::snprintf(line, sizeof line, "  %4s %5s %5s | %21s %6s | %17s %6s | %17s %6s\n", "row",
                  "batch", "conc", "infer/s pred / meas", "err", "p50 ms pred/meas", "err",
                  "p99 ms pred/meas", "err");
    io.out << line;
    for (const auto& row : v.rows) {
        const auto r = row.residuals();
        std::snprintf(line, sizeof line,
                      "  %4zu %5d %5d | %10.0f %10.0f %+5.1f%% | %8.2f %8.2f %+5.1f%% | %8.2f "
                      "%8.2f %+5.1f%%\n",
                      row.row + 1, row.batchItems, row.concurrency, row.predictedItemsPerS,
                      row.measuredItemsPerS, r.throughput * 100.0, row.predictedP50S * 1e3,
                      row.measuredP50S * 1e3, r.p50 * 100.0, row.predictedP99S * 1e3,
                      row.measuredP99S * 1e3, r.p99 * 100.0);
        io.out << line;
    }
    const auto spread = analysis::summarizeResiduals(v);
    io.out << "\nResiduals over " << v.rows.size() << " row(s):\n"
           << residualLine("throughput", spread.throughput) << residualLine("p50", spread.p50)
           << residualLine("p99", spread.p99);
    io.out << "\nAssumed (nothing is fitted to the measured throughput or latency):\n";
    for (const auto& assumption : v.assumptions)
        io.out << "  - " << assumption << "\n";
}

nlohmann::json toJson(const analysis::PerfAnalyzerValidation& v, const std::string& path)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : v.rows) {
        const auto r = row.residuals();
        rows.push_back({{"row", row.row + 1},
                        {"series", row.series},
                        {"batch", row.batchItems},
                        {"concurrency", row.concurrency},
                        {"throughput_per_s",
                         {{"predicted", row.predictedItemsPerS},
                          {"measured", row.measuredItemsPerS},
                          {"relative_error", r.throughput}}},
                        {"p50_s",
                         {{"predicted", row.predictedP50S},
                          {"measured", row.measuredP50S},
                          {"relative_error", r.p50}}},
                        {"p99_s",
                         {{"predicted", row.predictedP99S},
                          {"measured", row.measuredP99S},
                          {"relative_error", r.p99}}},
                        {"predicted_mean_batch_requests", row.predictedMeanBatchRequests}});
    }
    return {{"perf_analyzer", path}, {"rows", rows}, {"assumptions", v.assumptions}};
}

} // namespace

int runValidatePerfAnalyzer(const ParsedArgs& args, CliIo& io)
{
    const std::string& path = args.positionals.front();
    auto settings = settingsFromArgs(args);
    if (!settings)
        return reportError(settings.error(), args, io);
    auto requests = wholeNumberOption(args, "--requests", 1000, 100'000'000);
    if (!requests)
        return reportError(requests.error(), args, io);
    io::ReadOptions options;
    options.format = "perf_analyzer";
    auto dataset = io::readDataset(path, options);
    if (!dataset)
        return reportError(dataset.error(), args, io);
    const auto sweep = dataset->sweep();
    if (!sweep)
        return reportError(makeError(ErrorCode::Value, path, 0, 0, "holds no batch sweep"), args,
                           io);
    auto validation = analysis::validatePerfAnalyzer(*sweep, *settings, requests->value_or(20000));
    if (!validation) {
        Error error = validation.error();
        error.path = path; // the analysis names the row; the user needs the file too
        return reportError(error, args, io);
    }
    if (args.json())
        io.out << toJson(*validation, path).dump(2) << '\n';
    else
        printText(*validation, path, io);
    return kExitOk;
}

std::vector<OptionSpec> perfAnalyzerValidateOptions()
{
    return {{"--triton-config", "FILE",
             "perf_analyzer: the model's config.pbtxt (instances, max batch, preferred sizes, "
             "queue delay); the options below replace its values"},
            {"--instances", "N", "perf_analyzer: model instances on the GPU (default 1)"},
            {"--max-batch", "ITEMS",
             "perf_analyzer: the model's max_batch_size with dynamic batching (default: none)"},
            {"--preferred", "ITEMS,..", "perf_analyzer: preferred batch sizes in items"},
            {"--max-queue-delay-us", "US", "perf_analyzer: dynamic batcher delay (default 0)"}};
}

} // namespace bs::cli
