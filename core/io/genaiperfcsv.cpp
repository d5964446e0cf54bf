#include "io/genaiperfcsv.h"

#include "io/csvsplitter.h"
#include "io/genaiperfreader.h"
#include "io/linereader.h"
#include "io/numbercell.h"
#include "io/utf8text.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace bs::io {

namespace {

using nlohmann::json;

/// Where a block's statistics start, and what its rows describe.
enum class Block
{
    None,
    Statistics, ///< Metric,avg,min,max,pNN,...,std
    Single,     ///< Metric,Value
    Telemetry   ///< Endpoint,GPU_Index,GPU_Name,GPU_UUID,Metric,avg,...
};

/// "Time To First Token (ms)" -> {"time_to_first_token", "ms"}; the CSV's title case undone.
/// AIPerf titles total_isl/total_osl in full.
std::pair<std::string, std::string> keyAndUnit(std::string_view name)
{
    std::string unit;
    if (!name.empty() && name.back() == ')') {
        const auto open = name.rfind(" (");
        if (open != std::string_view::npos) {
            unit = std::string(name.substr(open + 2, name.size() - open - 3));
            name = name.substr(0, open);
        }
    }
    std::string key;
    for (const char c : name)
        key += (c == ' ' || c == '-') ? '_' : char(std::tolower(static_cast<unsigned char>(c)));
    if (key == "total_input_sequence_length")
        key = "total_isl";
    else if (key == "total_output_sequence_length")
        key = "total_osl";
    // Older GenAI-Perf titles both throughputs "(per sec)"; the JSON says what per second.
    if (unit == "per sec" && key == "request_throughput")
        unit = "requests/sec";
    else if (unit == "per sec" && key == "output_token_throughput")
        unit = "tokens/sec";
    return {key, unit};
}

/// A statistic cell: a number, possibly with thousands separators; empty for "" and "N/A".
std::optional<std::optional<double>> cellNumber(std::string_view cell)
{
    const std::string_view t = trimmed(cell);
    if (t.empty() || t == "N/A" || t == "n/a")
        return std::optional<double>();
    std::string plain(t);
    if (plain.find(',') != std::string::npos)
        plain.erase(std::remove(plain.begin(), plain.end(), ','), plain.end());
    if (auto v = parseNumber(plain))
        return std::optional<double>(*v);
    return std::nullopt;
}

class CsvExport
{
public:
    CsvExport(ByteSource& source, ReaderContext& context)
        : m_context(context)
        , m_lines(source, context.progress, context.cancel)
    {}
    Expected<data::LlmRun> read();

private:
    Status line(std::string_view text);
    Status header();
    Status row();
    Status statistics(json& target, const std::string& where, std::size_t first);
    Error withLine(Error e) const;

    ReaderContext& m_context;
    LineReader m_lines;
    CsvSplitter m_split;
    std::string m_sanitized; ///< The current line, when it was not valid UTF-8.
    Block m_block = Block::None;
    std::vector<std::string> m_header;
    std::size_t m_statsFrom = 0; ///< First statistics column of the block.
    json m_doc = json::object();
    std::map<std::string, std::int64_t> m_lineOf; ///< Top-level key -> its CSV line.
};

Status CsvExport::header()
{
    m_header.clear();
    for (auto f : m_split.fields())
        m_header.emplace_back(trimmed(f));
    if (isGenAiPerfCsvHeader(m_header)) {
        m_block = m_header[1] == "Value" ? Block::Single : Block::Statistics;
        m_statsFrom = 1;
    } else if (m_header.size() > 5 && m_header[0] == "Endpoint" && m_header[1] == "GPU_Index" &&
               m_header[4] == "Metric") {
        m_block = Block::Telemetry;
        m_statsFrom = 5;
    } else {
        m_block = Block::None;
        m_context.warnings.add("unknown block", m_lines.lineNumber(),
                               "a block whose header starts \"" + m_header.front() +
                                   "\" is not a GenAI-Perf/AIPerf table; its rows are not read");
    }
    return {};
}

/// The row's statistics from column `first` on into `target` ({"avg", "p99", ...}).
Status CsvExport::statistics(json& target, const std::string& where, std::size_t first)
{
    for (std::size_t i = first; i < m_split.size() && i < m_header.size(); ++i) {
        if (m_header[i] == "unit")
            continue; // the unit is the title's; a column of that name must not replace it
        const auto v = cellNumber(m_split[i]);
        if (!v || (*v && !std::isfinite(**v)))
            return m_lines.errorAt(m_split.column(i), ErrorCode::Value,
                                   "\"" + where + "." + m_header[i] + "\" holds \"" +
                                       std::string(m_split[i]) + "\", not a finite number");
        if (*v)
            target[m_block == Block::Single ? std::string("avg") : m_header[i]] = **v;
    }
    return {};
}

Status CsvExport::row()
{
    const std::size_t nameAt = m_block == Block::Telemetry ? 4 : 0;
    if (m_split.size() <= nameAt)
        return m_lines.errorAt(0, ErrorCode::Format,
                               "a row with " + std::to_string(m_split.size()) +
                                   " fields; the block's header has " +
                                   std::to_string(m_header.size()));
    const auto [key, unit] = keyAndUnit(trimmed(m_split[nameAt]));
    json metric = {{"unit", unit}};
    if (m_block == Block::Telemetry) {
        const std::string endpoint(trimmed(m_split[0])), index(trimmed(m_split[1]));
        const std::string where =
            "telemetry_data.endpoints." + endpoint + ".gpus.gpu_" + index + ".metrics." + key;
        if (auto s = statistics(metric, where, m_statsFrom); !s)
            return s;
        json& gpu = m_doc["telemetry_data"]["endpoints"][endpoint]["gpus"]["gpu_" + index];
        gpu["gpu_index"] = index;
        gpu["gpu_name"] = std::string(trimmed(m_split[2]));
        gpu["metrics"][key] = std::move(metric);
        m_lineOf.emplace("telemetry_data", m_lines.lineNumber());
        return {};
    }
    if (key == "telemetry_data" || key == "telemetry_stats" || key == "input_config")
        return m_lines.errorAt(0, ErrorCode::Format,
                               "\"" + key + "\" is a section of the JSON export, not a metric");
    if (auto s = statistics(metric, key, m_statsFrom); !s)
        return s;
    if (m_doc.contains(key))
        return m_lines.errorAt(0, ErrorCode::Format,
                               "\"" + key + "\" appears again (first on line " +
                                   std::to_string(m_lineOf[key]) +
                                   "); the file holds more than one export");
    m_doc[key] = std::move(metric);
    m_lineOf[key] = m_lines.lineNumber();
    return {};
}

Status CsvExport::line(std::string_view text)
{
    if (trimmed(text).empty()) {
        m_block = Block::None;
        m_header.clear();
        return {};
    }
    // Names and units become JSON strings, which must be UTF-8: a stray byte is replaced.
    if (!isValidUtf8(text)) {
        m_sanitized = sanitizedUtf8(text);
        text = m_sanitized;
    }
    if (auto s = m_split.split(text); !s)
        return m_lines.errorAt(s.error().column, ErrorCode::Format, s.error().message);
    if (m_header.empty())
        return header();
    return m_block == Block::None ? Status{} : row();
}

/// An error of the shared mapping names the top-level key first ("\"time_to_first_token.p99\"
/// holds ..."): the CSV line that key came from is added.
Error CsvExport::withLine(Error e) const
{
    if (e.line != 0 || e.message.size() < 2 || e.message[0] != '"')
        return e;
    const std::string where = e.message.substr(1, e.message.find('"', 1) - 1);
    const auto it = m_lineOf.find(where.substr(0, where.find('.')));
    if (it != m_lineOf.end())
        e.line = it->second;
    return e;
}

Expected<data::LlmRun> CsvExport::read()
{
    std::string_view text;
    for (;;) {
        auto more = m_lines.next(text);
        if (!more)
            return more.error();
        if (!*more)
            break;
        if (auto s = line(text); !s)
            return s.error();
    }
    warnIfCutShort(m_lines, m_context.warnings);
    if (m_lines.lineNumber() == 0)
        return makeError(ErrorCode::Format, m_context.path, 0, 0, "the file is empty");
    auto run = genAiPerfRun(m_doc, m_context);
    if (!run)
        return withLine(run.error());
    return run;
}

} // namespace

bool isGenAiPerfCsvHeader(const std::vector<std::string>& header)
{
    return header.size() >= 2 && header[0] == "Metric" &&
           (header[1] == "avg" || header[1] == "Value");
}

Expected<data::LlmRunSet> parseGenAiPerfCsv(ByteSource& source, ReaderContext& context)
{
    auto run = CsvExport(source, context).read();
    if (!run)
        return run.error();
    data::LlmRunSet set;
    set.runs.push_back(std::move(*run));
    return set;
}

Expected<data::DatasetContent> readGenAiPerfCsv(ByteSource& source, ReaderContext& context)
{
    if (auto status = refuseReaderOptions(context, "GenAI-Perf/AIPerf CSV"); !status)
        return status.error();
    return asDatasetContent(parseGenAiPerfCsv(source, context));
}

} // namespace bs::io
