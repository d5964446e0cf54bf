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
    } catch (const nlohmann::json::out_of_range& e) {
        // 406 "number overflow parsing '1e999'": valid JSON, but no double holds the number.
        const std::string what = e.what();
        const auto open = what.find('\'');
        const auto close = open == std::string::npos ? open : what.find('\'', open + 1);
        const std::string number =
            close == std::string::npos ? std::string() : what.substr(open + 1, close - open - 1);
        const auto at = number.empty() ? std::string_view::npos : line.find(number);
        return lines.errorAt(
            at == std::string_view::npos ? 0 : std::int64_t(at) + 1, ErrorCode::Value,
            "the number " + (number.empty() ? std::string("on the line") : number) +
                " is too large to hold (beyond about 1.8e308)");
    }
}

} // namespace bs::io
