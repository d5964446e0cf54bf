#include "io/siblingfile.h"

#include <filesystem>

namespace bs::io {

std::string siblingFile(const ReaderContext& context, const char* name)
{
    if (context.directory.empty())
        return {};
    const auto path = std::filesystem::path(context.directory) / name;
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec) ? path.string() : std::string();
}

Error siblingError(const std::string& opened, const Error& inSibling, const std::string& what,
                   const std::string& withoutIt)
{
    Error where = inSibling;
    where.path = std::filesystem::path(inSibling.path).filename().string();
    return makeError(inSibling.code, opened, 0, 0,
                     "cannot join the " + what + " beside it: " + where.toString() + " (" +
                         withoutIt + ")");
}

} // namespace bs::io
