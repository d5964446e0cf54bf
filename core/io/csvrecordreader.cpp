#include "io/csvrecordreader.h"

#include <algorithm>

namespace bs::io {

CsvRecordReader::CsvRecordReader(ByteSource& source, ReaderContext& context, char delimiter)
    : m_context(context)
    , m_lines(source, context.progress, context.cancel)
    , m_split(delimiter)
{}

Status CsvRecordReader::readHeader()
{
    std::string_view line;
    do {
        auto more = m_lines.next(line);
        if (!more)
            return more.error();
        if (!*more)
            return makeError(ErrorCode::Format, path(), 0, 0, "the file is empty");
    } while (trimmed(line).empty());
    if (auto status = m_split.split(line); !status)
        return m_lines.errorAt(status.error().column, ErrorCode::Format, status.error().message);
    for (std::size_t i = 0; i < m_split.size(); ++i) {
        m_headers.emplace_back(m_split[i]);
        m_headerColumns.push_back(m_split.column(i));
    }
    m_headerLine = m_lines.lineNumber();
    return {};
}

Status CsvRecordReader::requireUnique(std::initializer_list<int> indices, NameKey key) const
{
    auto named = [key](std::string_view name) { return key ? key(name) : name; };
    for (const int used : indices) {
        if (used < 0)
            continue;
        const std::string_view name = named(m_headers[std::size_t(used)]);
        for (std::size_t other = 0; other < m_headers.size(); ++other) {
            if (int(other) != used && named(m_headers[other]) == name) {
                const std::size_t first = std::min(std::size_t(used), other);
                const std::size_t second = std::max(std::size_t(used), other);
                return makeError(ErrorCode::Format, path(), m_headerLine, m_headerColumns[second],
                                 duplicateColumnMessage(name, first, second));
            }
        }
    }
    return {};
}

int CsvRecordReader::index(std::string_view name) const
{
    for (std::size_t i = 0; i < m_headers.size(); ++i) {
        if (m_headers[i] == name)
            return int(i);
    }
    return -1;
}

int CsvRecordReader::indexStartingWith(std::string_view prefix) const
{
    for (std::size_t i = 0; i < m_headers.size(); ++i) {
        if (m_headers[i].rfind(prefix, 0) == 0)
            return int(i);
    }
    return -1;
}

Expected<bool> CsvRecordReader::next()
{
    std::string_view line;
    do {
        auto more = m_lines.next(line);
        if (!more)
            return more.error();
        if (!*more)
            return false;
    } while (trimmed(line).empty());
    if (auto status = m_split.split(line); !status)
        return m_lines.errorAt(status.error().column, ErrorCode::Format, status.error().message);
    if (m_split.size() != m_headers.size()) {
        return m_lines.errorAt(1, ErrorCode::Format,
                               "the row has " + std::to_string(m_split.size()) +
                                   " fields but the header has " +
                                   std::to_string(m_headers.size()));
    }
    return true;
}

CellPlace CsvRecordReader::place(int i) const
{
    return CellPlace{m_context.path, m_lines.lineNumber(), m_split.column(std::size_t(i)),
                     m_headers[std::size_t(i)]};
}

Expected<double> CsvRecordReader::number(int i, CellRule rule, double scale) const
{
    auto value = numberCell(m_split[std::size_t(i)], place(i), rule);
    if (!value)
        return value.error();
    return *value * scale;
}

Error CsvRecordReader::errorAt(int i, ErrorCode code, std::string message) const
{
    return makeError(code, path(), m_lines.lineNumber(), m_split.column(std::size_t(i)),
                     std::move(message));
}

} // namespace bs::io
