#pragma once

#include "util/expected.h"

#include <filesystem>
#include <string>
#include <vector>

namespace bs::analysis {

/// The text helpers every curve pack shares (curvepack.h, llmregionpack.h).

/// Shortest text that reads back to the same double; empty for NaN (an absent value).
std::string packNumber(double v);

/// An RFC 4180 table: a field is quoted when it holds a comma, a quote or a line break.
class CsvWriter
{
public:
    void row(const std::vector<std::string>& fields);
    std::string take() { return std::move(m_text); }

private:
    std::string m_text;
};

/// Writes beside, then renames: a reader never sees half a file. Errors name the file.
Status writePackFile(const std::filesystem::path& path, const std::string& content);

/// Creates the pack folder when missing; errors name it.
Status makePackFolder(const std::string& folder);

} // namespace bs::analysis
