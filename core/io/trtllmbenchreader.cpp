#include "io/trtllmbenchreader.h"

#include "io/genaiperftelemetry.h"
#include "io/jsondocument.h"
#include "io/jsonfields.h"
#include "io/numbercell.h"

#include <cmath>

namespace bs::io {

namespace {

using nlohmann::json;

/// A report is a few KiB; the cap only stops a wrong file from filling memory.
constexpr std::uint64_t kMaxReportBytes = std::uint64_t(64) << 20;

const char* const kPercentileNote = "; the tool's percentiles are sorted[floor(n * q)]";

class ReportReader
{
public:
    ReportReader(const json& document, ReaderContext& context)
        : m_doc(document)
        , m_context(context)
    {}
    Expected<data::LlmRun> read();

private:
    Expected<const json*> section(const char* key, bool required);
    Expected<std::optional<double>> number(const json& object, const std::string& where,
                                           const char* key);
    Status percentiles(const json& object, const std::string& where, const char* key,
                       const char* metric, const std::string& definition, data::LlmRun& run);
    Status worldInfo(const json& world, data::LlmRun& run);
    Status performance(const json& perf, data::LlmRun& run);
    Status streaming(const json& streaming, data::LlmRun& run);
    Status requestInfo(const json& info, data::LlmRun& run);
    void knobs(const json& object, const std::string& prefix, data::LlmRun& run, int depth = 0);
    Error error(const std::string& where, const std::string& why,
                ErrorCode code = ErrorCode::Value) const
    {
        return makeError(code, m_context.path, 0, 0, "\"" + where + "\" " + why);
    }

    const json& m_doc;
    ReaderContext& m_context;
};

/// A section of the report: an object, or empty when absent (or null, as `machine` is on a
/// host without a GPU); anything else is an error.
Expected<const json*> ReportReader::section(const char* key, bool required)
{
    const auto it = m_doc.find(key);
    if (it == m_doc.end() || it->is_null()) {
        if (required)
            return makeError(ErrorCode::Format, m_context.path, 0, 0,
                             std::string("not a trtllm-bench report: no \"") + key + "\" section");
        return static_cast<const json*>(nullptr);
    }
    if (!it->is_object())
        return error(key, "holds " + it->dump() + ", not an object", ErrorCode::Format);
    return &*it;
}

Expected<std::optional<double>> ReportReader::number(const json& object, const std::string& where,
                                                     const char* key)
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return std::optional<double>();
    auto v = statNumber(*it, where + "." + key, m_context.path);
    if (!v)
        return v.error();
    return std::optional<double>(*v);
}

/// A PercentileStats object in ms ({"minimum", "maximum", "average", "p50", "p90", ...}).
Status ReportReader::percentiles(const json& object, const std::string& where, const char* key,
                                 const char* metric, const std::string& definition,
                                 data::LlmRun& run)
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return {};
    const std::string at = where + "." + key;
    if (!it->is_object())
        return error(at, "holds " + it->dump() + ", not a percentile object", ErrorCode::Format);
    data::LlmMetric m;
    m.definition = definition + kPercentileNote;
    for (const auto& [stat, value] : it->items()) {
        auto v = statNumber(value, at + "." + stat, m_context.path);
        if (!v)
            return v.error();
        const double s = *v * 1e-3;
        if (stat == "average")
            m.meanS = s;
        else if (stat == "minimum")
            m.minS = s;
        else if (stat == "maximum")
            m.maxS = s;
        else if (stat.size() > 1 && stat[0] == 'p' && parseNumber(stat.substr(1)))
            m.percentileS[stat.substr(1)] = s;
    }
    if (const auto p50 = m.percentileS.find("50"); p50 != m.percentileS.end())
        m.medianS = p50->second;
    run.metrics[metric] = std::move(m);
    return {};
}

/// The engine's batching limits: whole positive numbers when given (the pytorch backend can
/// leave them null, chosen by the runtime).
Status ReportReader::worldInfo(const json& world, data::LlmRun& run)
{
    for (const char* key :
         {"max_batch_size", "max_num_tokens", "tp_size", "pp_size", "ep_size", "world_size"}) {
        auto v = number(world, "world_info", key);
        if (!v)
            return v.error();
        if (*v && (**v < 1.0 || **v != std::floor(**v)))
            return error(std::string("world_info.") + key,
                         "holds " + formatNumber(**v) + ", not a whole positive number");
    }
    auto kv = number(world, "world_info", "kv_cache_percentage");
    if (!kv)
        return kv.error();
    if (*kv && **kv > 1.0)
        return error("world_info.kv_cache_percentage",
                     "holds " + formatNumber(**kv) + ", not a fraction of free GPU memory (0..1)");
    knobs(world, "world_info", run);
    return {};
}

Status ReportReader::requestInfo(const json& info, data::LlmRun& run)
{
    auto n = number(info, "request_info", "num_requests");
    if (!n)
        return n.error();
    if (*n && **n != std::floor(**n))
        return error("request_info.num_requests",
                     "holds " + formatNumber(**n) + ", not a whole number");
    if (*n)
        run.completed = std::int64_t(**n);
    knobs(info, "request_info", run);
    return {};
}

Status ReportReader::performance(const json& perf, data::LlmRun& run)
{
    struct Figure
    {
        const char* key;
        double scale;
        std::optional<double> data::LlmRun::*field;
    };
    const Figure figures[] = {
        {"total_latency_ms", 1e-3, &data::LlmRun::durationS},
        {"request_throughput_req_s", 1.0, &data::LlmRun::requestsPerS},
        {"system_output_throughput_tok_s", 1.0, &data::LlmRun::outputTokensPerS},
        {"system_total_throughput_tok_s", 1.0, &data::LlmRun::totalTokensPerS}};
    for (const auto& f : figures) {
        auto v = number(perf, "performance", f.key);
        if (!v)
            return v.error();
        if (*v)
            run.*f.field = **v * f.scale;
    }
    // Total counts prompt and output tokens over the same window: the difference is the
    // prompt tokens' rate.
    if (run.totalTokensPerS && run.outputTokensPerS &&
        *run.totalTokensPerS >= *run.outputTokensPerS)
        run.promptTokensPerS = *run.totalTokensPerS - *run.outputTokensPerS;
    if (auto s = percentiles(perf, "performance", "request_latency_percentiles_ms", "e2e",
                             "per request: request issued -> final response", run);
        !s)
        return s.error();
    knobs(perf, "performance", run);
    return {};
}

Status ReportReader::streaming(const json& streaming, data::LlmRun& run)
{
    if (auto s = percentiles(streaming, "streaming_metrics", "ttft_percentiles", "ttft",
                             "per request: request issued -> first token", run);
        !s)
        return s.error();
    if (auto s = percentiles(streaming, "streaming_metrics", "tpot_percentiles", "tpot",
                             "per request: (last token - first token) / (output tokens - 1), "
                             "the first token excluded",
                             run);
        !s)
        return s.error();
    for (const char* key : {"avg_ttft_ms", "avg_tpot_ms", "token_output_speed_tok_s"}) {
        if (auto v = number(streaming, "streaming_metrics", key); !v)
            return v.error();
    }
    knobs(streaming, "streaming_metrics", run);
    return {};
}

/// Every scalar of a section as a knob named by its dotted key; one level of nested objects
/// (the dataset's isl_stats, gen_tps_percentiles in tokens/s) too. Latency percentiles already
/// read as metrics are not repeated.
void ReportReader::knobs(const json& object, const std::string& prefix, data::LlmRun& run,
                         int depth)
{
    for (const auto& [key, value] : object.items()) {
        const std::string name = prefix + "." + key;
        if (value.is_object() && depth == 0 && key.find("_percentiles") != std::string::npos &&
            key != "gen_tps_percentiles")
            continue;
        if (value.is_object() && depth == 0)
            knobs(value, name, run, depth + 1);
        else if (!value.is_structured() && !value.is_null())
            run.knobs[name] = value.is_string() ? value.get<std::string>() : value.dump();
    }
}

Expected<data::LlmRun> ReportReader::read()
{
    data::LlmRun run;
    run.tool = "trtllm-bench";
    run.line = 1;
    auto engine = section("engine", false);
    auto world = section("world_info", true);
    auto perf = section("performance", true);
    auto info = section("request_info", false);
    auto stream = section("streaming_metrics", false);
    for (const auto* s : {&engine, &world, &perf, &info, &stream}) {
        if (!*s)
            return s->error();
    }
    if (*engine) {
        run.model = textOr(**engine, "model");
        run.backend = textOr(**engine, "backend");
        knobs(**engine, "engine", run);
    }
    if (auto s = worldInfo(**world, run); !s)
        return s.error();
    if (auto s = performance(**perf, run); !s)
        return s.error();
    if (*info) {
        if (auto s = requestInfo(**info, run); !s)
            return s.error();
    }
    if (*stream) {
        if (auto s = streaming(**stream, run); !s)
            return s.error();
    }
    for (const char* key : {"machine", "dataset", "decoding_stats"}) {
        auto other = section(key, false);
        if (!other)
            return other.error();
        if (*other)
            knobs(**other, key, run);
    }
    return run;
}

} // namespace

Expected<data::LlmRunSet> parseTrtllmBench(ByteSource& source, ReaderContext& context)
{
    auto document = readJsonDocument(source, context.path, kMaxReportBytes);
    if (!document)
        return document.error();
    if (!document->is_object())
        return makeError(ErrorCode::Format, context.path, 0, 0,
                         "not a trtllm-bench report: the document is not a JSON object");
    auto run = ReportReader(*document, context).read();
    if (!run)
        return run.error();
    data::LlmRunSet set;
    set.runs.push_back(std::move(*run));
    return set;
}

Expected<data::DatasetContent> readTrtllmBench(ByteSource& source, ReaderContext& context)
{
    if (auto status = refuseReaderOptions(context, "trtllm-bench"); !status)
        return status.error();
    return asDatasetContent(parseTrtllmBench(source, context));
}

} // namespace bs::io
