#include "accelpresets.h"

#include "installpaths.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace bs::cli {

namespace fs = std::filesystem;

OptionSpec presetsOption()
{
    return {"--presets", "DIR",
            "add the presets in DIR/accelerators and DIR/workloads (they replace shipped ones of "
            "the same name)"};
}

Expected<accel::PresetLibrary> cliPresetLibrary(const ParsedArgs& args)
{
    accel::PresetLibrary library;
    std::error_code ec;
    const fs::path installed = installedShareFolder("presets");
#ifdef BATCHSCOPE_PRESETS_SOURCE_DIR
    const fs::path sourceTree = BATCHSCOPE_PRESETS_SOURCE_DIR;
#else
    const fs::path sourceTree;
#endif
    if (!installed.empty() && fs::is_directory(installed / "accelerators", ec)) {
        if (auto status = library.addFolder(installed.string()); !status)
            return status.error();
    } else if (!sourceTree.empty() && fs::is_directory(sourceTree / "accelerators", ec)) {
        if (auto status = library.addFolder(sourceTree.string()); !status)
            return status.error();
    } else {
        library = accel::PresetLibrary::builtIn();
    }
    if (const auto user = args.value("--presets")) {
        if (auto status = library.addFolder(*user); !status)
            return status.error();
    }
    return library;
}

std::string formatSeconds(double seconds)
{
    char text[32];
    if (!std::isfinite(seconds))
        return "-";
    if (std::abs(seconds) >= 1.0)
        std::snprintf(text, sizeof text, "%.3f s", seconds);
    else if (std::abs(seconds) >= 1e-3)
        std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
    else
        std::snprintf(text, sizeof text, "%.3f µs", seconds * 1e6);
    return text;
}

} // namespace bs::cli
