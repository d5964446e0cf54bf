#pragma once

#include "io/readercontext.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bs::io {

/// A streaming JSON tokenizer over a ByteSource: it pulls the bytes chunk by chunk (gzip is
/// inflated on the way) and hands out tokens, so a multi-gigabyte trace is parsed without ever
/// holding a document in memory. The caller drives the grammar (recursive descent); strings
/// come back as views that stay valid until the next call, unescaped only when they hold
/// escapes. Errors name the file, the line, the column in that line and the byte offset.
/// Reports byte progress on the stored bytes and checks the cancel token at every refill.
class JsonPullParser
{
public:
    JsonPullParser(ByteSource& source, ReaderContext& context);

    /// The next non-whitespace character, not consumed; '\0' at the end of the data.
    Expected<char> peek()
    {
        // Fast path: most tokens follow one space at most (inlined; the hot loop of a trace).
        if (m_pos < m_end && !isSpace(*m_pos))
            return *m_pos;
        if (m_pos + 1 < m_end && *m_pos == ' ' && !isSpace(m_pos[1]))
            return *++m_pos;
        return peekSlow();
    }
    /// Consumes the next non-whitespace character, which must be `c`.
    Status expect(char c, const char* context)
    {
        if (m_pos < m_end && *m_pos == c) {
            ++m_pos;
            return {};
        }
        return expectSlow(c, context);
    }
    /// After a member or element: consumes ',' (true: another follows) or `closer` (false).
    Expected<bool> separator(char closer, const char* context)
    {
        if (m_pos < m_end && (*m_pos == ',' || *m_pos == closer))
            return *m_pos++ == ',';
        return separatorSlow(closer, context);
    }
    /// Reads a string token (whitespace before it is skipped).
    Expected<std::string_view> string();
    /// Reads a number token's text ("-12.5e3"), not yet converted.
    Expected<std::string_view> numberText();
    /// Skips any value (nested up to the depth limit).
    Status skipValue();
    /// Copies the raw JSON text of the next value into `out` (up to `limit` bytes; beyond that
    /// the value is skipped and `out` is cleared). Strings are unescaped, not copied raw.
    Status captureValue(std::string& out, std::size_t limit);

    /// A syntax error at the current position: "JSON syntax error at byte N: <what>".
    Error syntaxError(const std::string& what) const;
    /// An error at the current position with the given code and message.
    Error errorHere(ErrorCode code, const std::string& message) const;
    /// Absolute offset (uncompressed) of the next unread byte.
    std::uint64_t offset() const { return m_consumedBefore + std::uint64_t(m_pos - m_buf.data()); }
    /// 1-based line of the current position (counts the newlines in the buffer: for errors
    /// and the first few warnings, not for every token).
    std::int64_t currentLine() const;
    /// True when only whitespace is left.
    Expected<bool> atEnd();

private:
    static bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
    Expected<char> peekSlow();
    Status expectSlow(char c, const char* context);
    Expected<bool> separatorSlow(char closer, const char* context);
    Expected<bool> refill(const char* keepFrom);
    /// At the first refill: refuses UTF-16 and skips a UTF-8 byte order mark.
    Status checkStart();
    Error tokenTooLong() const;
    Expected<bool> skipWhitespace();
    Expected<std::string_view> slowString(std::size_t start, std::size_t scanned);
    Status unescape(std::string_view raw, std::string& out);
    Status skipNested(int depth);
    Status literal();

    ByteSource& m_source;
    ReaderContext& m_context;
    std::vector<char> m_buf;
    std::size_t m_chunkBytes; ///< Half the first buffer: refills keep a quarter of it free.
    const char* m_pos = nullptr;
    const char* m_end = nullptr;
    bool m_eof = false;
    bool m_startChecked = false;
    std::uint64_t m_consumedBefore = 0;  ///< Bytes discarded from the front of the buffer.
    std::int64_t m_linesBefore = 0;      ///< Newlines in the discarded bytes.
    std::uint64_t m_lineStartBefore = 0; ///< Offset after the last discarded newline.
    std::string m_scratch;
    static constexpr std::uint64_t kNoPin = ~std::uint64_t(0);
    std::uint64_t m_pin = kNoPin; ///< Offset captureValue() needs kept in the buffer.
    std::uint64_t m_pinLimit = 0;
};

} // namespace bs::io
