#include "io/numbercell.h"

#include "io/csvsplitter.h"

#include <charconv>
#include <cmath>

namespace bs::io {

std::optional<double> parseNumber(std::string_view text)
{
    text = trimmed(text);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    if (text.empty())
        return std::nullopt;
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ptr != end)
        return std::nullopt;
    if (ec == std::errc::result_out_of_range) {
        // Too small rounds to zero; too large is reported by the caller as not finite.
        const bool negative = text.front() == '-';
        const auto e = text.find_first_of("eE");
        const bool tiny = e != std::string_view::npos ? (e + 1 < text.size() && text[e + 1] == '-')
                                                      : text.substr(negative ? 1 : 0, 2) == "0.";
        if (tiny)
            return negative ? -0.0 : 0.0;
        return negative ? -HUGE_VAL : HUGE_VAL;
    }
    if (ec != std::errc())
        return std::nullopt;
    return value;
}

std::optional<std::int64_t> parseInteger(std::string_view text)
{
    text = trimmed(text);
    if (text.empty())
        return std::nullopt;
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || value < 0)
        return std::nullopt;
    return value;
}

bool isExactWholeNumber(double value)
{
    return value == std::floor(value) && std::fabs(value) <= kMaxExactWholeNumber;
}

std::string formatNumber(double value)
{
    char buffer[32];
    const auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return ec == std::errc() ? std::string(buffer, ptr) : std::string("?");
}

Expected<double> numberCell(std::string_view text, const CellPlace& place, CellRule rule)
{
    const auto value = parseNumber(text);
    // The fast path allocates nothing; messages are only built for a bad cell.
    if (value && std::isfinite(*value) &&
        (rule == CellRule::Any || (rule == CellRule::NonNegative && *value >= 0.0) ||
         (rule == CellRule::Positive && *value > 0.0)))
        return *value;
    const std::string column = "column \"" + std::string(place.columnName) + "\" ";
    if (!value) {
        if (trimmed(text).empty()) {
            return makeError(ErrorCode::Format, place.path, place.line, place.column,
                             column + "is empty; a number is needed");
        }
        return makeError(ErrorCode::Format, place.path, place.line, place.column,
                         column + "holds \"" + std::string(trimmed(text)) +
                             "\", which is not a number");
    }
    if (!std::isfinite(*value)) {
        return makeError(ErrorCode::Value, place.path, place.line, place.column,
                         column + "holds \"" + std::string(trimmed(text)) +
                             "\", which is not a finite number");
    }
    if (rule == CellRule::NonNegative) {
        return makeError(ErrorCode::Value, place.path, place.line, place.column,
                         column + "holds " + formatNumber(*value) +
                             "; a negative value is not valid here");
    }
    return makeError(ErrorCode::Value, place.path, place.line, place.column,
                     column + "holds " + formatNumber(*value) + "; it must be positive");
}

Expected<std::int64_t> integerCell(std::string_view text, const CellPlace& place, CellRule rule)
{
    // Fast path for plain digits ("8", "1234"): no double round trip.
    if (!text.empty() && text.size() < 18 && text.front() >= '0' && text.front() <= '9') {
        std::int64_t whole = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), whole);
        if (ec == std::errc() && ptr == text.data() + text.size() &&
            (rule != CellRule::Positive || whole > 0))
            return whole;
    }
    auto value = numberCell(text, place, rule);
    if (!value)
        return value.error();
    if (*value != std::floor(*value) || std::fabs(*value) > 9.0e15) {
        return makeError(ErrorCode::Value, place.path, place.line, place.column,
                         "column \"" + std::string(place.columnName) + "\" holds " +
                             formatNumber(*value) + "; a whole number is needed");
    }
    return std::int64_t(*value);
}

} // namespace bs::io
