#pragma once

#include "util/expected.h"

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace bs::io {

/// Splits one line of delimited text into fields: RFC 4180 quoting within the line ("a,b" and
/// doubled "" quotes), spaces around unquoted fields trimmed (nvidia-smi writes ", "). Views stay
/// valid until the next split() or until the line they point into changes.
class CsvSplitter
{
public:
    explicit CsvSplitter(char delimiter = ',')
        : m_delimiter(delimiter)
    {}

    /// Splits `line`. An unbalanced quote is an error whose column is the quote's; the caller
    /// adds the path and line number.
    Status split(std::string_view line);

    std::size_t size() const { return m_fields.size(); }
    std::string_view operator[](std::size_t i) const { return m_fields[i]; }
    const std::vector<std::string_view>& fields() const { return m_fields; }
    /// 1-based byte column where field i starts in the line.
    std::int64_t column(std::size_t i) const { return std::int64_t(m_columns[i]); }
    char delimiter() const { return m_delimiter; }

private:
    char m_delimiter;
    std::vector<std::string_view> m_fields;
    std::vector<std::uint32_t> m_columns;
    std::deque<std::string> m_unescaped; ///< Storage for fields with doubled quotes.
};

/// Removes leading and trailing spaces and tabs (inline: it runs for every cell).
inline std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

/// Lowercase ASCII copy.
std::string lowercase(std::string_view text);

/// The message for a header that names a column a reader uses twice (0-based field indices):
/// which of the two holds the values would be a guess, so readers stop instead of picking one.
std::string duplicateColumnMessage(std::string_view name, std::size_t firstIndex,
                                   std::size_t secondIndex);

} // namespace bs::io
