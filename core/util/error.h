#pragma once

#include <cstdint>
#include <string>

namespace bs {

/// What kind of failure an Error describes; the CLI maps these to exit codes.
enum class ErrorCode
{
    Io,          ///< The file could not be opened, read or written.
    Format,      ///< The content does not have the expected shape (header, syntax, truncation).
    Value,       ///< A value is out of range, non-finite, negative or inconsistent.
    Unsupported, ///< Valid input that this version cannot handle (newer schema, unknown kind).
    Limit,       ///< A protective limit was hit (size, ratio, nesting depth, line length).
    Cancelled,   ///< The user cancelled the job.
    Usage,       ///< A caller passed bad arguments (CLI usage errors map here).
    Internal,    ///< A bug in BatchScope; the message says what was expected.
};

/// Stable lowercase name of an ErrorCode, used in JSON output.
const char* errorCodeName(ErrorCode code);

/// A failure as a value: where (file, 1-based line and column; column is a byte offset for
/// JSON files) and why, in words a user understands. line/column are 0 when unknown.
struct Error
{
    ErrorCode code = ErrorCode::Internal;
    std::string path;
    std::int64_t line = 0;
    std::int64_t column = 0;
    std::string message;

    /// "path:line:column: message", leaving out the parts that are unknown.
    std::string toString() const;

    friend bool operator==(const Error&, const Error&) = default;
};

Error makeError(ErrorCode code, std::string message);
Error makeError(ErrorCode code, std::string path, std::int64_t line, std::int64_t column,
                std::string message);

} // namespace bs
