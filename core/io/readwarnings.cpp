#include "io/readwarnings.h"

namespace bs::io {

void ReadWarnings::add(const std::string& kind, std::int64_t line, std::string message)
{
    for (auto& group : m_groups) {
        if (group.kind != kind)
            continue;
        ++group.count;
        if (group.moreLines.size() < kLinesShown && line > 0)
            group.moreLines.push_back(line);
        return;
    }
    m_groups.push_back(Group{kind, line, std::move(message), 1, {}});
}

std::uint64_t ReadWarnings::count(const std::string& kind) const
{
    for (const auto& group : m_groups) {
        if (group.kind == kind)
            return group.count;
    }
    return 0;
}

std::vector<data::ReadWarning> ReadWarnings::summary() const
{
    std::vector<data::ReadWarning> out;
    out.reserve(m_groups.size());
    for (const auto& group : m_groups) {
        std::string message = group.message;
        if (group.count > 1) {
            const std::uint64_t more = group.count - 1;
            message += " (and " + std::to_string(more) + (more == 1 ? " more time" : " more times");
            if (!group.moreLines.empty()) {
                message += group.moreLines.size() == 1 ? ", on line " : ", on lines ";
                for (std::size_t i = 0; i < group.moreLines.size(); ++i)
                    message += (i ? ", " : "") + std::to_string(group.moreLines[i]);
                if (more > group.moreLines.size())
                    message += ", ...";
            }
            message += ")";
        }
        out.push_back(data::ReadWarning{group.firstLine, std::move(message)});
    }
    return out;
}

} // namespace bs::io
