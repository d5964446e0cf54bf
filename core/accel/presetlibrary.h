#pragma once

#include "accel/acceleratorspec.h"
#include "accel/workloadspec.h"
#include "util/expected.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bs::accel {

enum class PresetKind
{
    Accelerator,
    Workload,
};

/// A set of accelerator and workload presets, looked up by name.
///
/// A preset folder holds `accelerators/*.json` and `workloads/*.json`, one preset per file
/// (the shapes acceleratorFromJson/workloadFromJson read, with a "sources" object naming the
/// public source of every number). Folders added later replace presets of the same name, so a
/// user's folder can refine a shipped preset. builtIn() holds the presets of
/// `resources/presets` compiled into the library, so a model can be built from preset names
/// without any file lookup. Thread contract: a const library may be shared between threads.
class PresetLibrary
{
public:
    /// The shipped presets, compiled in. Parsed once, on first use (thread-safe).
    static const PresetLibrary& builtIn();

    /// Adds every preset in `dir`/accelerators and `dir`/workloads (file name order). An error
    /// names the file; presets read before the error stay added.
    Status addFolder(const std::string& dir);
    /// Adds one preset from JSON text; `path` is shown in errors.
    Status addPreset(PresetKind kind, std::string_view jsonText, const std::string& path);

    /// The preset called `name`; an error lists the known names.
    Expected<AcceleratorSpec> accelerator(const std::string& name) const;
    Expected<WorkloadSpec> workload(const std::string& name) const;
    std::vector<std::string> acceleratorNames() const;
    std::vector<std::string> workloadNames() const;
    /// The file a preset was read from ("builtin:accelerators/h100-sxm.json" for built-ins).
    std::string pathOf(PresetKind kind, const std::string& name) const;
    /// Folders added, in order.
    const std::vector<std::string>& folders() const { return m_folders; }
    /// For builtIn(): the error met while parsing the compiled-in presets (a bug), if any.
    const std::optional<Error>& loadError() const { return m_loadError; }

private:
    Status addFiles(PresetKind kind, const std::string& dir);
    /// Parses and adds one preset; returns its name.
    Expected<std::string> parseAndAdd(PresetKind kind, std::string_view jsonText,
                                      const std::string& path);

    std::map<std::string, AcceleratorSpec> m_accelerators;
    std::map<std::string, WorkloadSpec> m_workloads;
    std::map<std::string, std::string> m_acceleratorPaths;
    std::map<std::string, std::string> m_workloadPaths;
    std::vector<std::string> m_folders;
    std::optional<Error> m_loadError;
};

} // namespace bs::accel
