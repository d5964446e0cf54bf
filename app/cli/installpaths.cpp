#include "installpaths.h"

namespace bs::cli {

std::filesystem::path installedShareFolder(std::string_view name)
{
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        return {};
    return exe.parent_path().parent_path() / "share" / "batchscope" / name;
}

} // namespace bs::cli
