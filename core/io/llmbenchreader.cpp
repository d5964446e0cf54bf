#include "io/llmbenchreader.h"

#include "io/csvsplitter.h"
#include "io/jsonfields.h"
#include "io/jsonline.h"
#include "io/linereader.h"
#include "io/llmbenchrequests.h"
#include "io/numbercell.h"

#include <cmath>
#include <set>

namespace bs::io {

namespace {

constexpr double kSecondsPerMs = 1e-3;
/// A pretty-printed result is held whole; its per-request arrays make it the size of the
/// one-line form times the indentation.
constexpr std::size_t kMaxPrettyBytes = std::size_t(1) << 30;

} // namespace

const std::map<std::string, std::string>& llmBenchmarkMetricDefinitions()
{
    static const std::map<std::string, std::string> definitions = {
        {"ttft", "per request: request sent -> first streamed token"},
        {"tpot", "per request: (e2e - ttft) / (output tokens - 1), the first token excluded"},
        {"itl", "pooled: every gap between streamed chunks of every request"},
        {"e2e", "per request: request sent -> last token"}};
    return definitions;
}

namespace {

/// "p99_ttft_ms" -> {"p99", "ttft"}; "mean_e2e_latency_ms" -> {"mean", "e2e"}; nullopt for a
/// key that is not an aggregate.
std::optional<std::pair<std::string, std::string>> aggregateKey(const std::string& key)
{
    constexpr std::string_view ms = "_ms";
    const auto underscore = key.find('_');
    if (underscore == std::string::npos || key.size() < underscore + ms.size() + 2 ||
        key.compare(key.size() - ms.size(), ms.size(), ms) != 0)
        return std::nullopt;
    const std::string stat = key.substr(0, underscore);
    std::string metric = key.substr(underscore + 1, key.size() - underscore - 1 - ms.size());
    if (metric == "e2el" || metric == "e2e_latency")
        metric = "e2e";
    const bool known = llmBenchmarkMetricDefinitions().count(metric) > 0;
    const bool percentile = stat.size() > 1 && stat[0] == 'p' && parseNumber(stat.substr(1));
    if (!known || !(percentile || stat == "mean" || stat == "median" || stat == "std"))
        return std::nullopt;
    return std::pair{stat, metric};
}

class LlmBenchParser
{
public:
    LlmBenchParser(ByteSource& source, ReaderContext& context)
        : m_context(context)
        , m_lines(source, context.progress, context.cancel)
    {}
    Expected<data::LlmRunSet> parse();

private:
    Status record(std::string_view line);
    Status readRun(const nlohmann::json& object, std::int64_t line);
    Status prettyDocument();
    Status header(const nlohmann::json& object, data::LlmRun& run);
    Status aggregate(const std::string& key, const nlohmann::json& value, data::LlmRun& run);
    Expected<std::optional<double>> number(const nlohmann::json& object, const char* key) const;
    Status count(const nlohmann::json& object, const char* key,
                 std::optional<std::int64_t>& target) const;
    /// A label: empty when the key is absent or null, an error naming the key otherwise.
    Status label(const nlohmann::json& object, const char* key, std::string& target) const;
    Error error(std::string message, ErrorCode code = ErrorCode::Format) const
    {
        return m_lines.errorAt(0, code, std::move(message));
    }

    ReaderContext& m_context;
    LineReader m_lines;
    data::LlmRunSet m_set;
    std::set<std::string> m_used; ///< Keys of the current run read into a field.
    /// A pretty-printed --save-result file (its first line a lone "{"), gathered whole.
    std::string m_document;
    bool m_pretty = false;
};

/// A non-negative finite number; empty when the key is absent or null.
Expected<std::optional<double>> LlmBenchParser::number(const nlohmann::json& object,
                                                       const char* key) const
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return std::optional<double>();
    if (!it->is_number())
        return error(std::string("\"") + key + "\" holds " + it->dump() + ", not a number");
    const double value = it->get<double>();
    if (!std::isfinite(value) || value < 0.0) {
        return error(std::string("\"") + key + "\" holds " + it->dump() +
                         ", which is not a non-negative finite number",
                     ErrorCode::Value);
    }
    return std::optional<double>(value);
}

Status LlmBenchParser::label(const nlohmann::json& object, const char* key,
                             std::string& target) const
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return {};
    if (!it->is_string())
        return error(std::string("\"") + key + "\" holds " + it->dump() + ", not a text",
                     ErrorCode::Value);
    target = it->get<std::string>();
    return {};
}

Status LlmBenchParser::count(const nlohmann::json& object, const char* key,
                             std::optional<std::int64_t>& target) const
{
    auto value = number(object, key);
    if (!value)
        return value.error();
    if (*value && !isExactWholeNumber(**value))
        return error(std::string("\"") + key + "\" holds " + object.at(key).dump() +
                         ", not a whole number",
                     ErrorCode::Value);
    if (*value)
        target = std::int64_t(**value);
    return {};
}

Status LlmBenchParser::aggregate(const std::string& key, const nlohmann::json& value,
                                 data::LlmRun& run)
{
    const auto parsed = aggregateKey(key);
    if (!parsed || value.is_null())
        return {};
    auto ms = number(nlohmann::json{{key, value}}, key.c_str());
    if (!ms)
        return ms.error();
    const auto& [stat, metric] = *parsed;
    data::LlmMetric& m = run.metrics[metric];
    m.definition = llmBenchmarkMetricDefinitions().at(metric);
    m.set(stat, **ms * kSecondsPerMs);
    m_used.insert(key);
    return {};
}

Status LlmBenchParser::header(const nlohmann::json& object, data::LlmRun& run)
{
    struct NumberField
    {
        const char* key;
        std::optional<double> data::LlmRun::*field;
    };
    static const NumberField numbers[] = {
        {"duration", &data::LlmRun::durationS},
        {"max_concurrency", &data::LlmRun::maxConcurrency},
        {"request_throughput", &data::LlmRun::requestsPerS},
        {"output_throughput", &data::LlmRun::outputTokensPerS},
        {"total_token_throughput", &data::LlmRun::totalTokensPerS},
        {"request_goodput", &data::LlmRun::goodputPerS},
        // vLLM before 0.7 wrote the key with a colon (a typo in the tool).
        {"request_goodput:", &data::LlmRun::goodputPerS}};
    for (const auto& f : numbers) {
        auto value = number(object, f.key);
        if (!value)
            return value.error();
        if (*value)
            run.*f.field = **value;
        m_used.insert(f.key);
    }
    // "inf" (a string) is vLLM's unlimited rate; it stays in the knobs.
    if (const auto it = object.find("request_rate"); it != object.end() && !it->is_string()) {
        auto value = number(object, "request_rate");
        if (!value)
            return value.error();
        run.requestRatePerS = *value;
        m_used.insert("request_rate");
    }
    for (const auto& [key, field] :
         {std::pair{"completed", &data::LlmRun::completed},
          std::pair{"total_input_tokens", &data::LlmRun::promptTokensTotal},
          std::pair{"total_output_tokens", &data::LlmRun::outputTokensTotal}}) {
        if (auto status = count(object, key, run.*field); !status)
            return status;
        m_used.insert(key);
    }
    if (auto status = label(object, "backend", run.backend); !status)
        return status;
    if (auto status = label(object, "model_id", run.model); !status)
        return status;
    m_used.insert({"backend", "model_id"});
    return {};
}

Status LlmBenchParser::record(std::string_view line)
{
    // vLLM writes one line; a file saved pretty-printed (indent) opens with a lone "{".
    if (m_pretty || (m_set.runs.empty() && trimmed(line) == "{")) {
        m_pretty = true;
        if (m_document.size() + line.size() > kMaxPrettyBytes)
            return error("a pretty-printed result larger than " +
                             std::to_string(kMaxPrettyBytes >> 20) + " MiB",
                         ErrorCode::Limit);
        m_document.append(line).push_back('\n');
        return {};
    }
    auto parsed = parseJsonLine(line, m_lines);
    if (!parsed)
        return parsed.error();
    return readRun(*parsed, m_lines.lineNumber());
}

/// The gathered pretty-printed document as one run starting on line 1. Its value errors name
/// the line the reader has reached (the last), its syntax errors the exact line and column.
Status LlmBenchParser::prettyDocument()
{
    auto parsed = parseJson(m_document, m_context.path);
    if (!parsed)
        return parsed.error();
    return readRun(*parsed, 1);
}

Status LlmBenchParser::readRun(const nlohmann::json& object, std::int64_t line)
{
    const std::string tool = object.is_object() ? llmBenchmarkTool(object) : std::string();
    if (tool.empty())
        return error("not a vLLM or SGLang benchmark result (no \"completed\" and no TTFT or "
                     "latency aggregates)");
    data::LlmRun run;
    run.tool = tool;
    run.line = line;
    m_used.clear();
    if (auto status = header(object, run); !status)
        return status;
    for (const auto& [key, value] : object.items()) {
        if (auto status = aggregate(key, value, run); !status)
            return status;
    }
    auto requests = readLlmRequests(object, m_lines, m_used);
    if (!requests)
        return requests.error();
    run.requests = std::move(*requests);
    for (const auto& [key, value] : object.items()) {
        if (!m_used.count(key) && !value.is_array() && !value.is_object())
            run.knobs[key] = value.is_string() ? value.get<std::string>() : value.dump();
    }
    m_set.runs.push_back(std::move(run));
    return {};
}

Expected<data::LlmRunSet> LlmBenchParser::parse()
{
    if (auto status =
            forEachNonBlankLine(m_lines, [&](std::string_view line) { return record(line); });
        !status)
        return status.error();
    if (m_pretty) {
        if (auto status = prettyDocument(); !status)
            return status.error();
    }
    if (m_lines.lineNumber() == 0)
        return makeError(ErrorCode::Format, m_context.path, 0, 0, "the file is empty");
    if (m_set.runs.empty())
        return makeError(ErrorCode::Format, m_context.path, 0, 0,
                         "the file holds no benchmark run");
    // No warning for a last line without a line ending: vLLM's json.dump writes none, and a
    // JSON object cut short does not parse.
    return std::move(m_set);
}

} // namespace

std::string llmBenchmarkTool(const nlohmann::json& object)
{
    if (!object.is_object() || !object.contains("completed"))
        return {};
    // By the client's key set, not "backend": vLLM's client run against an SGLang server
    // writes backend "sglang" with vLLM's keys.
    if (object.contains("mean_e2e_latency_ms") || object.contains("median_e2e_latency_ms"))
        return "sglang";
    const bool vllm = object.contains("mean_ttft_ms") || object.contains("median_ttft_ms") ||
                      object.contains("ttfts");
    return vllm ? "vllm" : std::string();
}

Expected<data::LlmRunSet> parseLlmBenchmark(ByteSource& source, ReaderContext& context)
{
    LlmBenchParser parser(source, context);
    return parser.parse();
}

Expected<data::DatasetContent> readLlmBenchmark(ByteSource& source, ReaderContext& context)
{
    if (auto status = refuseReaderOptions(context, "LLM benchmark"); !status)
        return status.error();
    return asDatasetContent(parseLlmBenchmark(source, context));
}

} // namespace bs::io
