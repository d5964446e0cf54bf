#include "io/mlperfreader.h"

#include "io/jsonfields.h"
#include "io/mlperflog.h"
#include "io/numbercell.h"
#include "io/siblingfile.h"
#include "io/splreader.h"

#include <cmath>
#include <filesystem>

namespace bs::io {

namespace {

namespace fs = std::filesystem;

struct MlperfOptions
{
    std::optional<int> batchSize;
    bool joinPower = true;
    std::string powerLog; ///< Explicit spl.txt path; empty to look beside the file.
};

Expected<MlperfOptions> readOptions(const ReaderContext& context)
{
    MlperfOptions options;
    JsonFields fields(context.options, "reader_options", context.path);
    if (const auto batch = fields.optionalNumber("batch_size", NumberRule::count(1)))
        options.batchSize = int(*batch);
    if (fields.has("power_log") && context.options["power_log"].is_boolean())
        options.joinPower = fields.boolean("power_log", true);
    else
        options.powerLog = fields.stringOr("power_log", {});
    if (auto status = fields.finish(); !status)
        return status.error();
    return options;
}

void putNumber(data::SweepTable& table, const std::string& key, const std::optional<double>& v)
{
    if (v)
        table.metadata[key] = formatNumber(*v);
}

/// "<prefix>p99.00_s" for each percentile in seconds.
void putPercentiles(data::SweepTable& table, const std::string& prefix,
                    const std::map<std::string, double>& percentileS)
{
    for (const auto& [p, seconds] : percentileS)
        table.metadata[prefix + "p" + p + "_s"] = formatNumber(seconds);
}

/// TTFT and TPOT figures of an LLM run, in seconds, and token throughput in tokens/s.
void putLlmMetadata(data::SweepTable& table, const MlperfResult& r)
{
    static const std::pair<const char*, std::optional<double> MlperfResult::*> fields[] = {
        {"tokens_per_s", &MlperfResult::tokensPerSecond},
        {"ttft_target_s", &MlperfResult::ttftTargetS},
        {"tpot_target_s", &MlperfResult::tpotTargetS},
        {"ttft_min_s", &MlperfResult::minTtftS},
        {"ttft_max_s", &MlperfResult::maxTtftS},
        {"ttft_mean_s", &MlperfResult::meanTtftS},
        {"tpot_min_s", &MlperfResult::minTpotS},
        {"tpot_max_s", &MlperfResult::maxTpotS},
        {"tpot_mean_s", &MlperfResult::meanTpotS}};
    for (const auto& [key, field] : fields)
        putNumber(table, key, r.*field);
    putPercentiles(table, "ttft_", r.ttftPercentileS);
    putPercentiles(table, "tpot_", r.tpotPercentileS);
    for (const auto& [metric, verdict] : r.earlyStopping)
        table.metadata["early_stopping_" + metric] = verdict;
}

void putMetadata(data::SweepTable& table, const MlperfResult& r)
{
    auto put = [&table](const char* key, const std::optional<double>& v) {
        putNumber(table, key, v);
    };
    table.metadata["scenario"] = r.scenario;
    table.metadata["mode"] = r.mode;
    if (!r.sutName.empty())
        table.metadata["sut_name"] = r.sutName;
    if (!r.validity.empty())
        table.metadata["result_validity"] = r.validity;
    for (const auto& [key, value] : r.flags)
        table.metadata[key] = value;
    put("target_qps", r.targetQps);
    // LLM runs log a target latency of 0: their limits are the TTFT and TPOT targets.
    if (!(r.targetLatencyS == 0.0 && (r.ttftTargetS || r.tpotTargetS)))
        put("target_latency_s", r.targetLatencyS);
    put("target_latency_percentile", r.targetLatencyPercentile);
    put("samples_per_query", r.samplesPerQuery);
    put("query_count", r.queryCount);
    put("min_latency_s", r.minLatencyS);
    put("max_latency_s", r.maxLatencyS);
    putPercentiles(table, "latency_", r.percentileLatencyS);
    for (const auto& [key, value] : r.extra)
        table.metadata[key] = value;
    putLlmMetadata(table, r);
    if (!r.powerBeginText.empty()) {
        table.metadata["power_begin"] = r.powerBeginText;
        table.metadata["power_end"] = r.powerEndText;
    }
    table.metadata["loadgen_log_form"] = r.oldDetailForm ? "text (pre-v1.0)" : "current";
}

std::optional<double> percentile(const MlperfResult& r, const char* p)
{
    const auto it = r.percentileLatencyS.find(p);
    return it == r.percentileLatencyS.end() ? std::nullopt : std::optional<double>(it->second);
}

data::SweepTable tableFrom(const MlperfResult& r, int batchSize)
{
    data::SweepTable table;
    data::SweepPoint point;
    point.batchSize = batchSize;
    point.throughputPerS = r.samplesPerSecond;
    if (r.scenario == "Server") {
        table.loadAxis = data::LoadAxis::RequestRate;
        point.requestRatePerS = r.scheduledSamplesPerSecond;
    }
    point.latencyMeanS = r.meanLatencyS;
    point.latencyP50S = percentile(r, "50.00");
    point.latencyP90S = percentile(r, "90.00");
    point.latencyP95S = percentile(r, "95.00");
    point.latencyP99S = percentile(r, "99.00");
    point.latencyP999S = percentile(r, "99.90");
    if (r.queryCount && r.samplesPerQuery)
        point.sampleCount = std::uint64_t(*r.queryCount * *r.samplesPerQuery);
    point.series = r.scenario;
    table.points.push_back(point);
    putMetadata(table, r);
    return table;
}

/// Joins the power window with spl.txt: average power and energy per sample.
Status joinPower(data::SweepTable& table, const MlperfResult& r, const std::string& splPath,
                 ReaderContext& context)
{
    auto source = openByteSource(splPath, context.limits);
    if (!source)
        return source.error();
    ReaderContext splContext(splPath, {}, nlohmann::json::object(), Progress::null(),
                             context.cancel, context.limits);
    auto series = parseSpl(**source, splContext);
    if (!series)
        return series.error();
    const std::string file = fs::path(splPath).filename().string();
    for (const auto& w : splContext.warnings.summary()) {
        context.warnings.add("spl: " + w.message, 0,
                             file + (w.line > 0 ? " line " + std::to_string(w.line) : "") + ": " +
                                 w.message);
    }
    const double begin = r.powerBegin->toSeconds();
    const double end = r.powerEnd->toSeconds();
    double sum = 0.0;
    std::size_t readings = 0;
    for (std::size_t i = 0; i < series->size(); ++i) {
        if (series->timeS[i] >= begin && series->timeS[i] <= end) {
            sum += series->powerW[i];
            ++readings;
        }
    }
    const std::string& name = file;
    table.metadata["power_log"] = splPath;
    if (readings == 0 || end <= begin) {
        context.warnings.add("power-window", 0,
                             name + " has no readings inside the power window " + r.powerBeginText +
                                 " .. " + r.powerEndText + "; power is not reported");
        return {};
    }
    auto& point = table.points.front();
    const double averageW = sum / double(readings);
    const double windowS = end - begin;
    const double energyJ = averageW * windowS;
    // A meter that gave readings for only part of the window (PTDaemon writes -1 when it has
    // none, as in ranging runs) cannot give the window's average.
    const double expected = series->readingWindowS > 0.0 ? windowS / series->readingWindowS : 0.0;
    table.metadata["power_readings"] = std::to_string(readings);
    if (expected > 0.0 && double(readings) < 0.5 * expected) {
        context.warnings.add("power-coverage", 0,
                             name + " has only " + std::to_string(readings) +
                                 " readings inside the " + formatNumber(std::round(windowS)) +
                                 " s power window (about " + formatNumber(std::round(expected)) +
                                 " expected); power is not reported");
        return {};
    }
    point.powerW = averageW;
    const double samples = point.sampleCount ? double(*point.sampleCount)
                                             : point.throughputPerS.value_or(0.0) * windowS;
    if (samples > 0.0)
        point.energyPerInferenceJ = energyJ / samples;
    table.metadata["power_window_s"] = formatNumber(windowS);
    table.metadata["energy_j"] = formatNumber(energyJ);
    table.metadata["meter_channels"] = series->tags.extra["meter_channels"];
    context.note =
        "power window joined with " + name + " (" + std::to_string(readings) + " readings)";
    return {};
}

/// The spl.txt to join, if any, and the window from the detail log (read beside a summary).
Status addPower(data::SweepTable& table, MlperfResult r, const MlperfOptions& options,
                ReaderContext& context)
{
    if (!options.joinPower)
        return {};
    const std::string splPath =
        options.powerLog.empty() ? siblingFile(context, "spl.txt") : options.powerLog;
    if (splPath.empty() || !r.powerBegin || !r.powerEnd)
        return {};
    return joinPower(table, r, splPath, context);
}

/// For a summary: the power window lives in the detail log beside it.
void windowFromDetail(MlperfResult& r, ReaderContext& context)
{
    const std::string detail = siblingFile(context, "mlperf_log_detail.txt");
    if (detail.empty())
        return;
    auto source = openByteSource(detail, context.limits);
    if (!source)
        return;
    ReaderContext detailContext(detail, {}, nlohmann::json::object(), Progress::null(),
                                context.cancel, context.limits);
    if (auto parsed = parseMlperfDetail(**source, detailContext)) {
        r.powerBegin = parsed->powerBegin;
        r.powerEnd = parsed->powerEnd;
        r.powerBeginText = parsed->powerBeginText;
        r.powerEndText = parsed->powerEndText;
    }
}

Expected<data::DatasetContent> finish(MlperfResult& r, const MlperfOptions& options,
                                      ReaderContext& context)
{
    if (!options.batchSize) {
        context.warnings.add("no-batch", 0,
                             "LoadGen logs do not name the harness batch size; taken as 1 (set "
                             "the reader option \"batch_size\")");
    }
    if (r.validity == "INVALID") {
        std::string failed;
        for (const auto& [flag, value] : r.flags) {
            if (value == "no")
                failed += (failed.empty() ? "" : ", ") + flag;
        }
        context.warnings.add("invalid", 0,
                             "LoadGen marks this run INVALID" +
                                 (failed.empty() ? std::string() : " (not met: " + failed + ")"));
    }
    if (r.oldDetailForm && !r.samplesPerSecond) {
        context.warnings.add("no-results", 0,
                             "this pre-v1.0 detail log holds settings and the power window but "
                             "no results; read mlperf_log_summary.txt for throughput and latency");
    }
    data::SweepTable table = tableFrom(r, options.batchSize.value_or(1));
    if (auto status = addPower(table, r, options, context); !status)
        return status.error();
    table.name = fs::path(context.path).filename().string();
    return data::DatasetContent(std::make_shared<const data::SweepTable>(std::move(table)));
}

} // namespace

Expected<data::DatasetContent> readMlperfSummary(ByteSource& source, ReaderContext& context)
{
    auto options = readOptions(context);
    if (!options)
        return options.error();
    auto result = parseMlperfSummary(source, context);
    if (!result)
        return result.error();
    if (options->joinPower)
        windowFromDetail(*result, context);
    return finish(*result, *options, context);
}

Expected<data::DatasetContent> readMlperfDetail(ByteSource& source, ReaderContext& context)
{
    auto options = readOptions(context);
    if (!options)
        return options.error();
    auto result = parseMlperfDetail(source, context);
    if (!result)
        return result.error();
    return finish(*result, *options, context);
}

} // namespace bs::io
