#include "io/aiperfrecordreader.h"

#include "io/genaiperfreader.h"
#include "io/jsonfields.h"
#include "io/jsonline.h"
#include "io/linereader.h"
#include "io/numbercell.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bs::io {

namespace {

using nlohmann::json;

/// Start and end of one request, epoch nanoseconds, kept as integers: a double would round
/// them to ~256 ns.
struct Window
{
    std::int64_t startNs = 0, endNs = 0;
};

class RecordParser
{
public:
    RecordParser(ByteSource& source, ReaderContext& context)
        : m_context(context)
        , m_lines(source, context.progress, context.cancel)
    {}
    Expected<data::LlmRun> parse();

private:
    Status record(const json& object, data::LlmRun& run);
    Expected<Window> window(const json& metadata) const;
    Status latencies(const json& metrics, data::LlmRequest& r) const;
    Expected<std::optional<std::int32_t>> tokens(const json& metrics, const char* key) const;
    Expected<std::optional<std::int64_t>> nanoseconds(const json& metadata, const char* key) const;
    void finish(data::LlmRun& run) const;
    Error error(const std::string& where, const std::string& why,
                ErrorCode code = ErrorCode::Value) const
    {
        return m_lines.errorAt(0, code, "\"" + where + "\" " + why);
    }

    ReaderContext& m_context;
    LineReader m_lines;
    std::vector<Window> m_windows; ///< Per request kept, to rebase arrivals at the end.
    std::int64_t m_skipped = 0;    ///< Records of another phase (warm-up).
    std::map<std::string, std::int64_t> m_failures; ///< Per error code.
};

Expected<std::optional<std::int64_t>> RecordParser::nanoseconds(const json& metadata,
                                                                const char* key) const
{
    const auto it = metadata.find(key);
    if (it == metadata.end() || it->is_null())
        return std::optional<std::int64_t>();
    const bool ok =
        (it->is_number_unsigned() &&
         it->get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<std::int64_t>::max())) ||
        (it->is_number_integer() && it->get<std::int64_t>() >= 0);
    if (!ok)
        return error(std::string("metadata.") + key,
                     "holds " + it->dump() + ", not a whole non-negative number of nanoseconds");
    return std::optional<std::int64_t>(it->get<std::int64_t>());
}

Expected<Window> RecordParser::window(const json& metadata) const
{
    auto start = nanoseconds(metadata, "request_start_ns");
    auto end = nanoseconds(metadata, "request_end_ns");
    if (!start || !end)
        return start ? end.error() : start.error();
    if (!*start)
        return error("metadata.request_start_ns", "is missing (every record has its start)",
                     ErrorCode::Format);
    Window w{**start, end->value_or(**start)};
    if (w.endNs < w.startNs)
        return error("metadata.request_end_ns", "comes before \"metadata.request_start_ns\"");
    return w;
}

/// A metric's {"value", "unit"} object: the value must be a token count.
Expected<std::optional<std::int32_t>> RecordParser::tokens(const json& metrics,
                                                           const char* key) const
{
    const auto it = metrics.find(key);
    if (it == metrics.end() || it->is_null())
        return std::optional<std::int32_t>();
    const std::string where = std::string("metrics.") + key + ".value";
    const json value = it->is_object() ? it->value("value", json()) : json();
    const double v = value.is_number() ? value.get<double>() : -1.0;
    if (!value.is_number() || !(v >= 0.0) || v != std::floor(v) ||
        v > std::numeric_limits<std::int32_t>::max())
        return error(where, "holds " + value.dump() + ", not a token count");
    return std::optional<std::int32_t>(std::int32_t(v));
}

Status RecordParser::latencies(const json& metrics, data::LlmRequest& r) const
{
    const std::pair<const char*, std::optional<double>*> scalars[] = {
        {"time_to_first_token", &r.ttftS},
        {"inter_token_latency", &r.tpotS},
        {"request_latency", &r.e2eS},
        {"inter_chunk_latency", nullptr}};
    for (const auto& [key, field] : scalars) {
        const auto it = metrics.find(key);
        if (it == metrics.end() || it->is_null())
            continue;
        const std::string where = std::string("metrics.") + key;
        if (!it->is_object() || !it->contains("value"))
            return error(where, "holds " + it->dump() + ", not {\"value\", \"unit\"}",
                         ErrorCode::Format);
        const std::string unit = textOr(*it, "unit");
        const auto scale = secondsPer(unit);
        if (!scale)
            return error(where + ".unit", "is \"" + unit + "\", not a time unit (ms, sec, us, ns)",
                         ErrorCode::Format);
        const json& value = it->at("value");
        const bool list = field == nullptr;
        if (list != value.is_array())
            return error(where + ".value", "holds " + value.dump() + ", not " +
                                               (list ? "a list of gaps" : "one latency"));
        const json values = list ? value : json::array({value});
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double v = values[i].is_number() ? values[i].get<double>() : -1.0;
            if (!values[i].is_number() || !std::isfinite(v) || v < 0.0)
                return error(where + ".value" + (list ? "[" + std::to_string(i) + "]" : ""),
                             "holds " + values[i].dump() + ", not a non-negative finite number");
            if (list)
                r.itlS.push_back(v * *scale);
            else
                *field = v * *scale;
        }
    }
    return {};
}

Status RecordParser::record(const json& object, data::LlmRun& run)
{
    if (!object.is_object() || !object.contains("metadata") || !object["metadata"].is_object())
        return m_lines.errorAt(0, ErrorCode::Format,
                               "not an AIPerf record (an object with a \"metadata\" object)");
    const json& metadata = object["metadata"];
    const std::string phase = textOr(metadata, "benchmark_phase", "profiling");
    if (phase != "profiling") {
        ++m_skipped;
        return {};
    }
    auto w = window(metadata);
    if (!w)
        return w.error();
    const json metrics = object.contains("metrics") && object["metrics"].is_object()
                             ? object["metrics"]
                             : json::object();
    data::LlmRequest r;
    const auto err = object.find("error");
    r.ok = err == object.end() || err->is_null();
    auto prompt = tokens(metrics, r.ok ? "input_sequence_length" : "error_isl");
    auto output =
        tokens(metrics, metrics.contains("output_sequence_length") ? "output_sequence_length"
                                                                   : "output_token_count");
    if (!prompt || !output)
        return prompt ? output.error() : prompt.error();
    r.promptTokens = *prompt;
    r.outputTokens = *output;
    if (r.ok) {
        if (auto s = latencies(metrics, r); !s)
            return s.error();
    } else {
        r.error = err->is_object() ? textOr(*err, "message") : err->dump();
        const std::string code =
            err->is_object() && err->contains("code") ? err->at("code").dump() : "?";
        ++m_failures[code];
        if (r.error.empty())
            r.error = "error code " + code;
    }
    m_windows.push_back(*w);
    run.requests.push_back(std::move(r));
    return {};
}

/// Arrivals from the first start; counts, token totals and rates over the window first start
/// -> last end, successful requests only.
void RecordParser::finish(data::LlmRun& run) const
{
    std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = 0;
    for (const auto& w : m_windows) {
        first = std::min(first, w.startNs);
        last = std::max(last, w.endNs);
    }
    std::int64_t ok = 0, prompt = 0, output = 0;
    for (std::size_t i = 0; i < run.requests.size(); ++i) {
        auto& r = run.requests[i];
        r.arrivalS = double(m_windows[i].startNs - first) * 1e-9;
        if (!r.ok)
            continue;
        ++ok;
        prompt += r.promptTokens.value_or(0);
        output += r.outputTokens.value_or(0);
    }
    run.completed = ok;
    if (!m_windows.empty()) {
        run.originEpochS = double(first) * 1e-9;
        run.originSource = "request_start_ns (Unix epoch)";
    }
    run.promptTokensTotal = prompt;
    run.outputTokensTotal = output;
    run.durationS = double(last - first) * 1e-9;
    if (*run.durationS > 0.0) {
        run.requestsPerS = double(ok) / *run.durationS;
        run.promptTokensPerS = double(prompt) / *run.durationS;
        run.outputTokensPerS = double(output) / *run.durationS;
        run.totalTokensPerS = double(prompt + output) / *run.durationS;
    }
}

Expected<data::LlmRun> RecordParser::parse()
{
    data::LlmRun run;
    run.tool = "aiperf";
    run.line = 1;
    auto readLine = [&](std::string_view line) -> Status {
        auto parsed = parseJsonLine(line, m_lines);
        if (!parsed)
            return parsed.error();
        return record(*parsed, run);
    };
    if (auto status = forEachNonBlankLine(m_lines, readLine); !status)
        return status.error();
    warnIfCutShort(m_lines, m_context.warnings);
    if (m_lines.lineNumber() == 0)
        return makeError(ErrorCode::Format, m_context.path, 0, 0, "the file is empty");
    if (run.requests.empty())
        return makeError(ErrorCode::Format, m_context.path, 0, 0,
                         "no profiling record in the file (" + std::to_string(m_skipped) +
                             " of another phase)");
    finish(run);
    if (m_skipped > 0)
        m_context.warnings.add("warm-up records", 0,
                               std::to_string(m_skipped) +
                                   (m_skipped == 1 ? " record" : " records") +
                                   " of a phase other than \"profiling\" (warm-up) left out");
    if (!m_failures.empty()) {
        std::string list;
        std::int64_t failed = 0;
        for (const auto& [code, n] : m_failures) {
            list += (list.empty() ? "" : ", ") + code + ": " + std::to_string(n);
            failed += n;
        }
        m_context.warnings.add("failed requests", 0,
                               std::to_string(failed) + " of " +
                                   std::to_string(run.requests.size()) +
                                   " requests failed (error codes " + list +
                                   "); kept without latencies, left out of every statistic");
    }
    return run;
}

} // namespace

Expected<data::LlmRunSet> parseAiperfRecords(ByteSource& source, ReaderContext& context)
{
    auto run = RecordParser(source, context).parse();
    if (!run)
        return run.error();
    data::LlmRunSet set;
    set.runs.push_back(std::move(*run));
    return set;
}

Expected<data::DatasetContent> readAiperfRecords(ByteSource& source, ReaderContext& context)
{
    if (auto status = refuseReaderOptions(context, "AIPerf records"); !status)
        return status.error();
    return asDatasetContent(parseAiperfRecords(source, context));
}

} // namespace bs::io
