#pragma once

#include "util/expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bs::io {

/// Parses a whole decimal number ("12", "-3.5", "1e-3", "+2"; spaces around it allowed) with
/// std::from_chars: no locale, no allocation. "nan" and "inf" parse (to non-finite values) so
/// the caller can say so; anything else that is not entirely a number gives nullopt.
std::optional<double> parseNumber(std::string_view text);

/// The largest whole number up to which a double holds every whole number (2^53).
inline constexpr double kMaxExactWholeNumber = 9007199254740992.0;

/// Whole and within ±2^53: exact in a double, and converted to a 64-bit integer without
/// overflow (a count read as a JSON number must pass this before the conversion).
bool isExactWholeNumber(double value);

/// Parses a whole non-negative decimal integer; nullopt for anything else or on overflow.
std::optional<std::int64_t> parseInteger(std::string_view text);

/// What a cell must hold to be accepted.
enum class CellRule
{
    Any,         ///< Any finite number.
    NonNegative, ///< Finite and >= 0 (times, latencies, rates, counts, power).
    Positive,    ///< Finite and > 0 (batch sizes).
};

/// Where a cell is, for error messages: file, line, 1-based column and the column's name.
struct CellPlace
{
    const std::string& path;
    std::int64_t line;
    std::int64_t column;
    std::string_view columnName;
};

/// Parses a number cell, giving an Error naming the file, line, column and column name when it
/// is not a number ("column \"p99 latency\" holds \"abc\", which is not a number"), not finite,
/// or breaks the rule.
Expected<double> numberCell(std::string_view text, const CellPlace& place,
                            CellRule rule = CellRule::NonNegative);

/// Like numberCell, but the value must also be a whole number.
Expected<std::int64_t> integerCell(std::string_view text, const CellPlace& place,
                                   CellRule rule = CellRule::NonNegative);

/// Shortest text that reads back as the same double ("0.1", "1e-07"), for messages.
std::string formatNumber(double value);

} // namespace bs::io
