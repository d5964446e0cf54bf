#include "io/datasetjson.h"

namespace bs::io {

namespace {

template <typename T>
nlohmann::json columnOrNull(const std::vector<T>& column)
{
    return column.empty() ? nlohmann::json() : nlohmann::json(column);
}

/// Reads an optional numeric column that must be empty or exactly `rows` long.
template <typename T>
std::vector<T> readColumn(JsonFields& fields, const char* key, std::size_t rows, NumberRule rule,
                          bool required = false)
{
    const auto values = fields.numbers(key, rule, required);
    if (!values.empty() && values.size() != rows) {
        fields.fail(key, "has " + std::to_string(values.size()) + " values but the table has " +
                             std::to_string(rows) + " rows");
        return {};
    }
    return std::vector<T>(values.begin(), values.end());
}

data::LoadAxis loadAxisFromName(const std::string& name)
{
    if (name == "concurrency")
        return data::LoadAxis::Concurrency;
    if (name == "request_rate")
        return data::LoadAxis::RequestRate;
    return data::LoadAxis::None;
}

} // namespace

nlohmann::json toJson(const data::RunTags& tags)
{
    nlohmann::json out = nlohmann::json::object();
    auto put = [&out](const char* key, const std::string& value) {
        if (!value.empty())
            out[key] = value;
    };
    put("workload_seed", tags.workloadSeed);
    put("model_revision", tags.modelRevision);
    put("compiler", tags.compiler);
    put("firmware", tags.firmware);
    put("runtime", tags.runtime);
    put("hardware", tags.hardware);
    if (!tags.extra.empty())
        out["extra"] = tags.extra;
    return out;
}

data::RunTags runTagsFromJson(JsonFields& parent, const char* key)
{
    data::RunTags tags;
    const auto* object = parent.object(key);
    if (!object)
        return tags;
    JsonFields fields(*object, parent.child(key), parent.path());
    tags.workloadSeed = fields.stringOr("workload_seed", {});
    tags.modelRevision = fields.stringOr("model_revision", {});
    tags.compiler = fields.stringOr("compiler", {});
    tags.firmware = fields.stringOr("firmware", {});
    tags.runtime = fields.stringOr("runtime", {});
    tags.hardware = fields.stringOr("hardware", {});
    if (const auto* extra = fields.object("extra")) {
        for (const auto& [k, v] : extra->items()) {
            if (!v.is_string()) {
                fields.fail("extra." + k, "must be a string");
                break;
            }
            tags.extra[k] = v.get<std::string>();
        }
    }
    parent.adopt(fields.finish());
    return tags;
}

nlohmann::json toJson(const data::SweepPoint& p)
{
    nlohmann::json out = {{"batch_size", p.batchSize}};
    putOptional(out, "concurrency", p.concurrency);
    putOptional(out, "request_rate_per_s", p.requestRatePerS);
    putOptional(out, "throughput_per_s", p.throughputPerS);
    putOptional(out, "latency_mean_s", p.latencyMeanS);
    putOptional(out, "latency_p50_s", p.latencyP50S);
    putOptional(out, "latency_p90_s", p.latencyP90S);
    putOptional(out, "latency_p95_s", p.latencyP95S);
    putOptional(out, "latency_p99_s", p.latencyP99S);
    putOptional(out, "latency_p999_s", p.latencyP999S);
    putOptional(out, "power_w", p.powerW);
    putOptional(out, "energy_per_inference_j", p.energyPerInferenceJ);
    putOptional(out, "utilization", p.utilization);
    putOptional(out, "memory_bytes", p.memoryBytes);
    putOptional(out, "server_queue_s", p.serverQueueS);
    putOptional(out, "compute_input_s", p.computeInputS);
    putOptional(out, "compute_infer_s", p.computeInferS);
    putOptional(out, "compute_output_s", p.computeOutputS);
    putOptional(out, "client_overhead_s", p.clientOverheadS);
    if (p.sampleCount)
        out["sample_count"] = *p.sampleCount;
    if (!p.series.empty())
        out["series"] = p.series;
    return out;
}

nlohmann::json toJson(const data::SweepTable& table)
{
    nlohmann::json points = nlohmann::json::array();
    for (const auto& p : table.points)
        points.push_back(toJson(p));
    nlohmann::json out = {{"name", table.name},
                          {"load_axis", data::loadAxisName(table.loadAxis)},
                          {"tags", toJson(table.tags)},
                          {"points", std::move(points)}};
    if (!table.metadata.empty())
        out["metadata"] = table.metadata;
    return out;
}

Expected<data::SweepTable> sweepTableFromJson(const nlohmann::json& json, const std::string& where,
                                              const std::string& path)
{
    JsonFields fields(json, where, path);
    data::SweepTable table;
    table.name = fields.stringOr("name", {});
    table.loadAxis = loadAxisFromName(
        fields.choice("load_axis", {"none", "concurrency", "request_rate"}, "none"));
    table.tags = runTagsFromJson(fields, "tags");
    if (const auto* metadata = fields.object("metadata")) {
        for (const auto& [key, value] : metadata->items()) {
            if (!value.is_string()) {
                fields.fail("metadata." + key, "must be a string");
                break;
            }
            table.metadata[key] = value.get<std::string>();
        }
    }
    if (const auto* points = fields.array("points", true)) {
        for (std::size_t i = 0; i < points->size() && fields.ok(); ++i) {
            JsonFields pf((*points)[i], fields.child("points[" + std::to_string(i) + "]"), path);
            data::SweepPoint p;
            const auto nonNegative = NumberRule::nonNegative();
            p.batchSize = int(pf.integer("batch_size", NumberRule::count(1)));
            p.concurrency = pf.optionalNumber("concurrency", nonNegative);
            p.requestRatePerS = pf.optionalNumber("request_rate_per_s", nonNegative);
            p.throughputPerS = pf.optionalNumber("throughput_per_s", nonNegative);
            p.latencyMeanS = pf.optionalNumber("latency_mean_s", nonNegative);
            p.latencyP50S = pf.optionalNumber("latency_p50_s", nonNegative);
            p.latencyP90S = pf.optionalNumber("latency_p90_s", nonNegative);
            p.latencyP95S = pf.optionalNumber("latency_p95_s", nonNegative);
            p.latencyP99S = pf.optionalNumber("latency_p99_s", nonNegative);
            p.latencyP999S = pf.optionalNumber("latency_p999_s", nonNegative);
            p.powerW = pf.optionalNumber("power_w", nonNegative);
            p.energyPerInferenceJ = pf.optionalNumber("energy_per_inference_j", nonNegative);
            p.utilization = pf.optionalNumber("utilization", NumberRule::range(0.0, 1.0));
            p.memoryBytes = pf.optionalNumber("memory_bytes", nonNegative);
            p.serverQueueS = pf.optionalNumber("server_queue_s", nonNegative);
            p.computeInputS = pf.optionalNumber("compute_input_s", nonNegative);
            p.computeInferS = pf.optionalNumber("compute_infer_s", nonNegative);
            p.computeOutputS = pf.optionalNumber("compute_output_s", nonNegative);
            p.clientOverheadS = pf.optionalNumber("client_overhead_s", nonNegative);
            if (pf.has("sample_count"))
                p.sampleCount = pf.unsignedOr("sample_count", 0);
            p.series = pf.stringOr("series", {});
            if (auto status = pf.finish(); !status)
                return status.error();
            table.points.push_back(p);
        }
    }
    if (auto status = fields.finish(); !status)
        return status.error();
    return table;
}

nlohmann::json toJson(const data::RequestTrace& t)
{
    return {{"name", t.name},
            {"origin_epoch_s", t.originEpochS},
            {"arrival_s", t.arrivalS},
            {"intended_s", columnOrNull(t.intendedS)},
            {"dispatch_s", columnOrNull(t.dispatchS)},
            {"completion_s", columnOrNull(t.completionS)},
            {"batch_id", columnOrNull(t.batchId)},
            {"batch_size", columnOrNull(t.batchSize)},
            {"stream_index", columnOrNull(t.streamIndex)},
            {"stream_names", t.streamNames},
            {"input_tokens", columnOrNull(t.inputTokens)},
            {"output_tokens", columnOrNull(t.outputTokens)},
            {"tags", toJson(t.tags)}};
}

Expected<data::RequestTrace> requestTraceFromJson(const nlohmann::json& json,
                                                  const std::string& where, const std::string& path)
{
    JsonFields fields(json, where, path);
    data::RequestTrace t;
    t.name = fields.stringOr("name", {});
    t.originEpochS = fields.numberOr("origin_epoch_s", 0.0, NumberRule::nonNegative());
    t.arrivalS = fields.numbers("arrival_s");
    const std::size_t rows = t.arrivalS.size();
    const auto any = NumberRule{};
    t.intendedS = readColumn<double>(fields, "intended_s", rows, any);
    t.dispatchS = readColumn<double>(fields, "dispatch_s", rows, any);
    t.completionS = readColumn<double>(fields, "completion_s", rows, any);
    t.batchId = readColumn<std::int64_t>(fields, "batch_id", rows, NumberRule::count(0));
    t.batchSize = readColumn<std::int32_t>(fields, "batch_size", rows, NumberRule::count(1));
    t.streamIndex = readColumn<std::uint32_t>(fields, "stream_index", rows, NumberRule::count(0));
    t.inputTokens = readColumn<std::int32_t>(fields, "input_tokens", rows, NumberRule::count(0));
    t.outputTokens = readColumn<std::int32_t>(fields, "output_tokens", rows, NumberRule::count(0));
    if (const auto* names = fields.array("stream_names")) {
        for (const auto& n : *names) {
            if (!n.is_string()) {
                fields.fail("stream_names", "must hold strings");
                break;
            }
            t.streamNames.push_back(n.get<std::string>());
        }
    }
    for (auto s : t.streamIndex) {
        if (s >= t.streamNames.size()) {
            fields.fail("stream_index", "refers to a stream that stream_names does not list");
            break;
        }
    }
    t.tags = runTagsFromJson(fields, "tags");
    if (auto status = fields.finish(); !status)
        return status.error();
    return t;
}

nlohmann::json toJson(const data::PowerSeries& s)
{
    return {{"name", s.name},
            {"time_s", s.timeS},
            {"power_w", s.powerW},
            {"sm_clock_mhz", columnOrNull(s.smClockMHz)},
            {"mem_clock_mhz", columnOrNull(s.memClockMHz)},
            {"temperature_c", columnOrNull(s.temperatureC)},
            {"utilization_pct", columnOrNull(s.utilizationPct)},
            {"channel", columnOrNull(s.channel)},
            {"channel_names", s.channelNames},
            {"reading_window_s", s.readingWindowS},
            {"tags", toJson(s.tags)}};
}

Expected<data::PowerSeries> powerSeriesFromJson(const nlohmann::json& json,
                                                const std::string& where, const std::string& path)
{
    JsonFields fields(json, where, path);
    data::PowerSeries s;
    s.name = fields.stringOr("name", {});
    s.timeS = fields.numbers("time_s");
    const std::size_t rows = s.timeS.size();
    s.powerW = readColumn<double>(fields, "power_w", rows, NumberRule::nonNegative(), true);
    s.smClockMHz = readColumn<double>(fields, "sm_clock_mhz", rows, NumberRule::nonNegative());
    s.memClockMHz = readColumn<double>(fields, "mem_clock_mhz", rows, NumberRule::nonNegative());
    s.temperatureC = readColumn<double>(fields, "temperature_c", rows, NumberRule{});
    s.utilizationPct =
        readColumn<double>(fields, "utilization_pct", rows, NumberRule::range(0.0, 100.0));
    s.channel = readColumn<int>(fields, "channel", rows, NumberRule::count(0));
    if (const auto* names = fields.array("channel_names")) {
        for (const auto& n : *names) {
            if (n.is_string())
                s.channelNames.push_back(n.get<std::string>());
        }
    }
    s.readingWindowS = fields.numberOr("reading_window_s", 0.0, NumberRule::nonNegative());
    s.tags = runTagsFromJson(fields, "tags");
    if (auto status = fields.finish(); !status)
        return status.error();
    return s;
}

nlohmann::json toJson(const data::Provenance& p)
{
    nlohmann::json warnings = nlohmann::json::array();
    for (const auto& w : p.warnings)
        warnings.push_back({{"line", w.line}, {"message", w.message}});
    return {{"path", p.path},
            {"size_bytes", p.sizeBytes},
            {"sha256", p.sha256},
            {"reader", p.reader},
            {"reader_version", p.readerVersion},
            {"detected_because", p.detectedBecause},
            {"warnings", std::move(warnings)}};
}

data::Provenance provenanceFromJson(JsonFields& parent, const char* key, std::string* relativePath)
{
    data::Provenance p;
    const auto* object = parent.object(key, true);
    if (!object)
        return p;
    JsonFields fields(*object, parent.child(key), parent.path());
    p.path = fields.stringOr("path", {});
    p.sizeBytes = fields.unsignedOr("size_bytes", 0);
    p.sha256 = fields.stringOr("sha256", {});
    p.reader = fields.stringOr("reader", {});
    p.readerVersion = int(fields.integerOr("reader_version", 1, NumberRule::count(1)));
    p.detectedBecause = fields.stringOr("detected_because", {});
    const std::string relative = fields.stringOr("relative_path", {});
    if (relativePath)
        *relativePath = relative;
    if (const auto* warnings = fields.array("warnings")) {
        for (const auto& w : *warnings) {
            JsonFields wf(w, fields.child("warnings[]"), parent.path());
            data::ReadWarning warning;
            warning.line = wf.integerOr("line", 0, NumberRule::count(0));
            warning.message = wf.stringOr("message", {});
            fields.adopt(wf.finish());
            if (!fields.ok())
                break;
            p.warnings.push_back(std::move(warning));
        }
    }
    parent.adopt(fields.finish());
    return p;
}

} // namespace bs::io
