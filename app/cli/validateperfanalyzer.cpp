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

/// The load column of a row: "8" clients or "16/s" requests per second.
std::string loadText(const analysis::PerfAnalyzerRowCheck& row)
{
    if (row.concurrency > 0)
        return std::to_string(row.concurrency);
    char text[32];
    std::snprintf(text, sizeof text, "%g/s", row.requestRatePerS);
    return text;
}

/// "p50", "mean", or "p50/mean" when rows differ: the typical latency the table compares.
std::string centralLabel(const analysis::PerfAnalyzerValidation& v)
{
    const bool anyMean = std::any_of(v.rows.begin(), v.rows.end(),
                                     [](const auto& row) { return row.centralIsMean; });
    const bool anyP50 = std::any_of(v.rows.begin(), v.rows.end(),
                                    [](const auto& row) { return !row.centralIsMean; });
    return anyMean && anyP50 ? "p50/mean" : anyMean ? "mean" : "p50";
}

/// The series column's width: the longest configuration name, none when the sweep has none.
int seriesWidth(const analysis::PerfAnalyzerValidation& v)
{
    std::size_t width = 0;
    for (const auto& row : v.rows)
        width = std::max(width, row.series.size());
    return width == 0 ? 0 : int(std::max<std::size_t>(width, 6));
}

void printText(const analysis::PerfAnalyzerValidation& v, const std::string& path, CliIo& io)
{
    io.out << "perf_analyzer sweep, each row predicted from its own server columns: " << path
           << "\n\n";
    const std::string central = centralLabel(v);
    const int width = seriesWidth(v);
    const std::string seriesHeader = width ? "config" : "";
    char line[512];
    std::snprintf(line, sizeof line, "  %4s %-*s%s%5s %6s | %21s %6s | %17s %6s | %17s %6s\n",
                  "row", width, seriesHeader.c_str(), width ? " " : "", "batch", "load",
                  "infer/s pred / meas", "err", (central + " ms pred/meas").c_str(), "err",
                  "p99 ms pred/meas", "err");
    io.out << line;
    for (const auto& row : v.rows) {
        const auto r = row.residuals();
        std::snprintf(line, sizeof line,
                      "  %4zu%c%-*s%s%5d %6s | %10.0f %10.0f %+5.1f%% | %8.3f %8.3f %+5.1f%% | "
                      "%8.3f %8.3f %+5.1f%%\n",
                      row.row + 1, row.calibratesSeries ? '*' : ' ', width, row.series.c_str(),
                      width ? " " : "", row.batchItems, loadText(row).c_str(),
                      row.predictedItemsPerS, row.measuredItemsPerS, r.throughput * 100.0,
                      row.predictedCentralS * 1e3, row.measuredCentralS * 1e3, r.central * 100.0,
                      row.predictedP99S * 1e3, row.measuredP99S * 1e3, r.p99 * 100.0);
        io.out << line;
    }
    const auto spread = analysis::summarizeResiduals(v);
    io.out << "\nResiduals over " << v.rows.size() << " row(s):\n"
           << residualLine("throughput", spread.throughput)
           << residualLine(central.c_str(), spread.central) << residualLine("p99", spread.p99);
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
                        {"request_rate_per_s", row.requestRatePerS},
                        {"throughput_per_s",
                         {{"predicted", row.predictedItemsPerS},
                          {"measured", row.measuredItemsPerS},
                          {"relative_error", r.throughput}}},
                        {std::string(row.centralName()) + "_s",
                         {{"predicted", row.predictedCentralS},
                          {"measured", row.measuredCentralS},
                          {"relative_error", r.central}}},
                        {"p99_s",
                         {{"predicted", row.predictedP99S},
                          {"measured", row.measuredP99S},
                          {"relative_error", r.p99}}},
                        {"predicted_mean_batch_requests", row.predictedMeanBatchRequests},
                        {"calibrates_series", row.calibratesSeries}});
    }
    return {{"perf_analyzer", path}, {"rows", rows}, {"assumptions", v.assumptions}};
}

} // namespace

/// The settings options, refused for a checkpoint: it states every configuration's own, and a
/// value the command would not use must not look as if it had been.
Status refuseSettingsForCheckpoint(const ParsedArgs& args, const std::string& path)
{
    for (const char* option :
         {"--triton-config", "--instances", "--max-batch", "--preferred", "--max-queue-delay-us"}) {
        if (args.has(option))
            return makeError(ErrorCode::Usage, path, 0, 0,
                             std::string(option) +
                                 " is for perf_analyzer CSVs: a Model Analyzer checkpoint "
                                 "states each configuration's instances and batching");
    }
    return {};
}

int runValidatePerfAnalyzer(const ParsedArgs& args, CliIo& io)
{
    const std::string& path = args.positionals.front();
    // A Model Analyzer checkpoint states each configuration's settings; a perf_analyzer CSV
    // does not, and is read as one whatever its detection says.
    const auto detected = io::detectFormat(path);
    const bool checkpoint = detected && detected->reader == "model_analyzer_checkpoint";
    if (checkpoint) {
        if (auto status = refuseSettingsForCheckpoint(args, path); !status)
            return reportError(status.error(), args, io);
    }
    auto settings = settingsFromArgs(args);
    if (!settings)
        return reportError(settings.error(), args, io);
    auto requests = wholeNumberOption(args, "--requests", 1000, 100'000'000);
    if (!requests)
        return reportError(requests.error(), args, io);
    io::ReadOptions options;
    options.format = checkpoint ? "model_analyzer_checkpoint" : "perf_analyzer";
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
