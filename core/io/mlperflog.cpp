#include "io/mlperflog.h"

#include "io/csvsplitter.h"
#include "io/linereader.h"
#include "io/numbercell.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace bs::io {

namespace {

constexpr double kNanosPerSecond = 1e9;

struct KeyValue
{
    std::string_view key;
    std::string_view value;
    std::int64_t valueColumn = 0;
};

/// "key : value" (first colon); nullopt when there is no key or no value.
std::optional<KeyValue> splitKeyValue(std::string_view line)
{
    const auto colon = line.find(':');
    if (colon == std::string_view::npos)
        return std::nullopt;
    KeyValue kv{trimmed(line.substr(0, colon)), trimmed(line.substr(colon + 1)), 0};
    if (kv.key.empty() || kv.value.empty())
        return std::nullopt;
    kv.valueColumn = std::int64_t(kv.value.data() - line.data()) + 1;
    return kv;
}

/// Snake-case metadata key from log text: "Completed tokens per second" ->
/// completed_tokens_per_second.
std::string snakeCase(std::string_view text)
{
    std::string out;
    for (char c : lowercase(text)) {
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (alnum)
            out += c;
        else if (!out.empty() && out.back() != '_')
            out += '_';
    }
    while (!out.empty() && out.back() == '_')
        out.pop_back();
    return out;
}

std::string yesNo(std::string_view text)
{
    const std::string lower = lowercase(trimmed(text));
    return (lower == "yes" || lower == "true")   ? "yes"
           : (lower == "no" || lower == "false") ? "no"
                                                 : lower;
}

/// The percentile named in a summary key ending in `suffix`: "50.00 percentile latency (ns)"
/// -> "50.00", "90th percentile latency (ns)" -> "90.00"; "" when the key does not match.
std::string percentileOf(std::string_view key, std::string_view suffix = " percentile latency (ns)")
{
    const auto space = key.find(' ');
    if (space == std::string_view::npos || key.substr(space) != suffix)
        return {};
    std::string number(key.substr(0, space));
    if (number.size() > 2 && number.substr(number.size() - 2) == "th")
        number = number.substr(0, number.size() - 2) + ".00";
    return parseNumber(number) ? number : std::string();
}

using Field = std::optional<double> MlperfResult::*;

/// Summary keys of LLM runs that hold one figure in ns, and the field each fills.
Field llmNanosField(std::string_view key)
{
    static const std::map<std::string, Field, std::less<>> fields = {
        {"Min First Token latency (ns)", &MlperfResult::minTtftS},
        {"Max First Token latency (ns)", &MlperfResult::maxTtftS},
        {"Mean First Token latency (ns)", &MlperfResult::meanTtftS},
        {"Min Time to Output Token (ns)", &MlperfResult::minTpotS},
        {"Max Time to Output Token (ns)", &MlperfResult::maxTpotS},
        {"Mean Time to Output Token (ns)", &MlperfResult::meanTpotS},
        {"ttft_latency (ns)", &MlperfResult::ttftTargetS},
        {"tpot_latency (ns)", &MlperfResult::tpotTargetS}};
    const auto it = fields.find(key);
    return it == fields.end() ? nullptr : it->second;
}

/// "TTFT Early Stopping Result:" -> "ttft", "Early Stopping Result:" -> "latency"; "" for
/// any other line. The verdict follows on " * ..." lines.
std::string earlyStoppingHeading(std::string_view line)
{
    constexpr std::string_view heading = "Early Stopping Result:";
    line = trimmed(line);
    if (line.size() < heading.size() || line.substr(line.size() - heading.size()) != heading)
        return {};
    const std::string metric = snakeCase(line.substr(0, line.size() - heading.size()));
    return metric.empty() ? "latency" : metric;
}

class SummaryParser
{
public:
    SummaryParser(MlperfResult& result, const std::string& path)
        : m_result(result)
        , m_path(path)
    {}
    /// Stores what the line says; a key stored twice in one section is an error (two
    /// summaries pasted into one file would otherwise give the second one's figures without a
    /// word). LLM summaries print some keys in two sections ("Completed tokens per second").
    Status apply(const KeyValue& kv, std::int64_t line);
    /// The section the next lines belong to ("Additional Stats", "Test Parameters Used").
    void enterSection(std::string_view title) { m_section = std::string(title); }

private:
    Status store(const KeyValue& kv, std::int64_t line);
    Expected<double> number(const KeyValue& kv, std::int64_t line) const
    {
        const auto value = parseNumber(kv.value);
        const std::string key = "\"" + std::string(kv.key) + "\" holds ";
        if (!value) {
            return makeError(ErrorCode::Format, m_path, line, kv.valueColumn,
                             key + "\"" + std::string(kv.value) +
                                 "\", which is not a non-negative number");
        }
        if (!std::isfinite(*value)) {
            return makeError(ErrorCode::Value, m_path, line, kv.valueColumn,
                             key + "\"" + std::string(kv.value) +
                                 "\", which is not a finite number");
        }
        if (*value < 0.0) {
            return makeError(ErrorCode::Value, m_path, line, kv.valueColumn,
                             key + formatNumber(*value) + "; a negative value is not valid here");
        }
        return *value;
    }
    /// Sets target to the value divided by `divisor` (ns -> s divides by 10^9, exactly for
    /// whole numbers of ns).
    Status set(std::optional<double>& target, const KeyValue& kv, std::int64_t line,
               double divisor = 1.0)
    {
        auto value = number(kv, line);
        if (!value)
            return value.error();
        target = *value / divisor;
        return {};
    }

    /// TTFT, TPOT and token figures; `handled` says whether the key was one of them.
    Status storeLlm(const KeyValue& kv, std::int64_t line, bool& handled);
    Status storeOther(const KeyValue& kv, std::int64_t line);

    MlperfResult& m_result;
    const std::string& m_path;
    std::string m_section;
    /// (section, key) -> the line it was stored on.
    std::map<std::pair<std::string, std::string>, std::int64_t> m_storedAt;
};

Status SummaryParser::apply(const KeyValue& kv, std::int64_t line)
{
    if (auto status = store(kv, line); !status)
        return status;
    const auto [first, added] = m_storedAt.try_emplace({m_section, std::string(kv.key)}, line);
    if (!added) {
        const std::string where = m_section.empty() ? "" : " in \"" + m_section + "\"";
        return makeError(ErrorCode::Format, m_path, line, 1,
                         "\"" + std::string(kv.key) + "\" appears again" + where +
                             " (first on line " + std::to_string(first->second) +
                             "); the file holds more than one summary: read them one by one");
    }
    return {};
}

Status SummaryParser::storeLlm(const KeyValue& kv, std::int64_t line, bool& handled)
{
    handled = true;
    if (kv.key == "Completed tokens per second" || kv.key == "Tokens per second")
        return set(m_result.tokensPerSecond, kv, line);
    if (const Field field = llmNanosField(kv.key))
        return set(m_result.*field, kv, line, kNanosPerSecond);
    auto* percentiles = !percentileOf(kv.key, " percentile first token latency (ns)").empty()
                            ? &m_result.ttftPercentileS
                        : !percentileOf(kv.key, " percentile time to output token (ns)").empty()
                            ? &m_result.tpotPercentileS
                            : nullptr;
    if (!percentiles) {
        handled = false;
        return {};
    }
    std::optional<double> seconds;
    if (auto status = set(seconds, kv, line, kNanosPerSecond); !status)
        return status;
    (*percentiles)[std::string(kv.key.substr(0, kv.key.find(' ')))] = *seconds;
    return {};
}

/// Any other key is kept as it is written, a figure in ns or ms converted to seconds.
Status SummaryParser::storeOther(const KeyValue& kv, std::int64_t line)
{
    const std::string_view key = kv.key;
    for (const auto& [unit, divisor] : {std::pair{std::string_view("(ns)"), kNanosPerSecond},
                                        std::pair{std::string_view("(ms)"), 1e3}}) {
        if (key.size() > unit.size() && key.substr(key.size() - unit.size()) == unit) {
            std::optional<double> seconds;
            if (auto status = set(seconds, kv, line, divisor); !status)
                return status;
            m_result.extra[snakeCase(key.substr(0, key.size() - unit.size())) + "_s"] =
                formatNumber(*seconds);
            return {};
        }
    }
    m_result.extra[snakeCase(key)] = kv.value;
    return {};
}

Status SummaryParser::store(const KeyValue& kv, std::int64_t line)
{
    const std::string key(kv.key);
    if (key == "SUT name")
        m_result.sutName = kv.value;
    else if (key == "Scenario")
        m_result.scenario = kv.value;
    else if (key == "Mode")
        m_result.mode = kv.value;
    else if (key == "Result is")
        m_result.validity = kv.value;
    else if (key == "Samples per second" || key == "Completed samples per second")
        return set(m_result.samplesPerSecond, kv, line);
    else if (key == "Scheduled samples per second")
        return set(m_result.scheduledSamplesPerSecond, kv, line);
    else if (key == "target_qps")
        return set(m_result.targetQps, kv, line);
    else if (key == "target_latency (ns)")
        return set(m_result.targetLatencyS, kv, line, kNanosPerSecond);
    else if (key == "samples_per_query")
        return set(m_result.samplesPerQuery, kv, line);
    else if (key == "Min latency (ns)")
        return set(m_result.minLatencyS, kv, line, kNanosPerSecond);
    else if (key == "Max latency (ns)")
        return set(m_result.maxLatencyS, kv, line, kNanosPerSecond);
    else if (key == "Mean latency (ns)")
        return set(m_result.meanLatencyS, kv, line, kNanosPerSecond);
    else if (key.find("satisfied") != std::string::npos)
        m_result.flags[snakeCase(key)] = yesNo(kv.value);
    else if (const std::string p = percentileOf(key); !p.empty()) {
        auto value = number(kv, line);
        if (!value)
            return value.error();
        m_result.percentileLatencyS[p] = *value / kNanosPerSecond;
    } else {
        bool handled = false;
        auto status = storeLlm(kv, line, handled);
        return (!status || handled) ? status : storeOther(kv, line);
    }
    return {};
}

// ---- detail, :::MLLOG form ---------------------------------------------------------------

/// A value as JSON text for a message: at most 80 bytes.
std::string shortJson(const nlohmann::json& value)
{
    std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > 80)
        text = text.substr(0, 77) + "...";
    return text;
}

std::string jsonText(const nlohmann::json& value)
{
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_boolean())
        return value.get<bool>() ? "yes" : "no";
    return value.dump();
}

class DetailParser
{
public:
    DetailParser(MlperfResult& result, ReaderContext& context)
        : m_result(result)
        , m_context(context)
    {}
    Status mllog(std::string_view line, std::int64_t number);
    Status oldForm(std::string_view text, std::int64_t number);

private:
    Status applyResult(const std::string& key, const nlohmann::json& value, std::int64_t line);
    /// TTFT, TPOT, token throughput and early-stopping records; `handled` says whether the
    /// key was one of them.
    Status applyLlm(const std::string& key, const nlohmann::json& value, std::int64_t line,
                    bool& handled);
    void keepSetting(const std::string& name, const nlohmann::json& value);
    Status number(std::optional<double>& target, const std::string& key,
                  const nlohmann::json& value, std::int64_t line, double divisor = 1.0);
    Status powerTime(bool begin, std::string_view text, std::int64_t line);

    MlperfResult& m_result;
    ReaderContext& m_context;
    std::string m_section; ///< Old form: "Effective Settings", "Requested Settings", ...
    std::map<std::string, std::int64_t, std::less<>> m_recordAt; ///< Setting/result -> line.
};

Status DetailParser::number(std::optional<double>& target, const std::string& key,
                            const nlohmann::json& value, std::int64_t line, double divisor)
{
    const double v = value.is_number()   ? value.get<double>()
                     : value.is_string() ? parseNumber(value.get<std::string>()).value_or(-1.0)
                                         : -1.0;
    if (!std::isfinite(v) || v < 0.0) {
        return makeError(ErrorCode::Value, m_context.path, line, 0,
                         "\"" + key + "\" holds " + shortJson(value) +
                             ", which is not a non-negative number");
    }
    target = v / divisor;
    return {};
}

Status DetailParser::powerTime(bool begin, std::string_view text, std::int64_t line)
{
    const auto parsed = parseDateTime(text);
    if (!parsed) {
        return makeError(ErrorCode::Format, m_context.path, line, 0,
                         std::string(begin ? "power_begin" : "power_end") + " holds \"" +
                             std::string(text) + "\", which is not a date and time");
    }
    (begin ? m_result.powerBegin : m_result.powerEnd) = *parsed;
    (begin ? m_result.powerBeginText : m_result.powerEndText) = std::string(trimmed(text));
    return {};
}

Status DetailParser::applyResult(const std::string& key, const nlohmann::json& value,
                                 std::int64_t line)
{
    static const std::map<std::string, std::string> flagKeys = {
        {"result_perf_constraints_met", "performance_constraints_satisfied"},
        {"result_min_duration_met", "min_duration_satisfied"},
        {"result_min_queries_met", "min_queries_satisfied"},
        {"early_stopping_met", "early_stopping_satisfied"}};
    if (const auto it = flagKeys.find(key); it != flagKeys.end()) {
        m_result.flags[it->second] = jsonText(value);
        return {};
    }
    bool handled = false;
    if (auto status = applyLlm(key, value, line, handled); !status || handled)
        return status;
    if (key == "result_samples_per_second" || key == "result_completed_samples_per_sec")
        return number(m_result.samplesPerSecond, key, value, line);
    if (key == "result_scheduled_samples_per_sec")
        return number(m_result.scheduledSamplesPerSecond, key, value, line);
    if (key == "result_query_count")
        return number(m_result.queryCount, key, value, line);
    if (key == "result_min_latency_ns")
        return number(m_result.minLatencyS, key, value, line, kNanosPerSecond);
    if (key == "result_max_latency_ns")
        return number(m_result.maxLatencyS, key, value, line, kNanosPerSecond);
    if (key == "result_mean_latency_ns")
        return number(m_result.meanLatencyS, key, value, line, kNanosPerSecond);
    const std::string suffix = "_percentile_latency_ns";
    if (key.size() > suffix.size() + 7 && key.substr(key.size() - suffix.size()) == suffix) {
        std::optional<double> v;
        if (auto status = number(v, key, value, line, kNanosPerSecond); !status)
            return status;
        m_result.percentileLatencyS[key.substr(7, key.size() - 7 - suffix.size())] = *v;
        return {};
    }
    if (key.size() > 3 && key.substr(key.size() - 3) == "_ns" && value.is_number()) {
        m_result.extra[key.substr(7, key.size() - 10) + "_s"] =
            formatNumber(value.get<double>() / kNanosPerSecond);
        return {};
    }
    m_result.extra[key.substr(7)] = jsonText(value);
    return {};
}

Status DetailParser::mllog(std::string_view line, std::int64_t lineNumber)
{
    constexpr std::size_t prefix = 9; // ":::MLLOG "
    constexpr int kMaxDepth = 16;     // real records nest 3 levels
    nlohmann::json record;
    bool tooDeep = false;
    // Deep nesting is refused while parsing: printing such a value in a message (dump()
    // recurses) could exhaust the stack.
    auto guard = [&tooDeep](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
        tooDeep = tooDeep || depth > kMaxDepth;
        return !tooDeep;
    };
    try {
        record = nlohmann::json::parse(line.substr(prefix), guard);
    } catch (const nlohmann::json::parse_error& e) {
        // e.what() is "[json.exception...] parse error at line 1, column N: <reason>".
        std::string reason = e.what();
        const auto at = reason.find(": ", reason.find("column "));
        if (at != std::string::npos)
            reason = reason.substr(at + 2);
        return makeError(ErrorCode::Format, m_context.path, lineNumber,
                         std::int64_t(prefix + e.byte),
                         "JSON syntax error in a :::MLLOG record at byte " +
                             std::to_string(prefix + e.byte - 1) + " of the line: " + reason);
    } catch (const nlohmann::json::out_of_range& e) {
        // 406 "number overflow parsing '1e999'": valid JSON that no double holds.
        std::string reason = e.what();
        const auto at = reason.find("] ");
        return makeError(ErrorCode::Value, m_context.path, lineNumber, 0,
                         "a :::MLLOG record holds a number too large to read (" +
                             (at == std::string::npos ? reason : reason.substr(at + 2)) + ")");
    }
    if (tooDeep) {
        return makeError(ErrorCode::Limit, m_context.path, lineNumber, std::int64_t(prefix + 1),
                         "a :::MLLOG record nested deeper than " + std::to_string(kMaxDepth) +
                             " levels; refusing to read it");
    }
    if (!record.is_object() || !record.contains("key") || !record["key"].is_string() ||
        !record.contains("value")) {
        return makeError(ErrorCode::Format, m_context.path, lineNumber, std::int64_t(prefix + 1),
                         "a :::MLLOG record without \"key\" and \"value\"");
    }
    const std::string key = record["key"].get<std::string>();
    const nlohmann::json& value = record["value"];
    // LoadGen logs each setting and result once per run: a second one means two runs' logs
    // were joined, and reading on would mix their figures.
    if (key.rfind("effective_", 0) == 0 || key.rfind("result_", 0) == 0 || key == "power_begin" ||
        key == "power_end") {
        const auto [first, added] = m_recordAt.try_emplace(key, lineNumber);
        if (!added) {
            return makeError(ErrorCode::Format, m_context.path, lineNumber, 1,
                             "a second \"" + key + "\" record (the first is on line " +
                                 std::to_string(first->second) +
                                 "); the log holds more than one run: split it");
        }
    }
    if (key == "effective_scenario")
        m_result.scenario = jsonText(value);
    else if (key == "effective_test_mode")
        m_result.mode = jsonText(value);
    else if (key == "sut_name")
        m_result.sutName = jsonText(value);
    else if (key == "result_validity")
        m_result.validity = jsonText(value);
    else if (key == "effective_samples_per_query")
        return number(m_result.samplesPerQuery, key, value, lineNumber);
    else if (key == "effective_target_qps")
        return number(m_result.targetQps, key, value, lineNumber);
    else if (key == "effective_target_latency_ns")
        return number(m_result.targetLatencyS, key, value, lineNumber, kNanosPerSecond);
    else if (key == "effective_target_latency_percentile")
        return number(m_result.targetLatencyPercentile, key, value, lineNumber);
    else if (key == "power_begin" || key == "power_end")
        return powerTime(key == "power_begin", jsonText(value), lineNumber);
    else if (key.rfind("warning", 0) == 0 || key.rfind("error", 0) == 0) {
        ++m_result.loadgenWarnings;
        m_context.warnings.add("loadgen-" + key, lineNumber,
                               "LoadGen " +
                                   std::string(key.rfind("error", 0) == 0 ? "error" : "warning") +
                                   ": " + jsonText(value));
    } else if (key.rfind("result_", 0) == 0 || key.rfind("early_stopping_", 0) == 0 ||
               key == "requested_server_ttft_latency" || key == "requested_server_tpot_latency")
        return applyResult(key, value, lineNumber);
    else if (key.rfind("effective_", 0) == 0)
        keepSetting(key.substr(10), value);
    return {};
}

/// An effective setting with no field of its own, kept under its name; a figure in ns or ms
/// is converted to seconds.
void DetailParser::keepSetting(const std::string& name, const nlohmann::json& value)
{
    for (const auto& [unit, divisor] :
         {std::pair{std::string("_ns"), kNanosPerSecond}, std::pair{std::string("_ms"), 1e3}}) {
        if (value.is_number() && name.size() > unit.size() &&
            name.substr(name.size() - unit.size()) == unit) {
            m_result.extra[name.substr(0, name.size() - unit.size()) + "_s"] =
                formatNumber(value.get<double>() / divisor);
            return;
        }
    }
    m_result.extra[name] = jsonText(value);
}

/// The percentile in "<prefix>99.00<suffix>", or "" when `key` is not of that form.
std::string percentileBetween(const std::string& key, std::string_view prefix,
                              std::string_view suffix)
{
    if (key.size() <= prefix.size() + suffix.size() || key.rfind(prefix, 0) != 0 ||
        key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0)
        return {};
    std::string p = key.substr(prefix.size(), key.size() - prefix.size() - suffix.size());
    return parseNumber(p) ? p : std::string();
}

Status DetailParser::applyLlm(const std::string& key, const nlohmann::json& value,
                              std::int64_t line, bool& handled)
{
    // LoadGen logs no effective TTFT/TPOT limit, only the requested one.
    static const std::map<std::string, std::pair<Field, double>> fields = {
        {"result_first_token_min_latency_ns", {&MlperfResult::minTtftS, kNanosPerSecond}},
        {"result_first_token_max_latency_ns", {&MlperfResult::maxTtftS, kNanosPerSecond}},
        {"result_first_token_mean_latency_ns", {&MlperfResult::meanTtftS, kNanosPerSecond}},
        {"result_time_to_output_token_min", {&MlperfResult::minTpotS, kNanosPerSecond}},
        {"result_time_to_output_token_max", {&MlperfResult::maxTpotS, kNanosPerSecond}},
        {"result_time_to_output_token_mean", {&MlperfResult::meanTpotS, kNanosPerSecond}},
        {"result_completed_tokens_per_second", {&MlperfResult::tokensPerSecond, 1.0}},
        {"result_tokens_per_second", {&MlperfResult::tokensPerSecond, 1.0}},
        {"requested_server_ttft_latency", {&MlperfResult::ttftTargetS, kNanosPerSecond}},
        {"requested_server_tpot_latency", {&MlperfResult::tpotTargetS, kNanosPerSecond}}};
    handled = true;
    if (const auto it = fields.find(key); it != fields.end())
        return number(m_result.*(it->second.first), key, value, line, it->second.second);
    if (key.rfind("early_stopping_", 0) == 0 && key != "early_stopping_met") {
        // "early_stopping_ttft_result" -> "ttft"; plain "early_stopping_result" -> "latency".
        const bool verdict = key.size() >= 21 && key.substr(key.size() - 6) == "result";
        const std::string text(trimmed(jsonText(value)));
        if (!verdict)
            m_result.extra[key] = text;
        else
            m_result.earlyStopping[key.size() > 22 ? key.substr(15, key.size() - 22) : "latency"] =
                text.rfind("* ", 0) == 0 ? text.substr(2) : text;
        return {};
    }
    const std::string ttft =
        percentileBetween(key, "result_first_token_", "_percentile_latency_ns");
    const std::string tpot =
        percentileBetween(key, "result_time_per_output_token_", "_percentile_ns");
    if (ttft.empty() && tpot.empty()) {
        handled = false;
        return {};
    }
    std::optional<double> seconds;
    if (auto status = number(seconds, key, value, line, kNanosPerSecond); !status)
        return status;
    (ttft.empty() ? m_result.tpotPercentileS[tpot] : m_result.ttftPercentileS[ttft]) = *seconds;
    return {};
}

Status DetailParser::oldForm(std::string_view text, std::int64_t lineNumber)
{
    text = trimmed(text);
    if (!text.empty() && text.back() == ':' && text.find(':') == text.size() - 1) {
        m_section = std::string(text.substr(0, text.size() - 1));
        return {};
    }
    if (text.rfind("POWER_BEGIN:", 0) == 0 || text.rfind("POWER_END:", 0) == 0) {
        const auto at = text.find("\"time\" : ");
        if (at == std::string_view::npos)
            return makeError(ErrorCode::Format, m_context.path, lineNumber, 0,
                             "a POWER_BEGIN/POWER_END line without \"time\"");
        return powerTime(text[6] == 'B', text.substr(at + 9), lineNumber);
    }
    if (text.rfind("System Under Test (SUT) name:", 0) == 0) {
        m_result.sutName = std::string(trimmed(text.substr(29)));
        return {};
    }
    const auto kv = splitKeyValue(text);
    if (!kv || m_section != "Effective Settings")
        return {};
    SummaryParser settings(m_result, m_context.path);
    if (kv->key == "Scenario")
        m_result.scenario = kv->value;
    else if (kv->key == "Test mode")
        m_result.mode = kv->value;
    else if (kv->key == "target_latency_percentile")
        m_result.targetLatencyPercentile = parseNumber(kv->value);
    else
        return settings.apply(*kv, lineNumber);
    return {};
}

/// The text after `"ts": Nns : ` in an old-form line, or nullopt for continuation lines.
std::optional<std::string_view> oldFormText(std::string_view line)
{
    if (line.rfind("\"pid\": ", 0) != 0)
        return std::nullopt;
    const auto at = line.find("ns : ");
    if (at == std::string_view::npos)
        return std::nullopt;
    return line.substr(at + 5);
}

/// A section title is the text line right under a "=====" rule.
bool sectionTitle(std::string_view line, bool afterRule)
{
    const std::string_view text = trimmed(line);
    return afterRule && !text.empty() && text.find(':') == std::string_view::npos &&
           text.rfind("===", 0) != 0;
}

/// Takes an early-stopping heading or one of its " * ..." verdict lines (whose text may hold
/// a colon, so they must not be read as key-value lines); false for any other line.
bool earlyStoppingLine(std::string_view line, std::string& verdictOf, MlperfResult& result)
{
    if (std::string metric = earlyStoppingHeading(line); !metric.empty()) {
        verdictOf = metric;
        result.earlyStopping[verdictOf];
        return true;
    }
    const std::string_view text = trimmed(line);
    if (verdictOf.empty() || text.rfind("* ", 0) != 0) {
        verdictOf.clear();
        return false;
    }
    std::string& verdict = result.earlyStopping[verdictOf];
    verdict += (verdict.empty() ? "" : " ") + std::string(trimmed(text.substr(2)));
    return true;
}

} // namespace

Expected<MlperfResult> parseMlperfSummary(ByteSource& source, ReaderContext& context)
{
    MlperfResult result;
    SummaryParser parser(result, context.path);
    LineReader lines(source, context.progress, context.cancel);
    std::string_view line;
    bool sawTitle = false;
    bool afterRule = false;
    std::string verdictOf; ///< The metric whose early-stopping verdict lines come next.
    std::int64_t titleLine = 0;
    for (;;) {
        auto more = lines.next(line);
        if (!more)
            return more.error();
        if (!*more)
            break;
        if (trimmed(line) == "MLPerf Results Summary") {
            if (sawTitle) {
                return lines.errorAt(1, ErrorCode::Format,
                                     "a second \"MLPerf Results Summary\" title (the first is on "
                                     "line " +
                                         std::to_string(titleLine) +
                                         "); the file holds more than one summary: read them one "
                                         "by one");
            }
            sawTitle = true;
            titleLine = lines.lineNumber();
        }
        if (sectionTitle(line, afterRule))
            parser.enterSection(trimmed(line));
        afterRule = trimmed(line).rfind("===", 0) == 0;
        if (earlyStoppingLine(line, verdictOf, result))
            continue;
        if (const auto kv = splitKeyValue(line)) {
            if (auto status = parser.apply(*kv, lines.lineNumber()); !status)
                return status.error();
        }
    }
    if (lines.lineNumber() == 0)
        return makeError(ErrorCode::Format, context.path, 0, 0, "the file is empty");
    if (!sawTitle || result.scenario.empty()) {
        return makeError(ErrorCode::Format, context.path, 0, 0,
                         "not an MLPerf LoadGen summary: no \"MLPerf Results Summary\" title or "
                         "no \"Scenario\" line");
    }
    warnIfCutShort(lines, context.warnings);
    return result;
}

Expected<MlperfResult> parseMlperfDetail(ByteSource& source, ReaderContext& context)
{
    MlperfResult result;
    DetailParser parser(result, context);
    LineReader lines(source, context.progress, context.cancel);
    std::string_view line;
    bool sawRecord = false;
    for (;;) {
        auto more = lines.next(line);
        if (!more)
            return more.error();
        if (!*more)
            break;
        Status status;
        if (line.rfind(":::MLLOG ", 0) == 0) {
            sawRecord = true;
            status = parser.mllog(line, lines.lineNumber());
        } else if (const auto text = oldFormText(line)) {
            sawRecord = true;
            result.oldDetailForm = true;
            status = parser.oldForm(*text, lines.lineNumber());
        }
        if (!status)
            return status.error();
    }
    if (lines.lineNumber() == 0)
        return makeError(ErrorCode::Format, context.path, 0, 0, "the file is empty");
    if (!sawRecord) {
        return makeError(ErrorCode::Format, context.path, 1, 1,
                         "not an MLPerf LoadGen detail log: no \":::MLLOG\" records and no "
                         "\"pid\"/\"tid\"/\"ts\" lines");
    }
    warnIfCutShort(lines, context.warnings);
    return result;
}

} // namespace bs::io
