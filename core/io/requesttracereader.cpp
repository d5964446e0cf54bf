#include "io/requesttracereader.h"

#include "io/hugepages.h"
#include "io/mappedcsvreader.h"
#include "io/nameinterner.h"

#include <filesystem>
#include <limits>

namespace bs::io {

namespace {

/// The columns a request trace can fill, resolved once.
struct RequestColumns
{
    const BoundColumn* arrival;
    const BoundColumn* intended;
    const BoundColumn* dispatch;
    const BoundColumn* completion;
    const BoundColumn* latency;
    const BoundColumn* batchId;
    const BoundColumn* batchSize;
    const BoundColumn* stream;
    const BoundColumn* inputTokens;
    const BoundColumn* outputTokens;
};

data::RequestTrace shrunk(data::RequestTrace t)
{
    t.arrivalS.shrink_to_fit();
    t.intendedS.shrink_to_fit();
    t.dispatchS.shrink_to_fit();
    t.completionS.shrink_to_fit();
    t.batchId.shrink_to_fit();
    t.batchSize.shrink_to_fit();
    t.streamIndex.shrink_to_fit();
    t.inputTokens.shrink_to_fit();
    t.outputTokens.shrink_to_fit();
    return t;
}

class RequestTraceBuilder
{
public:
    RequestTraceBuilder(MappedCsvReader& csv, ReaderContext& context)
        : m_csv(csv)
        , m_context(context)
        , m_cols{csv.column("arrival"),      csv.column("intended"), csv.column("dispatch"),
                 csv.column("completion"),   csv.column("latency"),  csv.column("batch_id"),
                 csv.column("batch_size"),   csv.column("stream"),   csv.column("input_tokens"),
                 csv.column("output_tokens")}
    {}

    Status checkColumns() const;
    void reserve(std::size_t rows);
    Status addRow();
    data::RequestTrace take()
    {
        m_trace.streamNames = m_streams.take();
        return std::move(m_trace);
    }

private:
    Expected<double> relative(const BoundColumn& column);
    Expected<std::int32_t> int32(const BoundColumn& column, CellRule rule);
    Status addTimes();
    Status addCounts();
    std::uint32_t streamIndex(std::string_view name);

    MappedCsvReader& m_csv;
    ReaderContext& m_context;
    RequestColumns m_cols;
    data::RequestTrace m_trace;
    std::optional<EpochTime> m_origin;
    NameInterner m_streams; ///< Stream names in first-seen order.
};

Status RequestTraceBuilder::checkColumns() const
{
    const bool dated = m_cols.arrival->datetime;
    for (const auto* c : {m_cols.intended, m_cols.dispatch, m_cols.completion}) {
        if (c && c->datetime != dated) {
            return makeError(ErrorCode::Format, m_csv.path(), 1, 0,
                             "column \"" + c->header + "\" (" + c->field + ") and column \"" +
                                 m_cols.arrival->header +
                                 "\" (arrival) must both be calendar times or both numbers");
        }
    }
    return {};
}

void RequestTraceBuilder::reserve(std::size_t rows)
{
    if (rows == 0)
        return;
    auto& t = m_trace;
    t.arrivalS.reserve(rows);
    if (m_cols.intended)
        t.intendedS.reserve(rows);
    if (m_cols.dispatch)
        t.dispatchS.reserve(rows);
    if (m_cols.completion || m_cols.latency)
        t.completionS.reserve(rows);
    if (m_cols.batchId)
        t.batchId.reserve(rows);
    if (m_cols.batchSize)
        t.batchSize.reserve(rows);
    if (m_cols.stream)
        t.streamIndex.reserve(rows);
    if (m_cols.inputTokens)
        t.inputTokens.reserve(rows);
    if (m_cols.outputTokens)
        t.outputTokens.reserve(rows);
    adviseHugePagesFor(t.arrivalS);
    adviseHugePagesFor(t.intendedS);
    adviseHugePagesFor(t.dispatchS);
    adviseHugePagesFor(t.completionS);
    adviseHugePagesFor(t.batchId);
    adviseHugePagesFor(t.batchSize);
    adviseHugePagesFor(t.streamIndex);
    adviseHugePagesFor(t.inputTokens);
    adviseHugePagesFor(t.outputTokens);
}

/// A time cell in seconds after the trace's origin (the first arrival for calendar times).
Expected<double> RequestTraceBuilder::relative(const BoundColumn& column)
{
    double seconds = 0.0;
    if (!column.datetime && m_csv.tryNumber(column, seconds))
        return seconds;
    auto t = m_csv.time(column);
    if (!t)
        return t.error();
    if (!column.datetime)
        return t->toSeconds();
    // The trace's origin is a Unix time; a project keeps it only when it is not negative, and
    // a request log from before 1970 means a misread or unset clock, not real traffic.
    if (t->seconds < 0) {
        return m_csv.errorAt(column, ErrorCode::Value,
                             "column \"" + column.header + "\" holds \"" +
                                 std::string(trimmed(m_csv.text(column))) +
                                 "\", before 1970-01-01: not a plausible request time");
    }
    if (!m_origin) {
        m_origin = *t;
        m_trace.originEpochS = t->toSeconds();
    }
    return t->secondsSince(*m_origin);
}

Expected<std::int32_t> RequestTraceBuilder::int32(const BoundColumn& column, CellRule rule)
{
    std::int64_t whole = 0;
    if (m_csv.tryInteger(column, whole) && whole <= std::numeric_limits<std::int32_t>::max() &&
        (rule != CellRule::Positive || whole > 0))
        return std::int32_t(whole);
    auto value = m_csv.integer(column, rule);
    if (!value)
        return value.error();
    if (*value > std::numeric_limits<std::int32_t>::max()) {
        return m_csv.errorAt(column, ErrorCode::Value,
                             "column \"" + column.header + "\" holds " + std::to_string(*value) +
                                 ", more than this field can hold");
    }
    return std::int32_t(*value);
}

Status RequestTraceBuilder::addTimes()
{
    auto arrival = relative(*m_cols.arrival);
    if (!arrival)
        return arrival.error();
    if (!m_trace.arrivalS.empty() && *arrival < m_trace.arrivalS.back()) {
        m_context.warnings.add("unsorted", m_csv.line(),
                               "arrivals are not in time order (this request arrives before the "
                               "one on the line above); kept in file order");
    }
    m_trace.arrivalS.push_back(*arrival);
    const std::pair<const BoundColumn*, std::vector<double>*> optional[] = {
        {m_cols.intended, &m_trace.intendedS},
        {m_cols.dispatch, &m_trace.dispatchS},
        {m_cols.completion, &m_trace.completionS}};
    for (const auto& [column, values] : optional) {
        if (!column)
            continue;
        auto t = relative(*column);
        if (!t)
            return t.error();
        if (column != m_cols.intended && *t < *arrival) {
            return m_csv.errorAt(*column, ErrorCode::Value,
                                 "column \"" + column->header + "\": the " + column->field +
                                     " time is before the arrival time (a negative latency)");
        }
        values->push_back(*t);
    }
    if (m_cols.latency && !m_cols.completion) {
        auto latency = m_csv.number(*m_cols.latency, CellRule::NonNegative);
        if (!latency)
            return latency.error();
        m_trace.completionS.push_back(*arrival + *latency);
    }
    return {};
}

std::uint32_t RequestTraceBuilder::streamIndex(std::string_view name)
{
    return m_streams.intern(name);
}

Status RequestTraceBuilder::addCounts()
{
    if (m_cols.batchId) {
        std::int64_t whole = 0;
        if (m_csv.tryInteger(*m_cols.batchId, whole)) {
            m_trace.batchId.push_back(whole);
        } else {
            auto id = m_csv.integer(*m_cols.batchId, CellRule::NonNegative);
            if (!id)
                return id.error();
            m_trace.batchId.push_back(*id);
        }
    }
    const std::pair<const BoundColumn*, std::vector<std::int32_t>*> counts[] = {
        {m_cols.batchSize, &m_trace.batchSize},
        {m_cols.inputTokens, &m_trace.inputTokens},
        {m_cols.outputTokens, &m_trace.outputTokens}};
    for (const auto& [column, values] : counts) {
        if (!column)
            continue;
        auto value =
            int32(*column, column == m_cols.batchSize ? CellRule::Positive : CellRule::NonNegative);
        if (!value)
            return value.error();
        values->push_back(*value);
    }
    if (m_cols.stream)
        m_trace.streamIndex.push_back(streamIndex(m_csv.text(*m_cols.stream)));
    return {};
}

Status RequestTraceBuilder::addRow()
{
    if (auto status = addTimes(); !status)
        return status;
    return addCounts();
}

Expected<data::DatasetContent> readTrace(ByteSource& source, ReaderContext& context,
                                         const std::optional<ColumnMapping>& fixed)
{
    MappedCsvReader csv(source, context, MappingTarget::RequestTrace);
    if (auto status = csv.start(fixed); !status)
        return status.error();
    RequestTraceBuilder builder(csv, context);
    if (auto status = builder.checkColumns(); !status)
        return status.error();
    builder.reserve(csv.estimatedRows());
    for (;;) {
        auto more = csv.next();
        if (!more)
            return more.error();
        if (!*more)
            break;
        if (auto status = builder.addRow(); !status)
            return status.error();
    }
    data::RequestTrace trace = builder.take();
    // Give back the spare of the estimate when it was far off (a copy, but only then: spare
    // capacity that was never touched costs address space, not memory).
    if (trace.arrivalS.capacity() > 2 * trace.arrivalS.size() + 1024)
        trace = shrunk(std::move(trace));
    if (trace.arrivalS.empty())
        return makeError(ErrorCode::Format, context.path, 0, 0,
                         "the file has a header but no requests");
    // Azure traces (the fixed mapping) are published without a final newline.
    if (!fixed)
        csv.warnIfCutShort();
    trace.name = std::filesystem::path(context.path).filename().string();
    return data::DatasetContent(std::make_shared<const data::RequestTrace>(std::move(trace)));
}

/// A published trace layout read through a fixed mapping: the reader takes no options.
Expected<data::DatasetContent> readFixedLayout(ByteSource& source, ReaderContext& context,
                                               const char* readerName,
                                               std::vector<ColumnBinding> columns)
{
    if (auto status = refuseReaderOptions(context, readerName); !status)
        return status.error();
    ColumnMapping mapping;
    mapping.target = MappingTarget::RequestTrace;
    mapping.columns = std::move(columns);
    auto content = readTrace(source, context, mapping);
    context.resolvedOptions = nlohmann::json::object();
    return content;
}

} // namespace

Expected<data::DatasetContent> readRequestTraceCsv(ByteSource& source, ReaderContext& context)
{
    return readTrace(source, context, std::nullopt);
}

Expected<data::DatasetContent> readAzureLlmTrace(ByteSource& source, ReaderContext& context)
{
    return readFixedLayout(source, context, "Azure LLM trace",
                           {{"arrival", "TIMESTAMP", "datetime"},
                            {"input_tokens", "ContextTokens", ""},
                            {"output_tokens", "GeneratedTokens", ""}});
}

Expected<data::DatasetContent> readBurstGptTrace(ByteSource& source, ReaderContext& context)
{
    return readFixedLayout(source, context, "BurstGPT trace",
                           {{"arrival", "Timestamp", "s"},
                            {"stream", "Model", ""},
                            {"input_tokens", "Request tokens", ""},
                            {"output_tokens", "Response tokens", ""}});
}

} // namespace bs::io
