#pragma once

#include <cstddef>

namespace bs::accel::detail {

/// One preset file compiled into the library (generated from resources/presets by
/// core/accel/embedpresets.cmake at build time).
struct EmbeddedPreset
{
    const char* kind; ///< "accelerators", "workloads" or "models": the folder it came from.
    const char* file; ///< File name, e.g. "h100-sxm.json".
    const char* text; ///< The JSON text.
};

extern const EmbeddedPreset kEmbeddedPresets[];
extern const std::size_t kEmbeddedPresetCount;

} // namespace bs::accel::detail
