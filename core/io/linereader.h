#pragma once

#include "io/bytesource.h"
#include "io/readwarnings.h"
#include "util/canceltoken.h"
#include "util/progress.h"

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace bs::io {

struct LineReaderOptions
{
    /// A line longer than this is an error (a binary or minified file, not a text log).
    std::size_t maxLineBytes = std::size_t(16) << 20;
};

/// Splits a ByteSource into lines (LF or CRLF; the terminator is not part of the line; a last
/// line without a newline is still a line). Checks the encoding on the way: a UTF-8 byte order
/// mark is skipped, UTF-16 and binary content (NUL bytes) are errors naming the line.
/// Reports byte progress on the stored (compressed) bytes and honours the cancel token.
class LineReader
{
public:
    LineReader(ByteSource& source, Progress& progress = Progress::null(),
               CancelToken cancel = CancelToken(), LineReaderOptions options = {});

    /// Sets `line` to the next line and returns true, or returns false at the end of the data.
    /// The view is valid until the next call.
    Expected<bool> next(std::string_view& line);

    /// 1-based number of the line last returned by next().
    std::int64_t lineNumber() const { return m_lineNumber; }
    const std::string& path() const { return m_source.path(); }
    bool sawUtf8Bom() const { return m_sawBom; }
    /// True once the last line has been returned and it had no line ending. The tools whose
    /// logs BatchScope reads end every line, so a file that stops mid-line was probably cut
    /// short (a copy interrupted, a log still being written) and its last row may be partial.
    bool lastLineUnterminated() const { return m_unterminated; }

    /// An error at the current line, for readers that find a bad value.
    Error errorAt(std::int64_t column, ErrorCode code, std::string message) const;

private:
    Expected<bool> fill();
    Error lineTooLong() const;
    Status checkStart();

    ByteSource& m_source;
    Progress& m_progress;
    CancelToken m_cancel;
    LineReaderOptions m_options;
    std::vector<char> m_buffer;
    std::size_t m_chunkBytes;  ///< Least free room before a read; half the first buffer.
    std::size_t m_begin = 0;   ///< Start of unread data in m_buffer.
    std::size_t m_end = 0;     ///< End of valid data in m_buffer.
    std::size_t m_scanned = 0; ///< Bytes after m_begin already known to hold no newline.
    std::int64_t m_lineNumber = 0;
    bool m_eof = false;
    bool m_started = false;
    bool m_sawBom = false;
    bool m_unterminated = false;
};

/// Hands every line that is not blank (spaces and tabs only) to `visit`, in order, stopping at
/// the first error, the reader's or the visitor's: the loop of every one-record-per-line format.
Status forEachNonBlankLine(LineReader& lines,
                           const std::function<Status(std::string_view line)>& visit);

/// After the whole file was read: a warning when its last line had no line ending. For formats
/// whose writers end every line (perf_analyzer, Model Analyzer, nvidia-smi, LoadGen, PTDaemon),
/// where a missing one means the file was probably cut short.
void warnIfCutShort(const LineReader& lines, ReadWarnings& warnings);

} // namespace bs::io
