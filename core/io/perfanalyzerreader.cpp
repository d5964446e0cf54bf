#include "io/perfanalyzerreader.h"

#include "io/csvsplitter.h"
#include "io/jsonfields.h"
#include "io/linereader.h"
#include "io/numbercell.h"

#include <filesystem>

namespace bs::io {

namespace {

constexpr double kMicrosPerSecond = 1e6;

/// Column positions of one run's header; -1 when absent.
struct Columns
{
    int batch = -1;
    int concurrency = -1;
    int requestRate = -1;
    int throughput = -1;
    int average = -1;
    int p50 = -1, p90 = -1, p95 = -1, p99 = -1, p999 = -1;
    int gpuUtil = -1, gpuPower = -1, gpuMemory = -1;
    int serverQueue = -1, computeInput = -1, computeInfer = -1, computeOutput = -1;
    int clientSend = -1, network = -1, clientRecv = -1;
    std::vector<std::string> names;
};

/// The slot of a percentile column ("p50 latency", "p99.9 latency"), or nullptr.
int* percentileSlot(Columns& c, std::string_view name)
{
    if (name.size() < 10 || name.front() != 'p' || name.substr(name.size() - 8) != " latency")
        return nullptr;
    const std::string_view number = name.substr(1, name.size() - 9);
    return number == "50"     ? &c.p50
           : number == "90"   ? &c.p90
           : number == "95"   ? &c.p95
           : number == "99"   ? &c.p99
           : number == "99.9" ? &c.p999
                              : nullptr;
}

/// The slot of a latency-breakdown column ("Server Compute Infer"), or nullptr.
int* breakdownSlot(Columns& c, const std::string& name)
{
    const std::pair<const char*, int*> slots[] = {{"Server Queue", &c.serverQueue},
                                                  {"Server Compute Input", &c.computeInput},
                                                  {"Server Compute Infer", &c.computeInfer},
                                                  {"Server Compute Output", &c.computeOutput},
                                                  {"Client Send", &c.clientSend},
                                                  {"Network+Server Send/Recv", &c.network},
                                                  {"Client Recv", &c.clientRecv}};
    for (const auto& [column, slot] : slots) {
        if (name == column)
            return slot;
    }
    return nullptr;
}

/// The slot of the column called `name`, or nullptr for a column the reader does not use.
int* columnSlot(Columns& c, const std::string& name)
{
    if (name == "Batch")
        return &c.batch;
    if (name == "Concurrency")
        return &c.concurrency;
    if (name == "Request Rate")
        return &c.requestRate;
    if (name == "Inferences/Second")
        return &c.throughput;
    if (lowercase(name) == "avg latency")
        return &c.average;
    if (name == "Avg GPU Utilization")
        return &c.gpuUtil;
    if (name == "Avg GPU Power Usage")
        return &c.gpuPower;
    if (name == "Max GPU Memory Usage")
        return &c.gpuMemory;
    if (int* slot = breakdownSlot(c, name))
        return slot;
    return percentileSlot(c, name);
}

Expected<Columns> parseHeader(const CsvSplitter& split, const LineReader& lines)
{
    Columns c;
    for (std::size_t i = 0; i < split.size(); ++i) {
        const std::string name(split[i]);
        c.names.push_back(name);
        int* slot = columnSlot(c, name);
        if (!slot)
            continue;
        if (*slot >= 0) {
            return lines.errorAt(split.column(i), ErrorCode::Format,
                                 duplicateColumnMessage(name, std::size_t(*slot), i));
        }
        *slot = int(i);
    }
    if (c.throughput < 0)
        return lines.errorAt(1, ErrorCode::Format,
                             "not a perf_analyzer CSV header: there is no \"Inferences/Second\" "
                             "column");
    if (c.concurrency < 0 && c.requestRate < 0)
        return lines.errorAt(1, ErrorCode::Format,
                             "not a perf_analyzer CSV header: there is no \"Concurrency\" or "
                             "\"Request Rate\" column");
    return c;
}

/// "GPU-a:0.5;GPU-b:0.7;" -> {0.5, 0.7}
Expected<std::vector<double>> gpuValues(std::string_view cell, const CellPlace& place)
{
    std::vector<double> values;
    while (!cell.empty()) {
        const auto end = cell.find(';');
        const std::string_view pair = trimmed(cell.substr(0, end));
        cell = end == std::string_view::npos ? std::string_view() : cell.substr(end + 1);
        if (pair.empty())
            continue;
        const auto colon = pair.rfind(':');
        if (colon == std::string_view::npos) {
            return makeError(ErrorCode::Format, place.path, place.line, place.column,
                             "column \"" + std::string(place.columnName) + "\" holds \"" +
                                 std::string(pair) + "\", not a \"GPU-id:value;\" pair");
        }
        auto value = numberCell(pair.substr(colon + 1), place, CellRule::NonNegative);
        if (!value)
            return value.error();
        values.push_back(*value);
    }
    return values;
}

class PerfAnalyzerParser
{
public:
    PerfAnalyzerParser(ByteSource& source, ReaderContext& context)
        : m_context(context)
        , m_lines(source, context.progress, context.cancel)
    {}

    Expected<data::SweepTable> parse();

private:
    Status readOptions();
    Status row();
    void recordLatencyColumns();
    /// The cell's number divided by `divisor` (µs -> s), or nothing when the column is absent.
    Expected<std::optional<double>> cell(int index, CellRule rule, double divisor = 1.0) const;
    Status gpuColumns(data::SweepPoint& point) const;
    Status breakdownColumns(data::SweepPoint& point) const;
    CellPlace place(int index) const
    {
        return CellPlace{m_context.path, m_lines.lineNumber(), m_split.column(std::size_t(index)),
                         m_columns.names[std::size_t(index)]};
    }

    ReaderContext& m_context;
    LineReader m_lines;
    CsvSplitter m_split;
    Columns m_columns;
    data::SweepTable m_table;
    int m_runs = 0;
    std::optional<int> m_batchOption;
};

Status PerfAnalyzerParser::readOptions()
{
    JsonFields fields(m_context.options, "reader_options", m_context.path);
    auto rule = NumberRule::count(1);
    if (const auto batch = fields.optionalNumber("batch_size", rule))
        m_batchOption = int(*batch);
    return fields.finish();
}

Expected<std::optional<double>> PerfAnalyzerParser::cell(int index, CellRule rule,
                                                         double divisor) const
{
    if (index < 0)
        return std::optional<double>();
    auto value = numberCell(m_split[std::size_t(index)], place(index), rule);
    if (!value)
        return value.error();
    return std::optional<double>(*value / divisor);
}

Status PerfAnalyzerParser::gpuColumns(data::SweepPoint& point) const
{
    const std::pair<int, int> columns[] = {
        {m_columns.gpuUtil, 0}, {m_columns.gpuPower, 1}, {m_columns.gpuMemory, 2}};
    for (const auto& [index, which] : columns) {
        if (index < 0 || trimmed(m_split[std::size_t(index)]).empty())
            continue;
        auto values = gpuValues(m_split[std::size_t(index)], place(index));
        if (!values)
            return values.error();
        if (values->empty())
            continue;
        double sum = 0.0;
        for (double v : *values)
            sum += v;
        if (which == 0) {
            double mean = sum / double(values->size());
            if (mean > 1.0) {
                m_context.warnings.add("gpu-util-percent", m_lines.lineNumber(),
                                       "GPU utilisation above 1 was read as a percentage");
                mean /= 100.0;
            }
            point.utilization = std::min(mean, 1.0);
        } else if (which == 1) {
            point.powerW = sum;
        } else {
            point.memoryBytes = sum;
        }
    }
    return {};
}

/// Where each request's time went, in µs like the latencies.
Status PerfAnalyzerParser::breakdownColumns(data::SweepPoint& point) const
{
    const std::pair<int, std::optional<double>*> server[] = {
        {m_columns.serverQueue, &point.serverQueueS},
        {m_columns.computeInput, &point.computeInputS},
        {m_columns.computeInfer, &point.computeInferS},
        {m_columns.computeOutput, &point.computeOutputS}};
    for (const auto& [index, target] : server) {
        auto value = cell(index, CellRule::NonNegative, kMicrosPerSecond);
        if (!value)
            return value.error();
        *target = *value;
    }
    for (int index : {m_columns.clientSend, m_columns.network, m_columns.clientRecv}) {
        auto value = cell(index, CellRule::NonNegative, kMicrosPerSecond);
        if (!value)
            return value.error();
        if (*value)
            point.clientOverheadS = point.clientOverheadS.value_or(0.0) + **value;
    }
    return {};
}

Status PerfAnalyzerParser::row()
{
    if (m_split.size() != m_columns.names.size()) {
        return m_lines.errorAt(1, ErrorCode::Format,
                               "the row has " + std::to_string(m_split.size()) +
                                   " fields but the header has " +
                                   std::to_string(m_columns.names.size()));
    }
    data::SweepPoint point;
    if (m_columns.batch >= 0) {
        auto batch = integerCell(m_split[std::size_t(m_columns.batch)], place(m_columns.batch),
                                 CellRule::Positive);
        if (!batch)
            return batch.error();
        point.batchSize = int(*batch);
    } else {
        point.batchSize = m_batchOption.value_or(1);
    }
    const auto nonNegative = CellRule::NonNegative;
    const std::pair<int, std::optional<double>*> fields[] = {
        {m_columns.concurrency, &point.concurrency},
        {m_columns.requestRate, &point.requestRatePerS},
        {m_columns.throughput, &point.throughputPerS}};
    for (const auto& [index, target] : fields) {
        auto value = cell(index, nonNegative);
        if (!value)
            return value.error();
        *target = *value;
    }
    const std::pair<int, std::optional<double>*> latencies[] = {
        {m_columns.average, &point.latencyMeanS}, {m_columns.p50, &point.latencyP50S},
        {m_columns.p90, &point.latencyP90S},      {m_columns.p95, &point.latencyP95S},
        {m_columns.p99, &point.latencyP99S},      {m_columns.p999, &point.latencyP999S}};
    for (const auto& [index, target] : latencies) {
        auto value = cell(index, nonNegative, kMicrosPerSecond);
        if (!value)
            return value.error();
        *target = *value;
    }
    if (auto status = gpuColumns(point); !status)
        return status;
    if (auto status = breakdownColumns(point); !status)
        return status;
    point.series = std::to_string(m_runs);
    m_table.points.push_back(std::move(point));
    return {};
}

/// perf_analyzer writes its latencies in microseconds without saying so: the format states it.
void PerfAnalyzerParser::recordLatencyColumns()
{
    const std::pair<const char*, int> latencies[] = {
        {"latency_mean", m_columns.average}, {"latency_p50", m_columns.p50},
        {"latency_p90", m_columns.p90},      {"latency_p95", m_columns.p95},
        {"latency_p99", m_columns.p99},      {"latency_p999", m_columns.p999}};
    for (const auto& [field, index] : latencies) {
        if (index >= 0)
            m_context.latencyColumns.push_back(
                {field, m_columns.names[std::size_t(index)], "us", false});
    }
}

Expected<data::SweepTable> PerfAnalyzerParser::parse()
{
    if (auto status = readOptions(); !status)
        return status.error();
    std::string_view line;
    for (;;) {
        auto more = m_lines.next(line);
        if (!more)
            return more.error();
        if (!*more)
            break;
        if (trimmed(line).empty())
            continue;
        if (auto status = m_split.split(line); !status)
            return m_lines.errorAt(status.error().column, ErrorCode::Format,
                                   status.error().message);
        // A line whose first cell is not a number starts a run (perf_analyzer writes one
        // header per run; several runs are often appended to one file).
        if (!parseNumber(m_split[0])) {
            auto columns = parseHeader(m_split, m_lines);
            if (!columns)
                return columns.error();
            m_columns = std::move(*columns);
            ++m_runs;
            if (m_runs == 1)
                recordLatencyColumns();
            if (m_columns.batch < 0 && !m_batchOption) {
                m_context.warnings.add("no-batch", m_lines.lineNumber(),
                                       "no \"Batch\" column; batch size taken as 1 (set the "
                                       "reader option \"batch_size\" if perf_analyzer ran "
                                       "with -b)");
            }
            continue;
        }
        if (m_runs == 0)
            return m_lines.errorAt(1, ErrorCode::Format,
                                   "not a perf_analyzer CSV: the first line holds numbers, not "
                                   "a header");
        if (auto status = row(); !status)
            return status.error();
    }
    if (m_runs == 0)
        return makeError(ErrorCode::Format, m_context.path, 0, 0, "the file is empty");
    warnIfCutShort(m_lines, m_context.warnings);
    if (m_table.points.empty())
        return makeError(ErrorCode::Format, m_context.path, 0, 0,
                         "the file has a header but no measurements");
    return std::move(m_table);
}

} // namespace

Expected<data::DatasetContent> readPerfAnalyzer(ByteSource& source, ReaderContext& context)
{
    PerfAnalyzerParser parser(source, context);
    auto table = parser.parse();
    if (!table)
        return table.error();
    const bool concurrency = !table->points.empty() && table->points.front().concurrency;
    table->loadAxis = concurrency ? data::LoadAxis::Concurrency : data::LoadAxis::RequestRate;
    table->name = std::filesystem::path(context.path).filename().string();
    const std::string runs = table->points.back().series;
    table->metadata["runs"] = runs;
    table->metadata["latency_source_unit"] = "us";
    for (auto& point : table->points)
        point.series = runs == "1" ? std::string() : "run " + point.series;
    return data::DatasetContent(std::make_shared<const data::SweepTable>(std::move(*table)));
}

} // namespace bs::io
