#include "io/jsonline.h"

namespace bs::io {

Expected<nlohmann::json> parseJsonLine(std::string_view line, const LineReader& lines)
{
    try {
        return nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
        // parse_error::byte counts from the start of the line: it is the column (the last byte
        // of the token that broke the syntax). The library's own "line 1, column N" prefix
        // would contradict the file's line, so only its reason is kept.
        const std::string what = e.what();
        const auto column = what.find("column ");
        const auto reason = column == std::string::npos ? column : what.find(": ", column);
        return lines.errorAt(std::int64_t(e.byte), ErrorCode::Format,
                             "not a JSON object: " +
                                 (reason == std::string::npos ? what : what.substr(reason + 2)));
    }
}

} // namespace bs::io
