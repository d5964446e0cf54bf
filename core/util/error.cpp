#include "util/error.h"

namespace bs {

const char* errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::Io:
        return "io";
    case ErrorCode::Format:
        return "format";
    case ErrorCode::Value:
        return "value";
    case ErrorCode::Unsupported:
        return "unsupported";
    case ErrorCode::Limit:
        return "limit";
    case ErrorCode::Cancelled:
        return "cancelled";
    case ErrorCode::Usage:
        return "usage";
    case ErrorCode::Internal:
        return "internal";
    }
    return "internal";
}

std::string Error::toString() const
{
    std::string out;
    if (!path.empty()) {
        out += path;
        if (line > 0) {
            out += ':' + std::to_string(line);
            if (column > 0)
                out += ':' + std::to_string(column);
        }
        out += ": ";
    }
    out += message;
    return out;
}

Error makeError(ErrorCode code, std::string message)
{
    return Error{code, {}, 0, 0, std::move(message)};
}

Error makeError(ErrorCode code, std::string path, std::int64_t line, std::int64_t column,
                std::string message)
{
    return Error{code, std::move(path), line, column, std::move(message)};
}

} // namespace bs
