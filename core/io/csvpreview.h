#pragma once

#include "util/expected.h"

#include <string>
#include <vector>

namespace bs::io {

/// The first lines of a delimited text file, for a column mapping dialog.
struct CsvPreview
{
    char delimiter = ',';
    std::vector<std::string> headers;
    std::vector<std::vector<std::string>> rows; ///< Up to the requested number, as text.
};

/// Reads the header and up to `rows` data rows (plain or gzip, UTF-8 BOM skipped). Errors name
/// the file and line (empty file, binary data, UTF-16, unbalanced quote).
Expected<CsvPreview> previewCsv(const std::string& path, std::size_t rows = 5);

} // namespace bs::io
