#include "io/linereader.h"

#include <cstring>

namespace bs::io {

namespace {
constexpr std::size_t kChunkBytes = std::size_t(1) << 20;
}

LineReader::LineReader(ByteSource& source, Progress& progress, CancelToken cancel,
                       LineReaderOptions options)
    : m_source(source)
    , m_progress(progress)
    , m_cancel(std::move(cancel))
    , m_options(options)
    , m_buffer(initialBufferBytes(source, kChunkBytes * 2))
    , m_chunkBytes(m_buffer.size() / 2)
{}

Error LineReader::errorAt(std::int64_t column, ErrorCode code, std::string message) const
{
    return makeError(code, m_source.path(), m_lineNumber, column, std::move(message));
}

Error LineReader::lineTooLong() const
{
    return makeError(ErrorCode::Limit, m_source.path(), m_lineNumber + 1, 0,
                     "line longer than " + std::to_string(m_options.maxLineBytes) +
                         " bytes; this does not look like a text table or log");
}

Expected<bool> LineReader::fill()
{
    if (m_cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, m_source.path(), m_lineNumber, 0,
                         "reading cancelled");
    // Move the unread tail to the front, then grow if a single line needs more room.
    if (m_begin > 0) {
        std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
        m_end -= m_begin;
        m_begin = 0;
    }
    if (m_buffer.size() - m_end < m_chunkBytes) {
        if (m_end > m_options.maxLineBytes)
            return lineTooLong();
        m_buffer.resize(m_buffer.size() * 2);
    }
    auto got = m_source.read(m_buffer.data() + m_end, m_buffer.size() - m_end);
    if (!got)
        return got.error();
    if (*got == 0) {
        m_eof = true;
        return false;
    }
    const char* fresh = m_buffer.data() + m_end;
    if (const void* nul = std::memchr(fresh, 0, *got)) {
        // Count the newlines before the NUL so the error names the right line.
        const char* stop = static_cast<const char*>(nul);
        std::int64_t line = m_lineNumber + 1;
        for (const char* p = m_buffer.data() + m_begin; p < stop; ++p)
            line += (*p == '\n');
        return makeError(ErrorCode::Format, m_source.path(), line, 0,
                         "binary data (a NUL byte) in what should be a text file");
    }
    m_end += *got;
    m_progress.advanceTo(m_source.storedBytesConsumed());
    return true;
}

Status LineReader::checkStart()
{
    m_started = true;
    while (m_end - m_begin < 3 && !m_eof) {
        // UTF-16 files hold NUL bytes, which fill() rejects; look at the raw bytes first.
        auto got = m_source.read(m_buffer.data() + m_end, 3 - (m_end - m_begin));
        if (!got)
            return got.error();
        if (*got == 0)
            m_eof = true;
        m_end += *got;
    }
    const auto* bytes = reinterpret_cast<const unsigned char*>(m_buffer.data());
    const std::size_t size = m_end - m_begin;
    if (size >= 2 &&
        ((bytes[0] == 0xff && bytes[1] == 0xfe) || (bytes[0] == 0xfe && bytes[1] == 0xff))) {
        return makeError(ErrorCode::Format, m_source.path(), 1, 1,
                         "the file is UTF-16 encoded; BatchScope reads UTF-8 text (save it as "
                         "UTF-8 and try again)");
    }
    if (size >= 3 && bytes[0] == 0xef && bytes[1] == 0xbb && bytes[2] == 0xbf) {
        m_begin += 3;
        m_sawBom = true;
    }
    if (std::memchr(m_buffer.data() + m_begin, 0, m_end - m_begin)) {
        return makeError(ErrorCode::Format, m_source.path(), 1, 0,
                         "binary data (a NUL byte) in what should be a text file");
    }
    return {};
}

Expected<bool> LineReader::next(std::string_view& line)
{
    if (!m_started) {
        if (auto start = checkStart(); !start)
            return start.error();
    }
    for (;;) {
        const char* base = m_buffer.data() + m_begin;
        const std::size_t available = m_end - m_begin;
        if (const void* found = std::memchr(base + m_scanned, '\n', available - m_scanned)) {
            std::size_t length = std::size_t(static_cast<const char*>(found) - base);
            if (length > m_options.maxLineBytes)
                return lineTooLong();
            m_begin += length + 1;
            m_scanned = 0;
            if (length > 0 && base[length - 1] == '\r')
                --length;
            line = std::string_view(base, length);
            ++m_lineNumber;
            return true;
        }
        m_scanned = available;
        // Checked on every refill: the buffer doubles, so a check only when it grows would let
        // a line reach twice the limit.
        if (available > m_options.maxLineBytes)
            return lineTooLong();
        if (m_eof) {
            if (available == 0)
                return false;
            std::size_t length = available;
            if (base[length - 1] == '\r')
                --length;
            line = std::string_view(base, length);
            m_begin = m_end;
            m_scanned = 0;
            ++m_lineNumber;
            m_unterminated = true;
            return true;
        }
        auto more = fill();
        if (!more)
            return more.error();
    }
}

Status forEachNonBlankLine(LineReader& lines,
                           const std::function<Status(std::string_view line)>& visit)
{
    std::string_view line;
    for (;;) {
        auto more = lines.next(line);
        if (!more)
            return more.error();
        if (!*more)
            return {};
        if (line.find_first_not_of(" \t") == std::string_view::npos)
            continue;
        if (auto status = visit(line); !status)
            return status;
    }
}

void warnIfCutShort(const LineReader& lines, ReadWarnings& warnings)
{
    if (!lines.lastLineUnterminated())
        return;
    warnings.add("no-final-newline", lines.lineNumber(),
                 "the file ends without a line ending, as if it was cut short (a copy "
                 "interrupted, a log still being written); its last line was read as it is");
}

} // namespace bs::io
