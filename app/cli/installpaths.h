#pragma once

#include <filesystem>
#include <string_view>

namespace bs::cli {

/// `share/batchscope/<name>` of the installation the running executable belongs to (its
/// folder's parent), where the packages put presets and demos; empty when the executable's
/// path cannot be read.
std::filesystem::path installedShareFolder(std::string_view name);

} // namespace bs::cli
