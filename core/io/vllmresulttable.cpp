#include "io/vllmresulttable.h"

#include "io/csvsplitter.h"
#include "io/genaiperftelemetry.h"
#include "io/jsondocument.h"
#include "io/llmbenchreader.h"
#include "io/numbercell.h"

#include <cmath>
#include <optional>

namespace bs::io {

namespace {

using nlohmann::json;

/// The table is a summary: a few hundred rows at most, a kilobyte each.
constexpr std::uint64_t kMaxTableBytes = std::uint64_t(64) << 20;
constexpr double kSecondsPerMs = 1e-3;

struct MetricColumn
{
    const char* title; ///< As the table names it: "TTFT", "TPOT", "ITL", "E2EL".
    const char* metric;
};

const MetricColumn kMetrics[] = {
    {"TTFT", "ttft"}, {"TPOT", "tpot"}, {"ITL", "itl"}, {"E2EL", "e2e"}};

/// "P99 TTFT (ms)" -> {"p99", metric}; "Mean ITL (ms)" -> {"mean", metric}; nullopt otherwise.
std::optional<std::pair<std::string, const MetricColumn*>> metricColumn(const std::string& title)
{
    constexpr std::string_view ms = " (ms)";
    const auto space = title.find(' ');
    if (space == std::string::npos || !title.ends_with(ms))
        return std::nullopt;
    const std::string stat = title.substr(0, space);
    const std::string name = title.substr(space + 1, title.size() - space - 1 - ms.size());
    for (const auto& m : kMetrics) {
        if (name != m.title)
            continue;
        if (stat == "Mean" || stat == "Median" || stat == "Std")
            return std::pair{lowercase(stat), &m};
        if (stat.size() > 1 && stat[0] == 'P' && parseNumber(stat.substr(1)))
            return std::pair{"p" + stat.substr(1), &m};
    }
    return std::nullopt;
}

/// The field after `key` in a test name ("tp8_pp1_qps_04" -> "04" for "qps_"), or "".
std::string nameField(const std::string& testName, const std::string& key)
{
    std::size_t at = 0;
    while ((at = testName.find(key, at)) != std::string::npos) {
        if (at == 0 || testName[at - 1] == '_') {
            const std::size_t from = at + key.size();
            return testName.substr(from, testName.find('_', from) - from);
        }
        at += key.size();
    }
    return {};
}

class RowReader
{
public:
    RowReader(const json& row, std::size_t index, const std::string& path)
        : m_row(row)
        , m_path(path)
    {
        m_where = "row " + std::to_string(index + 1);
        const auto name = row.find("Test name");
        if (name != row.end() && name->is_string())
            m_where += " (\"" + name->get<std::string>() + "\")";
    }

    Expected<data::LlmRun> read();

private:
    Error error(const std::string& column, const std::string& why,
                ErrorCode code = ErrorCode::Value) const
    {
        return makeError(code, m_path, 0, 0, m_where + ": \"" + column + "\" " + why);
    }
    Expected<std::optional<double>> number(const char* column) const;
    Status testName(data::LlmRun& run) const;
    Status counts(data::LlmRun& run) const;

    const json& m_row;
    std::string m_path;
    std::string m_where;
};

Expected<std::optional<double>> RowReader::number(const char* column) const
{
    const auto it = m_row.find(column);
    if (it == m_row.end() || it->is_null())
        return std::optional<double>();
    auto value = statNumber(*it, m_where + ": \"" + column + "\"", m_path);
    if (!value)
        return value.error();
    return std::optional<double>(*value);
}

/// The rate and concurrency cap the test's name states; unlimited ("inf") leaves them empty.
Status RowReader::testName(data::LlmRun& run) const
{
    const auto it = m_row.find("Test name");
    if (it == m_row.end() || !it->is_string() || it->get<std::string>().empty())
        return error("Test name", it == m_row.end() ? "is missing"
                                                    : "holds " + it->dump() + ", not a test name");
    const std::string name = it->get<std::string>();
    run.knobs["test_name"] = name;
    for (const auto& [key, field] : {std::pair{"qps_", &data::LlmRun::requestRatePerS},
                                     std::pair{"concurrency_", &data::LlmRun::maxConcurrency}}) {
        const std::string text = nameField(name, key);
        if (text == "inf" && field == &data::LlmRun::requestRatePerS)
            run.knobs["request_rate"] = "inf"; // as benchmark_serving.py records it
        if (text.empty() || text == "inf")
            continue;
        const auto value = parseNumber(text);
        const bool count = field == &data::LlmRun::maxConcurrency;
        if (!value || !std::isfinite(*value) || *value <= 0.0 ||
            (count && *value != std::floor(*value)))
            return error("Test name", "holds \"" + name + "\", whose \"" + key + text +
                                          "\" is not a rate or a count above 0");
        run.*field = *value;
    }
    return {};
}

Status RowReader::counts(data::LlmRun& run) const
{
    for (const char* column : {"# of req.", "Successful req."}) {
        auto value = number(column);
        if (!value)
            return value.error();
        if (!*value)
            continue;
        if (!isExactWholeNumber(**value))
            return error(column, "holds " + m_row.at(column).dump() + ", not a whole number");
        run.completed = std::int64_t(**value);
    }
    return {};
}

Expected<data::LlmRun> RowReader::read()
{
    data::LlmRun run;
    run.tool = "vllm";
    run.line = 1;
    if (auto status = testName(run); !status)
        return status.error();
    if (auto status = counts(run); !status)
        return status.error();
    for (const auto& [column, field] :
         {std::pair{"Tput (req/s)", &data::LlmRun::requestsPerS},
          std::pair{"Output Tput (tok/s)", &data::LlmRun::outputTokensPerS},
          std::pair{"Total Tput (tok/s)", &data::LlmRun::totalTokensPerS}}) {
        auto value = number(column);
        if (!value)
            return value.error();
        run.*field = *value;
    }
    if (run.totalTokensPerS && run.outputTokensPerS) {
        if (*run.outputTokensPerS > *run.totalTokensPerS * (1.0 + 1e-9))
            return error("Output Tput (tok/s)", "exceeds \"Total Tput (tok/s)\"");
        run.promptTokensPerS = *run.totalTokensPerS - *run.outputTokensPerS;
    }
    for (const auto& [column, value] : m_row.items()) {
        const auto metric = metricColumn(column);
        if (metric && !value.is_null()) {
            auto ms = number(column.c_str());
            if (!ms)
                return ms.error();
            data::LlmMetric& m = run.metrics[metric->second->metric];
            // benchmark_serving.py's definitions, which the table copies.
            m.definition = llmBenchmarkMetricDefinitions().at(metric->second->metric);
            m.set(metric->first, **ms * kSecondsPerMs);
        } else if (column == "GPU" && value.is_string()) {
            run.knobs["gpu_type"] = value.get<std::string>();
        } else if (!metric && !value.is_structured() && !value.is_null() && column != "Test name") {
            run.knobs[column] = value.is_string() ? value.get<std::string>() : value.dump();
        }
    }
    return run;
}

bool isServingRow(const json& row)
{
    return row.is_object() && row.contains("Tput (req/s)");
}

} // namespace

Expected<data::LlmRunSet> parseVllmResultTable(ByteSource& source, ReaderContext& context)
{
    auto doc = readJsonDocument(source, context.path, kMaxTableBytes);
    if (!doc)
        return doc.error();
    if (!doc->is_array() || doc->empty() || !(*doc)[0].is_object() ||
        !(*doc)[0].contains("Test name"))
        return makeError(ErrorCode::Format, context.path, 0, 0,
                         "not a vLLM benchmark result table (a JSON array of objects with "
                         "\"Test name\")");
    data::LlmRunSet set;
    std::size_t skipped = 0;
    for (std::size_t i = 0; i < doc->size(); ++i) {
        const json& row = (*doc)[i];
        if (!row.is_object())
            return makeError(ErrorCode::Format, context.path, 0, 0,
                             "row " + std::to_string(i + 1) + " is not a JSON object");
        if (!isServingRow(row)) {
            ++skipped;
            continue;
        }
        auto run = RowReader(row, i, context.path).read();
        if (!run)
            return run.error();
        set.runs.push_back(std::move(*run));
    }
    if (set.runs.empty())
        return makeError(ErrorCode::Format, context.path, 0, 0,
                         "the table holds no serving test (no row has \"Tput (req/s)\")");
    if (skipped > 0)
        context.warnings.add("other tests", 0,
                             std::to_string(skipped) + " of " + std::to_string(doc->size()) +
                                 " rows are latency or throughput tests (no \"Tput (req/s)\"), "
                                 "not serving runs: skipped");
    return set;
}

Expected<data::DatasetContent> readVllmResultTable(ByteSource& source, ReaderContext& context)
{
    if (auto status = refuseReaderOptions(context, "vLLM result table"); !status)
        return status.error();
    return asDatasetContent(parseVllmResultTable(source, context));
}

} // namespace bs::io
