#include "io/genaiperfreader.h"

#include "io/genaiperftelemetry.h"
#include "io/jsondocument.h"
#include "io/jsonfields.h"
#include "io/numbercell.h"

#include <cmath>
#include <set>

namespace bs::io {

namespace {

using nlohmann::json;

/// Exports are a few hundred KiB; the cap only stops a wrong file from filling memory.
constexpr std::uint64_t kMaxExportBytes = std::uint64_t(256) << 20;

struct LatencyName
{
    const char* key;
    const char* metric;
    const char* definition;
};

/// The latency metrics of both tools, named as the rest of BatchScope names them.
const LatencyName kLatencies[] = {
    {"time_to_first_token", "ttft", "per request: request sent -> first streamed token"},
    {"time_to_second_token", "ttst", "per request: first -> second streamed token"},
    {"inter_token_latency", "tpot",
     "per request: (e2e - ttft) / (output tokens - 1), the first token excluded (the tool "
     "calls it inter_token_latency)"},
    {"inter_chunk_latency", "itl", "pooled: every gap between streamed chunks"},
    {"request_latency", "e2e", "per request: request sent -> last token"},
    {"time_to_first_output_token", "ttfot",
     "per request: request sent -> first token that is not reasoning"}};

class ExportReader
{
public:
    ExportReader(const json& document, ReaderContext& context)
        : m_doc(document)
        , m_context(context)
    {}
    Expected<data::LlmRun> read();

private:
    Status latency(const LatencyName& name, data::LlmRun& run);
    Expected<std::optional<double>> average(const char* key, const char* unit = nullptr);
    Status runFigures(data::LlmRun& run);
    void inputConfig(data::LlmRun& run);
    void otherFigures(data::LlmRun& run);
    Error error(const std::string& where, const std::string& message,
                ErrorCode code = ErrorCode::Value) const
    {
        return makeError(code, m_context.path, 0, 0, "\"" + where + "\" " + message);
    }

    const json& m_doc;
    ReaderContext& m_context;
    std::set<std::string> m_used;
};

Status ExportReader::latency(const LatencyName& name, data::LlmRun& run)
{
    const auto it = m_doc.find(name.key);
    if (it == m_doc.end() || it->is_null())
        return {};
    m_used.insert(name.key);
    if (!it->is_object())
        return error(name.key, "holds " + it->dump() + ", not a metric object", ErrorCode::Format);
    const std::string unit = textOr(*it, "unit");
    const auto scale = secondsPer(unit);
    if (!scale)
        return error(std::string(name.key) + ".unit",
                     "is " + it->value("unit", json()).dump() +
                         ", not a time unit (ms, sec, us, ns)",
                     ErrorCode::Format);
    data::LlmMetric m;
    m.definition = name.definition;
    for (const auto& [stat, value] : it->items()) {
        if (stat == "unit" || value.is_null())
            continue;
        auto v = statNumber(value, std::string(name.key) + "." + stat, m_context.path);
        if (!v)
            return v.error();
        const double s = *v * *scale;
        if (stat == "avg")
            m.meanS = s;
        else if (stat == "std")
            m.stdS = s;
        else if (stat == "min")
            m.minS = s;
        else if (stat == "max")
            m.maxS = s;
        else if (stat.size() > 1 && stat[0] == 'p' && parseNumber(stat.substr(1)))
            m.percentileS[stat.substr(1)] = s;
    }
    if (const auto p50 = m.percentileS.find("50"); p50 != m.percentileS.end())
        m.medianS = p50->second;
    run.metrics[name.metric] = std::move(m);
    return {};
}

/// The "avg" of a {"unit", "avg"} object; empty when the key is absent or null. With `unit`,
/// the object's unit must be that one.
Expected<std::optional<double>> ExportReader::average(const char* key, const char* unit)
{
    const auto it = m_doc.find(key);
    if (it == m_doc.end() || it->is_null())
        return std::optional<double>();
    m_used.insert(key);
    if (!it->is_object() || !it->contains("avg"))
        return error(key, "holds " + it->dump() + ", not an object with \"avg\"",
                     ErrorCode::Format);
    if (unit && textOr(*it, "unit") != unit)
        return error(std::string(key) + ".unit",
                     "is " + it->value("unit", json()).dump() + ", expected \"" + unit + "\"",
                     ErrorCode::Format);
    auto v = statNumber(it->at("avg"), std::string(key) + ".avg", m_context.path);
    if (!v)
        return v.error();
    return std::optional<double>(*v);
}

Status ExportReader::runFigures(data::LlmRun& run)
{
    struct Figure
    {
        const char* key;
        const char* unit;
        std::optional<double> data::LlmRun::*field;
    };
    const Figure figures[] = {
        {"request_throughput", "requests/sec", &data::LlmRun::requestsPerS},
        {"output_token_throughput", "tokens/sec", &data::LlmRun::outputTokensPerS},
        {"goodput", nullptr, &data::LlmRun::goodputPerS},
        {"benchmark_duration", "sec", &data::LlmRun::durationS}};
    for (const auto& f : figures) {
        auto v = average(f.key, f.unit);
        if (!v)
            return v.error();
        run.*f.field = *v;
    }
    struct Count
    {
        const char* key;
        std::optional<std::int64_t> data::LlmRun::*field;
    };
    // AIPerf's total_osl counts reasoning and visible tokens: the output_token_throughput's.
    for (const auto& [key, field] : {Count{"request_count", &data::LlmRun::completed},
                                     Count{"total_isl", &data::LlmRun::promptTokensTotal},
                                     Count{"total_osl", &data::LlmRun::outputTokensTotal}}) {
        auto v = average(key);
        if (!v)
            return v.error();
        if (*v && **v != std::floor(**v))
            return error(std::string(key) + ".avg",
                         "holds " + formatNumber(**v) + ", not a whole number");
        if (*v)
            run.*field = std::int64_t(**v);
    }
    auto failed = average("error_request_count");
    if (!failed)
        return failed.error();
    if (*failed && **failed > 0.0)
        m_context.warnings.add("failed requests", 0,
                               formatNumber(**failed) +
                                   " requests failed; the tool left them out of its statistics");
    return {};
}

/// The settings of the run from `input_config` (GenAI-Perf and AIPerf place them apart). API
/// keys and the command line (which can hold one) are not kept.
void ExportReader::inputConfig(data::LlmRun& run)
{
    const auto config = m_doc.find("input_config");
    if (config == m_doc.end() || !config->is_object())
        return;
    m_used.insert("input_config");
    enum class Role
    {
        Model,
        Concurrency,
        Rate,
        Knob
    };
    static const std::pair<const char*, Role> settings[] = {
        {"/model_names/0", Role::Model},
        {"/endpoint/model_names/0", Role::Model},
        {"/endpoint/type", Role::Knob},
        {"/endpoint/streaming", Role::Knob},
        {"/endpoint/backend", Role::Knob},
        {"/perf_analyzer/stimulus/concurrency", Role::Concurrency},
        {"/perf_analyzer/stimulus/request_rate", Role::Rate},
        {"/perf_analyzer/warmup_request_count", Role::Knob},
        {"/perf_analyzer/measurement/mode", Role::Knob},
        {"/perf_analyzer/measurement/num", Role::Knob},
        {"/loadgen/concurrency", Role::Concurrency},
        {"/loadgen/request_rate", Role::Rate},
        {"/loadgen/request_rate_mode", Role::Knob},
        {"/loadgen/request_count", Role::Knob},
        {"/loadgen/warmup_request_count", Role::Knob},
        {"/input/random_seed", Role::Knob}};
    for (const auto& [pointer, role] : settings) {
        const json::json_pointer at(pointer);
        if (!config->contains(at) || config->at(at).is_structured() || config->at(at).is_null())
            continue;
        const json& value = config->at(at);
        const bool positive =
            value.is_number() && std::isfinite(value.get<double>()) && value.get<double>() > 0.0;
        if (role == Role::Model && value.is_string())
            run.model = value.get<std::string>();
        else if (role == Role::Concurrency && positive)
            run.maxConcurrency = value.get<double>();
        else if (role == Role::Rate && positive)
            run.requestRatePerS = value.get<double>();
        run.knobs[std::string(pointer).substr(1)] =
            value.is_string() ? value.get<std::string>() : value.dump();
    }
}

/// Every other figure with a unit (sequence lengths, per-user throughput, reasoning tokens):
/// its mean, as a knob; scalars (start and end time) as written.
void ExportReader::otherFigures(data::LlmRun& run)
{
    for (const auto& [key, value] : m_doc.items()) {
        if (m_used.count(key) || value.is_null())
            continue;
        if (value.is_object() && value.contains("avg") && value["avg"].is_number())
            run.knobs[key + ".avg"] =
                formatNumber(value["avg"].get<double>()) + " " + textOr(value, "unit");
        else if (value.is_string() || value.is_boolean())
            run.knobs[key] = value.is_string() ? value.get<std::string>() : value.dump();
    }
}

Expected<data::LlmRun> ExportReader::read()
{
    data::LlmRun run;
    run.tool = genAiPerfTool(m_doc);
    run.line = 1;
    if (run.tool.empty())
        return makeError(ErrorCode::Format, m_context.path, 0, 0,
                         "not a GenAI-Perf or AIPerf export (no \"request_throughput\" or no "
                         "\"time_to_first_token\" / \"request_latency\" metric)");
    for (const auto& name : kLatencies) {
        if (auto status = latency(name, run); !status)
            return status.error();
    }
    if (auto status = runFigures(run); !status)
        return status.error();
    auto gpus = readGpuTelemetry(m_doc, m_context.path);
    if (!gpus)
        return gpus.error();
    run.gpus = std::move(*gpus);
    m_used.insert({"telemetry_stats", "telemetry_data"});
    inputConfig(run);
    otherFigures(run);
    return run;
}

} // namespace

Expected<data::LlmRun> genAiPerfRun(const json& document, ReaderContext& context)
{
    return ExportReader(document, context).read();
}

std::optional<double> secondsPer(const std::string& unit)
{
    if (unit == "ms")
        return 1e-3;
    if (unit == "sec" || unit == "s")
        return 1.0;
    if (unit == "us")
        return 1e-6;
    if (unit == "ns")
        return 1e-9;
    return std::nullopt;
}

std::string genAiPerfTool(const json& object)
{
    if (!object.is_object() || !object.contains("request_throughput") ||
        !(object.contains("time_to_first_token") || object.contains("request_latency")))
        return {};
    const bool aiperf = object.contains("benchmark_duration") ||
                        object.contains("telemetry_data") || object.contains("error_summary");
    return aiperf ? "aiperf" : "genai-perf";
}

Expected<data::LlmRunSet> parseGenAiPerf(ByteSource& source, ReaderContext& context)
{
    auto document = readJsonDocument(source, context.path, kMaxExportBytes);
    if (!document)
        return document.error();
    auto run = genAiPerfRun(*document, context);
    if (!run)
        return run.error();
    data::LlmRunSet set;
    set.runs.push_back(std::move(*run));
    return set;
}

Expected<data::DatasetContent> readGenAiPerf(ByteSource& source, ReaderContext& context)
{
    if (auto status = refuseReaderOptions(context, "GenAI-Perf/AIPerf"); !status)
        return status.error();
    return asDatasetContent(parseGenAiPerf(source, context));
}

} // namespace bs::io
