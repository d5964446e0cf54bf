#pragma once

#include "data/dataset.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bs::io {

/// Collects the recoverable oddities a reader meets, so that a file with the same oddity on a
/// million lines gives one warning ("... (and 999,999 more lines: 5, 9, ...)"), not a million.
/// Warnings with the same `kind` are summarised together; the first one's message is kept.
/// Thread contract: used by one reader at a time.
class ReadWarnings
{
public:
    /// Records one occurrence; `line` is 1-based, 0 for the whole file.
    void add(const std::string& kind, std::int64_t line, std::string message);
    /// True while a warning of `kind` would still show its line number in the summary (so a
    /// reader can skip the cost of finding the line for the rest).
    bool wantsLine(const std::string& kind) const { return count(kind) <= kLinesShown; }
    static constexpr std::size_t kLinesShown = 5;
    /// How many times `kind` was recorded.
    std::uint64_t count(const std::string& kind) const;
    bool empty() const { return m_groups.empty(); }
    /// One warning per kind, in the order the kinds first appeared.
    std::vector<data::ReadWarning> summary() const;

private:
    struct Group
    {
        std::string kind;
        std::int64_t firstLine = 0;
        std::string message;
        std::uint64_t count = 0;
        std::vector<std::int64_t> moreLines; ///< The next few lines, for the summary.
    };
    std::vector<Group> m_groups;
};

} // namespace bs::io
