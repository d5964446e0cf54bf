#include "io/datetime.h"

#include "io/csvsplitter.h"

namespace bs::io {

namespace {

/// Reads exactly `count` digits at text[pos...]; advances pos.
bool digits(std::string_view text, std::size_t& pos, int count, int& out)
{
    if (pos + std::size_t(count) > text.size())
        return false;
    int value = 0;
    for (int i = 0; i < count; ++i) {
        const char c = text[pos + std::size_t(i)];
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + (c - '0');
    }
    pos += std::size_t(count);
    out = value;
    return true;
}

bool expect(std::string_view text, std::size_t& pos, char c)
{
    if (pos >= text.size() || text[pos] != c)
        return false;
    ++pos;
    return true;
}

bool isLeap(int year)
{
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

bool validDate(int year, int month, int day)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (year < 1900 || year > 9999 || month < 1 || month > 12 || day < 1)
        return false;
    const int limit = days[month - 1] + ((month == 2 && isLeap(year)) ? 1 : 0);
    return day <= limit;
}

struct Civil
{
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
};

/// The date part in any of the three orders; leaves pos after it.
bool parseDate(std::string_view text, std::size_t& pos, Civil& c)
{
    std::size_t p = pos;
    if (digits(text, p, 4, c.year)) {
        const char sep = p < text.size() ? text[p] : '\0';
        if ((sep == '-' || sep == '/') && expect(text, p, sep) && digits(text, p, 2, c.month) &&
            expect(text, p, sep) && digits(text, p, 2, c.day)) {
            pos = p;
            return true;
        }
        return false;
    }
    p = pos; // MM-DD-YYYY
    if (digits(text, p, 2, c.month) && expect(text, p, '-') && digits(text, p, 2, c.day) &&
        expect(text, p, '-') && digits(text, p, 4, c.year)) {
        pos = p;
        return true;
    }
    return false;
}

/// Fraction digits after the seconds ("9799600" -> 0.97996).
double parseFraction(std::string_view text, std::size_t& pos)
{
    std::int64_t numerator = 0;
    double denominator = 1.0;
    int used = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        if (used < 15) { // digits past femtoseconds do not change a double
            numerator = numerator * 10 + (text[pos] - '0');
            denominator *= 10.0;
            ++used;
        }
        ++pos;
    }
    return double(numerator) / denominator;
}

/// An optional zone: Z, +HH:MM, -HH:MM, +HHMM. Returns false for anything else.
bool parseZone(std::string_view text, std::size_t& pos, std::int64_t& offsetS)
{
    offsetS = 0;
    if (pos == text.size())
        return true;
    if (text[pos] == 'Z' && pos + 1 == text.size()) {
        ++pos;
        return true;
    }
    if (text[pos] != '+' && text[pos] != '-')
        return false;
    const int sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int hours = 0, minutes = 0;
    if (!digits(text, pos, 2, hours))
        return false;
    if (pos < text.size() && text[pos] == ':')
        ++pos;
    if (!digits(text, pos, 2, minutes) || hours > 23 || minutes > 59)
        return false;
    offsetS = sign * (hours * 3600 + minutes * 60);
    return pos == text.size();
}

} // namespace

std::int64_t daysFromCivil(std::int64_t year, unsigned month, unsigned day)
{
    // H. Hinnant's algorithm: shift the year to start in March so leap days come last.
    year -= month <= 2;
    const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
    const auto yoe = unsigned(year - era * 400);
    const unsigned doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + std::int64_t(doe) - 719468;
}

std::optional<EpochTime> parseDateTime(std::string_view text)
{
    text = trimmed(text);
    std::size_t pos = 0;
    Civil c;
    if (!parseDate(text, pos, c) || !validDate(c.year, c.month, c.day))
        return std::nullopt;
    if (pos >= text.size() || (text[pos] != ' ' && text[pos] != 'T'))
        return std::nullopt;
    ++pos;
    if (!digits(text, pos, 2, c.hour) || !expect(text, pos, ':') ||
        !digits(text, pos, 2, c.minute) || !expect(text, pos, ':') ||
        !digits(text, pos, 2, c.second))
        return std::nullopt;
    if (c.hour > 23 || c.minute > 59 || c.second > 60)
        return std::nullopt;
    double fraction = 0.0;
    if (pos < text.size() && (text[pos] == '.' || text[pos] == ',')) {
        ++pos;
        const std::size_t start = pos;
        fraction = parseFraction(text, pos);
        if (pos == start)
            return std::nullopt;
    }
    std::int64_t offsetS = 0;
    if (!parseZone(text, pos, offsetS))
        return std::nullopt;
    EpochTime t;
    t.seconds = daysFromCivil(c.year, unsigned(c.month), unsigned(c.day)) * 86400 + c.hour * 3600 +
                c.minute * 60 + c.second - offsetS;
    t.fraction = fraction;
    return t;
}

} // namespace bs::io
