#pragma once

#include "io/linereader.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace bs::io {

/// Parses one line of a JSON Lines file. A syntax error is an error on the current line of
/// `lines`, its column the byte where the syntax broke, with the parser's reason.
Expected<nlohmann::json> parseJsonLine(std::string_view line, const LineReader& lines);

} // namespace bs::io
