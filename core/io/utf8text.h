#pragma once

#include "data/dataset.h"

#include <string>
#include <string_view>

namespace bs::io {

/// True when `text` is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
bool isValidUtf8(std::string_view text);

/// `text` with every ill-formed byte sequence replaced by U+FFFD, so names and messages taken
/// from a file in another encoding (Latin-1 CSV headers, binary junk in a trace name) can still
/// be shown and written to JSON.
std::string sanitizedUtf8(std::string_view text);

/// Makes every string a dataset holds valid UTF-8 (names, series, streams, metadata, tags,
/// provenance, warnings). Content is replaced by a fixed copy only when something needed fixing.
void sanitizeDatasetText(data::Dataset& dataset);

} // namespace bs::io
