#include "io/mappedcsvreader.h"

#include <algorithm>

namespace bs::io {

MappedCsvReader::MappedCsvReader(ByteSource& source, ReaderContext& context, MappingTarget target)
    : m_context(context)
    , m_target(target)
    , m_lines(source, context.progress, context.cancel)
    , m_source(source)
{}

Status MappedCsvReader::readHeader()
{
    std::string_view line;
    for (;;) {
        auto more = m_lines.next(line);
        if (!more)
            return more.error();
        if (!*more) {
            return makeError(ErrorCode::Format, path(), 0, 0,
                             m_lines.lineNumber() == 0 ? "the file is empty"
                                                       : "the file has no header line");
        }
        if (!trimmed(line).empty())
            break;
    }
    const char delimiter = guessDelimiter(line);
    m_split = CsvSplitter(delimiter);
    if (auto status = m_split.split(line); !status)
        return m_lines.errorAt(status.error().column, ErrorCode::Format, status.error().message);
    m_headerLine.assign(line);
    m_headerLineNumber = m_lines.lineNumber();
    for (auto field : m_split.fields())
        m_headers.emplace_back(field);
    for (;;) {
        auto more = m_lines.next(line);
        if (!more)
            return more.error();
        if (!*more)
            return {};
        if (!trimmed(line).empty())
            break;
    }
    m_firstRow.assign(line);
    m_firstRowLine = m_lines.lineNumber();
    m_firstRowPending = true;
    if (!m_source.isCompressed()) {
        // 10% spare: rows vary in length; unused capacity of a large vector is never touched.
        const double rows = double(m_source.storedSizeBytes()) / double(m_firstRow.size() + 1);
        m_estimatedRows = std::size_t(std::min(rows * 1.1, 2.0e9));
    }
    return {};
}

Status MappedCsvReader::start(const std::optional<ColumnMapping>& fixed)
{
    if (auto status = readHeader(); !status)
        return status;
    const char delimiter = m_split.delimiter();
    if (fixed) {
        m_mapping = *fixed;
        m_mappingSource = MappingSource::Fixed;
    } else if (m_context.options.contains("columns")) {
        auto mapping = columnMappingFromJson(m_context.options, m_target, path());
        if (!mapping)
            return mapping.error();
        m_mapping = *mapping;
        m_mappingSource = MappingSource::Options;
    } else {
        if (!m_context.options.empty() && !m_context.options.contains("delimiter")) {
            return makeError(ErrorCode::Format, path(), 0, 0,
                             "reader_options: unknown key \"" + m_context.options.begin().key() +
                                 "\" (a column mapping has \"columns\" and \"delimiter\")");
        }
        std::vector<std::string> firstRow;
        CsvSplitter peek(delimiter);
        if (m_firstRowPending && peek.split(m_firstRow)) {
            for (auto f : peek.fields())
                firstRow.emplace_back(f);
        }
        m_mapping = suggestColumnMapping(m_headers, firstRow, m_target, delimiter);
    }
    if (m_mapping.delimiter != delimiter) {
        m_split = CsvSplitter(m_mapping.delimiter);
        if (auto status = m_split.split(m_headerLine); !status)
            return makeError(ErrorCode::Format, path(), m_headerLineNumber, status.error().column,
                             status.error().message);
        m_headers.clear();
        for (auto field : m_split.fields())
            m_headers.emplace_back(field);
    }
    m_context.resolvedOptions = toJson(m_mapping);
    return bind();
}

Status MappedCsvReader::bind()
{
    for (const auto& field : mappingFields(m_target)) {
        const ColumnBinding* binding = m_mapping.find(field.key);
        if (!binding) {
            if (field.required) {
                std::string headers;
                for (const auto& h : m_headers)
                    headers += (headers.empty() ? "\"" : ", \"") + h + "\"";
                return makeError(ErrorCode::Format, path(), m_headerLineNumber, 0,
                                 "no column for the required field \"" + field.key +
                                     "\" (the header has " + headers + "); give a column mapping");
            }
            continue;
        }
        std::size_t index = 0;
        while (index < m_headers.size() && m_headers[index] != binding->column)
            ++index;
        if (index == m_headers.size()) {
            return makeError(ErrorCode::Format, path(), m_headerLineNumber, 0,
                             "the mapping names a column \"" + binding->column + "\" (for \"" +
                                 field.key + "\") that the header does not have");
        }
        const auto again = std::find(m_headers.begin() + std::ptrdiff_t(index) + 1, m_headers.end(),
                                     binding->column);
        if (again != m_headers.end()) {
            const auto second = std::size_t(again - m_headers.begin());
            return makeError(ErrorCode::Format, path(), m_headerLineNumber, m_split.column(second),
                             duplicateColumnMessage(binding->column, index, second));
        }
        BoundColumn bound{field.key,
                          binding->column,
                          index,
                          unitFactor(field.dimension, binding->unit).value_or(1.0),
                          binding->unit == "datetime",
                          binding->unit,
                          unitStated(field, *binding)};
        m_bound.push_back(std::move(bound));
    }
    return {};
}

bool MappedCsvReader::unitStated(const MappingField& field, const ColumnBinding& binding) const
{
    switch (m_mappingSource) {
    case MappingSource::Fixed:
        return true;
    case MappingSource::Options: {
        const nlohmann::json& options = m_context.options;
        const auto& columns = options["columns"];
        return columns.contains(field.key) && columns[field.key].is_object() &&
               columns[field.key].contains("unit");
    }
    case MappingSource::Suggested:
        break;
    }
    const std::string written = splitHeaderUnit(binding.column).unit;
    return !written.empty() && unitFactor(field.dimension, written).has_value();
}

const BoundColumn* MappedCsvReader::column(std::string_view field) const
{
    for (const auto& bound : m_bound) {
        if (bound.field == field)
            return &bound;
    }
    return nullptr;
}

Status MappedCsvReader::splitRow(std::string_view text)
{
    if (auto status = m_split.split(text); !status)
        return m_lines.errorAt(status.error().column, ErrorCode::Format, status.error().message);
    if (m_split.size() != m_headers.size()) {
        return makeError(ErrorCode::Format, path(), line(), 0,
                         "the row has " + std::to_string(m_split.size()) +
                             " fields but the header has " + std::to_string(m_headers.size()));
    }
    return {};
}

Expected<bool> MappedCsvReader::next()
{
    if (m_firstRowPending) {
        m_firstRowPending = false;
        if (auto status = splitRow(m_firstRow); !status)
            return status.error();
        return true;
    }
    std::string_view line;
    for (;;) {
        auto more = m_lines.next(line);
        if (!more)
            return more.error();
        if (!*more)
            return false;
        if (!trimmed(line).empty())
            break;
    }
    if (auto status = splitRow(line); !status)
        return status.error();
    return true;
}

CellPlace MappedCsvReader::place(const BoundColumn& column) const
{
    return CellPlace{m_context.path, line(), m_split.column(column.index), column.header};
}

Error MappedCsvReader::errorAt(const BoundColumn& column, ErrorCode code, std::string message) const
{
    return makeError(code, path(), line(), m_split.column(column.index), std::move(message));
}

Expected<double> MappedCsvReader::number(const BoundColumn& column, CellRule rule) const
{
    auto value = numberCell(m_split[column.index], place(column), rule);
    if (!value)
        return value.error();
    return *value * column.factor;
}

Expected<std::int64_t> MappedCsvReader::integer(const BoundColumn& column, CellRule rule) const
{
    return integerCell(m_split[column.index], place(column), rule);
}

Expected<EpochTime> MappedCsvReader::time(const BoundColumn& column) const
{
    if (column.datetime) {
        const auto parsed = parseDateTime(m_split[column.index]);
        if (!parsed) {
            return errorAt(column, ErrorCode::Format,
                           "column \"" + column.header + "\" holds \"" +
                               std::string(m_split[column.index]) +
                               "\", which is not a date and time (YYYY-MM-DD HH:MM:SS[.fff])");
        }
        return *parsed;
    }
    auto seconds = number(column, CellRule::NonNegative);
    if (!seconds)
        return seconds.error();
    EpochTime t;
    t.seconds = 0;
    t.fraction = *seconds; // relative seconds: kept whole in the fraction part
    return t;
}

} // namespace bs::io
