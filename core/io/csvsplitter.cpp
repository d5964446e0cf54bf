#include "io/csvsplitter.h"

#include <cstring>

namespace bs::io {

std::string lowercase(std::string_view text)
{
    std::string out(text);
    for (auto& c : out) {
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    }
    return out;
}

std::string duplicateColumnMessage(std::string_view name, std::size_t firstIndex,
                                   std::size_t secondIndex)
{
    return "the header names column \"" + std::string(name) + "\" twice (fields " +
           std::to_string(firstIndex + 1) + " and " + std::to_string(secondIndex + 1) +
           "); which one holds the values is unclear: rename or remove one";
}

Status CsvSplitter::split(std::string_view line)
{
    m_fields.clear();
    m_columns.clear();
    std::size_t unescapedUsed = 0;
    std::size_t pos = 0;
    for (;;) {
        std::size_t start = pos;
        while (start < line.size() && (line[start] == ' ' || line[start] == '\t'))
            ++start;
        if (start < line.size() && line[start] == '"') {
            // Quoted field: find the closing quote, skipping doubled quotes.
            std::size_t end = start + 1;
            bool doubled = false;
            for (;;) {
                const void* q = std::memchr(line.data() + end, '"', line.size() - end);
                if (!q) {
                    return makeError(ErrorCode::Format, {}, 0, std::int64_t(start) + 1,
                                     "a quoted field is not closed before the end of the line");
                }
                end = std::size_t(static_cast<const char*>(q) - line.data());
                if (end + 1 < line.size() && line[end + 1] == '"') {
                    doubled = true;
                    end += 2;
                    continue;
                }
                break;
            }
            std::string_view inner = line.substr(start + 1, end - start - 1);
            if (doubled) {
                if (m_unescaped.size() <= unescapedUsed)
                    m_unescaped.emplace_back();
                std::string& store = m_unescaped[unescapedUsed++];
                store.clear();
                for (std::size_t i = 0; i < inner.size(); ++i) {
                    store += inner[i];
                    if (inner[i] == '"')
                        ++i;
                }
                inner = store;
            }
            m_fields.push_back(inner);
            m_columns.push_back(std::uint32_t(start + 1));
            pos = end + 1;
            while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t'))
                ++pos;
            if (pos >= line.size())
                break;
            if (line[pos] != m_delimiter) {
                return makeError(ErrorCode::Format, {}, 0, std::int64_t(pos) + 1,
                                 "unexpected text after a quoted field");
            }
            ++pos;
            continue;
        }
        // Cells are short: a plain scan beats a memchr call per cell.
        std::size_t end = start;
        while (end < line.size() && line[end] != m_delimiter)
            ++end;
        m_fields.push_back(trimmed(line.substr(start, end - start)));
        m_columns.push_back(std::uint32_t(start + 1));
        if (end == line.size())
            break;
        pos = end + 1;
    }
    return {};
}

} // namespace bs::io
