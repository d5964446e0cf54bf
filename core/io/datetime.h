#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace bs::io {

/// A Unix time split into whole seconds and a fraction, so timestamps with 7 fractional digits
/// (Azure traces) keep their resolution when differences are taken (a double holding Unix
/// seconds directly resolves only about 0.2 µs).
struct EpochTime
{
    std::int64_t seconds = 0; ///< Whole seconds since 1970-01-01T00:00:00Z.
    double fraction = 0.0;    ///< In [0, 1).

    double toSeconds() const { return double(seconds) + fraction; }
    /// this - origin in seconds, exact to the fraction's resolution.
    double secondsSince(const EpochTime& origin) const
    {
        return double(seconds - origin.seconds) + (fraction - origin.fraction);
    }
};

/// Parses a calendar date and time as written by the tools BatchScope reads, taking a time
/// without a zone as UTC:
///   YYYY-MM-DD HH:MM:SS[.fff...]   (Azure traces; also with 'T' and a 'Z' or ±HH:MM zone)
///   YYYY/MM/DD HH:MM:SS[.fff]      (nvidia-smi)
///   MM-DD-YYYY HH:MM:SS[.fff]      (MLPerf power logs and power_begin/power_end)
/// Returns nullopt when the text is not one of these or names an impossible date or time.
std::optional<EpochTime> parseDateTime(std::string_view text);

/// Days from 1970-01-01 to the given civil date (proleptic Gregorian).
std::int64_t daysFromCivil(std::int64_t year, unsigned month, unsigned day);

} // namespace bs::io
