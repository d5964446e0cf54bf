#pragma once

#include "accel/presetlibrary.h"
#include "commandline.h"

#include <string>

namespace bs::cli {

/// The option every accelerator command accepts to add a user preset folder.
OptionSpec presetsOption();

/// The presets the CLI uses: the installed folder next to the executable
/// (../share/batchscope/presets), else the source tree's resources/presets (compiled in as a
/// path), else the presets compiled into the library; then the folder of --presets DIR, whose
/// presets replace shipped ones of the same name.
Expected<accel::PresetLibrary> cliPresetLibrary(const ParsedArgs& args);

/// "1.23 ms", "45.6 µs", "2.1 s": a duration for tables.
std::string formatSeconds(double seconds);

} // namespace bs::cli
