#include "io/jsonpullparser.h"

#include <cstring>

namespace bs::io {

namespace {

constexpr std::size_t kChunkBytes = std::size_t(1) << 20;
constexpr std::size_t kMaxTokenBytes = std::size_t(16) << 20;
constexpr int kMaxDepth = 64;

bool isNumberChar(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/// Newlines in [p, p + n), eight bytes at a time.
std::int64_t countNewlines(const char* p, std::size_t n)
{
    std::int64_t count = 0;
    std::size_t i = 0;
    constexpr std::uint64_t ones = 0x0101010101010101ull;
    constexpr std::uint64_t highs = 0x8080808080808080ull;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t word;
        std::memcpy(&word, p + i, 8);
        const std::uint64_t x = word ^ (ones * '\n');
        // High bit set in each byte of x that is zero, exactly (no false positives).
        const std::uint64_t zero = ~(((x & ~highs) + ~highs) | x | ~highs);
        // One bit per matching byte (bit 7 of each byte): sum the bytes without a popcount
        // instruction (not every x86-64 target has one).
        count += std::int64_t(((zero >> 7) * ones) >> 56);
    }
    for (; i < n; ++i)
        count += (p[i] == '\n');
    return count;
}

/// Offset just after the last newline in [p, p + n), or npos.
std::size_t afterLastNewline(const char* p, std::size_t n)
{
    for (std::size_t i = n; i > 0; --i) {
        if (p[i - 1] == '\n')
            return i;
    }
    return std::string::npos;
}

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xc0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += char(0xe0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3f));
        out += char(0x80 | (cp & 0x3f));
    } else {
        out += char(0xf0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3f));
        out += char(0x80 | ((cp >> 6) & 0x3f));
        out += char(0x80 | (cp & 0x3f));
    }
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

std::string describe(char c)
{
    if (c == '\0')
        return "the end of the data";
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
        return "byte " + std::to_string(static_cast<unsigned char>(c));
    return std::string("'") + c + "'";
}

} // namespace

JsonPullParser::JsonPullParser(ByteSource& source, ReaderContext& context)
    : m_source(source)
    , m_context(context)
    , m_buf(initialBufferBytes(source, kChunkBytes * 2))
    , m_chunkBytes(m_buf.size() / 2)
{
    m_pos = m_end = m_buf.data();
}

std::int64_t JsonPullParser::currentLine() const
{
    return m_linesBefore + countNewlines(m_buf.data(), std::size_t(m_pos - m_buf.data())) + 1;
}

Error JsonPullParser::errorHere(ErrorCode code, const std::string& message) const
{
    const char* base = m_buf.data();
    const std::size_t upTo = std::size_t(m_pos - base);
    const std::int64_t line = currentLine();
    const std::size_t after = afterLastNewline(base, upTo);
    const std::uint64_t lineStart =
        after == std::string::npos ? m_lineStartBefore : m_consumedBefore + after;
    const std::int64_t column = std::int64_t(offset() - lineStart) + 1;
    return makeError(code, m_context.path, line, column, message);
}

Error JsonPullParser::tokenTooLong() const
{
    return errorHere(ErrorCode::Limit, "a JSON token longer than " +
                                           std::to_string(kMaxTokenBytes) +
                                           " bytes; refusing to read it");
}

Error JsonPullParser::syntaxError(const std::string& what) const
{
    return errorHere(ErrorCode::Format,
                     "JSON syntax error at byte " + std::to_string(offset()) + ": " + what);
}

Expected<bool> JsonPullParser::refill(const char* keepFrom)
{
    if (m_context.cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, m_context.path, 0, 0, "reading cancelled");
    if (m_eof)
        return false;
    char* base = m_buf.data();
    if (m_pin != kNoPin) {
        const char* pinned = base + (m_pin - m_consumedBefore);
        if (std::uint64_t(m_end - pinned) > m_pinLimit)
            m_pin = kNoPin; // too long to keep: the caller gets nothing
        else if (pinned < keepFrom)
            keepFrom = pinned;
    }
    const std::size_t discard = std::size_t(keepFrom - base);
    if (discard > 0) {
        m_linesBefore += countNewlines(base, discard);
        const std::size_t after = afterLastNewline(base, discard);
        if (after != std::string::npos)
            m_lineStartBefore = m_consumedBefore + after;
        m_consumedBefore += discard;
    }
    const std::size_t kept = std::size_t(m_end - keepFrom);
    const std::size_t posIndex = std::size_t(m_pos - keepFrom);
    std::memmove(base, keepFrom, kept);
    // What is kept is the token being read: checked at every refill, not only when the buffer
    // grows (doubling would let a token reach twice the limit before anyone looked).
    if (kept > kMaxTokenBytes) {
        m_pos = base + posIndex;
        m_end = base + kept;
        return tokenTooLong();
    }
    if (m_buf.size() - kept < m_chunkBytes / 2) {
        m_buf.resize(m_buf.size() * 2);
        base = m_buf.data();
    }
    m_pos = base + posIndex;
    m_end = base + kept;
    auto got = m_source.read(base + kept, m_buf.size() - kept);
    if (!got)
        return got.error();
    m_context.progress.advanceTo(m_source.storedBytesConsumed());
    if (*got == 0) {
        m_eof = true;
        return false;
    }
    const char* fresh = m_end;
    m_end += *got;
    if (!m_startChecked) {
        if (auto status = checkStart(); !status)
            return status.error();
    }
    if (const void* nul = std::memchr(fresh, 0, std::size_t(m_end - fresh))) {
        m_pos = static_cast<const char*>(nul);
        return errorHere(ErrorCode::Format, "binary data (a NUL byte at byte " +
                                                std::to_string(offset()) +
                                                ") in what should be a JSON file");
    }
    return true;
}

Status JsonPullParser::checkStart()
{
    // Nothing is consumed yet. Read on to 3 bytes (or the end) so a byte order mark split over
    // two reads is still seen; UTF-16 is refused before its NUL bytes read as binary data.
    char* base = m_buf.data();
    while (m_end - base < 3) {
        auto got =
            m_source.read(m_buf.data() + (m_end - base), m_buf.size() - std::size_t(m_end - base));
        if (!got)
            return got.error();
        if (*got == 0) {
            m_eof = true;
            break;
        }
        m_end += *got;
    }
    m_startChecked = true;
    const auto* bytes = reinterpret_cast<const unsigned char*>(m_pos);
    const std::size_t size = std::size_t(m_end - m_pos);
    if (size >= 2 &&
        ((bytes[0] == 0xff && bytes[1] == 0xfe) || (bytes[0] == 0xfe && bytes[1] == 0xff))) {
        return makeError(ErrorCode::Format, m_context.path, 1, 1,
                         "the file is UTF-16 encoded; BatchScope reads UTF-8 text (save it as "
                         "UTF-8 and try again)");
    }
    if (size >= 3 && bytes[0] == 0xef && bytes[1] == 0xbb && bytes[2] == 0xbf)
        m_pos += 3; // a UTF-8 byte order mark: not part of the JSON text
    return {};
}

Expected<bool> JsonPullParser::skipWhitespace()
{
    for (;;) {
        while (m_pos < m_end && JsonPullParser::isSpace(*m_pos))
            ++m_pos;
        if (m_pos < m_end)
            return true;
        auto more = refill(m_pos);
        if (!more)
            return more.error();
        if (!*more)
            return false;
    }
}

Expected<char> JsonPullParser::peekSlow()
{
    auto available = skipWhitespace();
    if (!available)
        return available.error();
    return *available ? *m_pos : '\0';
}

Expected<bool> JsonPullParser::atEnd()
{
    auto available = skipWhitespace();
    if (!available)
        return available.error();
    return !*available;
}

Status JsonPullParser::expectSlow(char c, const char* context)
{
    auto next = peek();
    if (!next)
        return next.error();
    if (*next != c) {
        return syntaxError(std::string("expected '") + c + "' " + context + ", found " +
                           describe(*next));
    }
    ++m_pos;
    return {};
}

Expected<bool> JsonPullParser::separatorSlow(char closer, const char* context)
{
    auto next = peek();
    if (!next)
        return next.error();
    if (*next == ',') {
        ++m_pos;
        return true;
    }
    if (*next == closer) {
        ++m_pos;
        return false;
    }
    if (*next == '\0')
        return syntaxError(std::string("the data ends inside ") + context + " (truncated file?)");
    return syntaxError(std::string("expected ',' or '") + closer + "' " + context + ", found " +
                       describe(*next));
}

Expected<std::string_view> JsonPullParser::string()
{
    auto next = peek();
    if (!next)
        return next.error();
    if (*next != '"')
        return syntaxError("expected a string, found " + describe(*next));
    std::size_t scanned = 1;
    for (;;) {
        const char* from = m_pos + scanned;
        const void* quote = std::memchr(from, '"', std::size_t(m_end - from));
        if (quote) {
            const char* q = static_cast<const char*>(quote);
            const char* body = m_pos + 1;
            if (std::size_t(q - body) > kMaxTokenBytes)
                return tokenTooLong();
            if (!std::memchr(body, '\\', std::size_t(q - body))) {
                const std::string_view view(body, std::size_t(q - body));
                m_pos = q + 1;
                return view;
            }
            return slowString(1, 1);
        }
        scanned = std::size_t(m_end - m_pos);
        auto more = refill(m_pos);
        if (!more)
            return more.error();
        if (!*more)
            return syntaxError("the data ends inside a string (truncated file?)");
    }
}

Expected<std::string_view> JsonPullParser::slowString(std::size_t start, std::size_t scanned)
{
    // Find the closing quote, stepping over escapes, refilling as needed.
    std::size_t i = scanned;
    for (;;) {
        while (m_pos + i < m_end) {
            const char c = m_pos[i];
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (c == '"') {
                if (i - start > kMaxTokenBytes)
                    return tokenTooLong();
                const std::string_view raw(m_pos + start, i - start);
                if (auto status = unescape(raw, m_scratch); !status)
                    return status.error();
                m_pos += i + 1;
                return std::string_view(m_scratch);
            }
            ++i;
        }
        auto more = refill(m_pos);
        if (!more)
            return more.error();
        if (!*more)
            return syntaxError("the data ends inside a string (truncated file?)");
    }
}

Status JsonPullParser::unescape(std::string_view raw, std::string& out)
{
    out.clear();
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] != '\\') {
            out += raw[i];
            continue;
        }
        const char e = raw[++i];
        switch (e) {
        case '"':
        case '\\':
        case '/':
            out += e;
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'u': {
            auto hex4 = [&](std::size_t at) -> int {
                if (at + 4 > raw.size())
                    return -1;
                int v = 0;
                for (std::size_t k = 0; k < 4; ++k) {
                    const int h = hexValue(raw[at + k]);
                    if (h < 0)
                        return -1;
                    v = v * 16 + h;
                }
                return v;
            };
            int cp = hex4(i + 1);
            if (cp < 0)
                return syntaxError("a \\u escape needs four hex digits");
            i += 4;
            if (cp >= 0xd800 && cp < 0xdc00 && i + 2 < raw.size() && raw[i + 1] == '\\' &&
                raw[i + 2] == 'u') {
                const int low = hex4(i + 3);
                if (low >= 0xdc00 && low < 0xe000) {
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                    i += 6;
                }
            }
            appendUtf8(out, std::uint32_t(cp));
            break;
        }
        default:
            return syntaxError(std::string("invalid escape '\\") + e + "' in a string");
        }
    }
    return {};
}

Expected<std::string_view> JsonPullParser::numberText()
{
    auto next = peek();
    if (!next)
        return next.error();
    std::size_t length = 0;
    for (;;) {
        while (m_pos + length < m_end && isNumberChar(m_pos[length]))
            ++length;
        if (m_pos + length < m_end)
            break;
        auto more = refill(m_pos);
        if (!more)
            return more.error();
        if (!*more)
            break;
    }
    if (length == 0)
        return syntaxError("expected a value, found " + describe(*next));
    if (length > kMaxTokenBytes)
        return tokenTooLong();
    const std::string_view text(m_pos, length);
    m_pos += length;
    return text;
}

Status JsonPullParser::literal()
{
    while (m_end - m_pos < 5 && !m_eof) {
        auto more = refill(m_pos);
        if (!more)
            return more.error();
    }
    const std::string_view rest(m_pos, std::size_t(m_end - m_pos));
    for (const char* word : {"true", "false", "null"}) {
        if (rest.substr(0, std::strlen(word)) == word) {
            m_pos += std::strlen(word);
            return {};
        }
    }
    return syntaxError("expected a value, found " + describe(*m_pos));
}

Status JsonPullParser::skipNested(int depth)
{
    if (depth > kMaxDepth) {
        return errorHere(ErrorCode::Limit, "JSON nested deeper than " + std::to_string(kMaxDepth) +
                                               " levels; refusing to read it");
    }
    auto next = peek();
    if (!next)
        return next.error();
    const char c = *next;
    if (c == '{' || c == '[') {
        const char closer = c == '{' ? '}' : ']';
        const char* what = c == '{' ? "an object" : "an array";
        ++m_pos;
        auto first = peek();
        if (!first)
            return first.error();
        if (*first == closer) {
            ++m_pos;
            return {};
        }
        for (;;) {
            if (c == '{') {
                if (auto key = string(); !key)
                    return key.error();
                if (auto status = expect(':', "after an object key"); !status)
                    return status;
            }
            if (auto status = skipNested(depth + 1); !status)
                return status;
            auto more = separator(closer, what);
            if (!more)
                return more.error();
            if (!*more)
                return {};
        }
    }
    if (c == '"') {
        auto text = string();
        if (!text)
            return text.error();
        return {};
    }
    if (c == 't' || c == 'f' || c == 'n')
        return literal();
    if (c == '\0')
        return syntaxError("the data ends where a value should be (truncated file?)");
    auto number = numberText();
    if (!number)
        return number.error();
    return {};
}

Status JsonPullParser::skipValue()
{
    return skipNested(0);
}

Status JsonPullParser::captureValue(std::string& out, std::size_t limit)
{
    auto next = peek();
    if (!next)
        return next.error();
    if (*next == '"') {
        auto text = string();
        if (!text)
            return text.error();
        out.assign(*text);
        return {};
    }
    // Values other than strings: pin the start so refills keep it, skip, copy the raw bytes.
    // A value longer than `limit` drops the pin (refill() sees that) and is not kept.
    m_pin = offset();
    m_pinLimit = limit;
    auto status = skipNested(0);
    const bool kept = m_pin != kNoPin;
    const std::uint64_t pin = m_pin;
    m_pin = kNoPin;
    if (!status)
        return status;
    if (kept && offset() - pin <= limit)
        out.assign(static_cast<const char*>(m_buf.data() + (pin - m_consumedBefore)), m_pos);
    else
        out.clear();
    return {};
}

} // namespace bs::io
