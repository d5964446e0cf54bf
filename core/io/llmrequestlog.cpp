#include "io/llmrequestlog.h"

#include "io/csvsplitter.h"
#include "io/jsonfields.h"
#include "io/jsonline.h"
#include "io/linereader.h"
#include "io/llmengineseries.h"
#include "io/siblingfile.h"

#include <cmath>
#include <filesystem>
#include <limits>
#include <vector>

namespace bs::io {

namespace {

/// The four monotonic times of one request, in the order they must come.
struct Stamps
{
    double queued, scheduled, firstToken, lastToken;
};

class RequestLogParser
{
public:
    RequestLogParser(ByteSource& source, ReaderContext& context)
        : m_context(context)
        , m_lines(source, context.progress, context.cancel)
    {}
    Expected<data::LlmRun> parse();

private:
    Expected<data::LlmRequest> record(const nlohmann::json& object);
    Expected<double> seconds(const nlohmann::json& object, const char* key) const;
    Expected<std::int32_t> tokens(const nlohmann::json& object, const char* key) const;
    Error error(std::string message, ErrorCode code = ErrorCode::Format) const
    {
        return m_lines.errorAt(0, code, std::move(message));
    }

    ReaderContext& m_context;
    LineReader m_lines;
    std::vector<double> m_queuedTs;      ///< Per request, to rebase arrivals at the end.
    std::vector<double> m_clockOffsetsS; ///< arrival_time - queued_ts, where a request has both.
};

Expected<double> RequestLogParser::seconds(const nlohmann::json& object, const char* key) const
{
    const auto it = object.find(key);
    if (it == object.end())
        return error(std::string("no \"") + key +
                     "\" (a request log line has request_id, "
                     "input_toks, output_toks, queued_ts, "
                     "scheduled_ts (optional), first_token_ts, last_token_ts)");
    const double value = it->is_number() ? it->get<double>() : -1.0;
    if (!it->is_number() || !std::isfinite(value) || value < 0.0)
        return error(std::string("\"") + key + "\" holds " + it->dump() +
                         ", not a non-negative number of seconds",
                     ErrorCode::Value);
    return value;
}

Expected<std::int32_t> RequestLogParser::tokens(const nlohmann::json& object, const char* key) const
{
    const auto it = object.find(key);
    const bool whole = it != object.end() && it->is_number_integer() &&
                       it->get<std::int64_t>() >= 0 &&
                       it->get<std::int64_t>() <= std::numeric_limits<std::int32_t>::max();
    if (!whole)
        return error(std::string("\"") + key + "\" holds " +
                         (it == object.end() ? std::string("nothing") : it->dump()) +
                         ", not a token count",
                     ErrorCode::Value);
    return std::int32_t(it->get<std::int64_t>());
}

Expected<data::LlmRequest> RequestLogParser::record(const nlohmann::json& object)
{
    if (!object.is_object())
        return error("not a JSON object");
    Stamps t{};
    // scheduled_ts is optional: without it the request has no queue time, the rest stands.
    const bool scheduled = object.contains("scheduled_ts");
    std::vector<std::pair<const char*, double*>> stamps = {{"queued_ts", &t.queued}};
    if (scheduled)
        stamps.push_back({"scheduled_ts", &t.scheduled});
    stamps.push_back({"first_token_ts", &t.firstToken});
    stamps.push_back({"last_token_ts", &t.lastToken});
    for (const auto& [key, field] : stamps) {
        auto value = seconds(object, key);
        if (!value)
            return value.error();
        *field = *value;
    }
    for (std::size_t i = 1; i < stamps.size(); ++i) {
        if (*stamps[i].second < *stamps[i - 1].second)
            return error(std::string("\"") + stamps[i].first + "\" comes before \"" +
                             stamps[i - 1].first +
                             "\"; a request is queued, scheduled, then "
                             "streams its first and last token",
                         ErrorCode::Value);
    }
    data::LlmRequest r;
    auto prompt = tokens(object, "input_toks");
    auto output = tokens(object, "output_toks");
    if (!prompt || !output)
        return prompt ? output.error() : prompt.error();
    r.promptTokens = *prompt;
    r.outputTokens = *output;
    r.ttftS = t.firstToken - t.queued;
    r.e2eS = t.lastToken - t.queued;
    if (scheduled)
        r.queueS = t.scheduled - t.queued;
    if (*output > 1)
        r.tpotS = (t.lastToken - t.firstToken) / double(*output - 1);
    m_queuedTs.push_back(t.queued);
    // arrival_time is the API server's Unix time of the same moment the engine's own clock calls
    // queued_ts (give or take the hand-over): their difference places the run in Unix time.
    if (const auto it = object.find("arrival_time"); it != object.end() && it->is_number())
        m_clockOffsetsS.push_back(it->get<double>() - t.queued);
    return r;
}

/// Counts, token totals and rates over the log's window (first queued -> last token).
void setTotals(data::LlmRun& run)
{
    std::int64_t prompt = 0, output = 0;
    for (const auto& r : run.requests) {
        prompt += *r.promptTokens;
        output += *r.outputTokens;
    }
    run.completed = std::int64_t(run.requests.size());
    run.promptTokensTotal = prompt;
    run.outputTokensTotal = output;
    if (*run.durationS > 0.0) {
        run.requestsPerS = double(run.requests.size()) / *run.durationS;
        run.promptTokensPerS = double(prompt) / *run.durationS;
        run.outputTokensPerS = double(output) / *run.durationS;
        run.totalTokensPerS = double(prompt + output) / *run.durationS;
    }
}

Expected<data::LlmRun> RequestLogParser::parse()
{
    data::LlmRun run;
    run.tool = "vllm_request_log";
    run.line = 1;
    auto readLine = [&](std::string_view line) -> Status {
        auto parsed = parseJsonLine(line, m_lines);
        if (!parsed)
            return parsed.error();
        auto request = record(*parsed);
        if (!request)
            return request.error();
        run.requests.push_back(std::move(*request));
        return {};
    };
    if (auto status = forEachNonBlankLine(m_lines, readLine); !status)
        return status.error();
    warnIfCutShort(m_lines, m_context.warnings);
    if (run.requests.empty())
        return makeError(ErrorCode::Format, m_context.path, 0, 0,
                         m_lines.lineNumber() == 0 ? "the file is empty"
                                                   : "the file holds only blank lines, no request");
    const double firstQueuedS = *std::min_element(m_queuedTs.begin(), m_queuedTs.end());
    double lastTokenS = 0.0;
    for (std::size_t i = 0; i < run.requests.size(); ++i) {
        auto& r = run.requests[i];
        r.arrivalS = m_queuedTs[i] - firstQueuedS;
        lastTokenS = std::max(lastTokenS, *r.arrivalS + *r.e2eS);
    }
    run.durationS = lastTokenS;
    if (m_clockOffsetsS.size() == run.requests.size()) {
        auto middle = m_clockOffsetsS.begin() + std::ptrdiff_t(m_clockOffsetsS.size() / 2);
        std::nth_element(m_clockOffsetsS.begin(), middle, m_clockOffsetsS.end());
        run.originEpochS = firstQueuedS + *middle;
        run.originSource = "arrival_time - queued_ts (median over the requests)";
    }
    setTotals(run);
    return run;
}

Error seriesError(const std::string& opened, const Error& inSeries)
{
    return siblingError(opened, inSeries, "engine series",
                        "read without it with the reader option {\"siblings\": false}");
}

Status joinEngineSeries(const std::string& path, ReaderContext& context, data::LlmRun& run)
{
    auto source = openByteSource(path, context.limits);
    if (!source)
        return seriesError(context.path, source.error());
    ReaderContext series(path, {}, nlohmann::json::object(), Progress::null(), context.cancel,
                         context.limits);
    auto samples = parseLlmEngineSeries(**source, series);
    if (!samples)
        return seriesError(context.path, samples.error());
    run.engineSeries = std::move(*samples);
    return {};
}

/// The engine settings of the run record (`meta.json`: engine_kwargs, kv_cache, versions) as
/// knobs. The record only describes the run, so a broken one is a warning, not an error.
void joinRunRecord(const std::string& path, ReaderContext& context, data::LlmRun& run)
{
    auto source = openByteSource(path, context.limits);
    auto text =
        source ? readAll(**source, std::uint64_t(16) << 20) : Expected<std::string>(source.error());
    auto record = text ? parseJson(*text, path) : Expected<nlohmann::json>(text.error());
    if (!record || !record->is_object()) {
        context.warnings.add(
            "run record", 0,
            "meta.json beside the file was not read: " +
                (record ? std::string("not a JSON object") : record.error().message));
        return;
    }
    auto put = [&](const nlohmann::json& object, const std::string& prefix) {
        if (!object.is_object())
            return;
        for (const auto& [key, value] : object.items()) {
            if (!value.is_structured() && !value.is_null())
                run.knobs[prefix + key] =
                    value.is_string() ? value.get<std::string>() : value.dump();
        }
    };
    put(*record, "");
    put(record->value("engine_kwargs", nlohmann::json()), "engine.");
    put(record->value("kv_cache", nlohmann::json()), "kv_cache.");
    put(record->value("hardware", nlohmann::json()), "hardware.");
    run.model = record->value("model", std::string());
    // A run BatchScope's simulator wrote (llmsim/requestlogwriter.h) must never pass for a
    // measurement: say so wherever the file's warnings are shown.
    if (const auto by = record->find("simulated_by"); by != record->end() && by->is_string())
        context.warnings.add("run record", 0,
                             "simulated, not measured: meta.json says the " +
                                 by->get<std::string>() + " wrote this run");
}

Expected<bool> wantSiblings(const ReaderContext& context)
{
    JsonFields fields(context.options, "reader_options", context.path);
    const bool want = fields.boolean("siblings", true);
    if (auto status = fields.finish(); !status)
        return status.error();
    return want;
}

} // namespace

Expected<data::LlmRunSet> parseLlmRequestLog(ByteSource& source, ReaderContext& context)
{
    auto want = wantSiblings(context);
    if (!want)
        return want.error();
    RequestLogParser parser(source, context);
    auto run = parser.parse();
    if (!run)
        return run.error();
    std::string joined;
    if (const auto series = *want ? siblingFile(context, "timeseries.csv") : std::string();
        !series.empty()) {
        if (auto status = joinEngineSeries(series, context, *run); !status)
            return status.error();
        joined = "timeseries.csv";
    }
    if (const auto record = *want ? siblingFile(context, "meta.json") : std::string();
        !record.empty()) {
        joinRunRecord(record, context, *run);
        joined += joined.empty() ? "meta.json" : " and meta.json";
    }
    if (!joined.empty())
        context.note = "joined with " + joined + " beside it";
    data::LlmRunSet set;
    set.runs.push_back(std::move(*run));
    return set;
}

Expected<data::DatasetContent> readLlmRequestLog(ByteSource& source, ReaderContext& context)
{
    return asDatasetContent(parseLlmRequestLog(source, context));
}

} // namespace bs::io
