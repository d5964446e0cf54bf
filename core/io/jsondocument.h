#pragma once

#include "io/bytesource.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace bs::io {

/// Reads a whole source as one JSON document (a tool's pretty-printed export): refuses content
/// that is not UTF-8 text (empty, UTF-16, binary), more than `maxBytes`, or invalid JSON, with
/// errors naming `path` (and line and column for a syntax error).
Expected<nlohmann::json> readJsonDocument(ByteSource& source, const std::string& path,
                                          std::uint64_t maxBytes);

} // namespace bs::io
