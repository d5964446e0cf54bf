#pragma once

#include "data/project.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bs::io {

struct ProjectSaveOptions
{
    /// gzip the file. Auto (the default) compresses projects whose JSON exceeds 4 MiB.
    enum class Compression
    {
        Auto,
        Never,
        Always
    } compression = Compression::Auto;
    bool keepBackup = true;
};

/// Request traces up to this many rows are embedded in the project; larger ones, and all kernel
/// traces, are referenced by path, size and SHA-256 and read again when the project opens.
inline constexpr std::size_t kEmbedRequestTraceRowLimit = 200000;

/// The project as the JSON document written to disk (schema 1).
nlohmann::json projectToJson(const data::Project& project, const std::string& projectPath = {});

/// Reads a project document. Referenced datasets come back not loaded (content monostate) with
/// their provenance; the caller reloads them with the reader named there. `path` is used in
/// errors and to resolve paths relative to the project folder.
Expected<data::Project> projectFromJson(const nlohmann::json& json, const std::string& path);

/// Opens a .bsproj (plain or gzip JSON). A newer schema, a corrupt file or a wrong shape is an
/// error naming the file and the reason.
Expected<data::Project> loadProject(const std::string& path);
/// Same, from bytes in memory (embedded demo project, fuzzing).
Expected<data::Project> loadProjectFromBytes(std::string bytes, const std::string& name);

/// Saves atomically (see writeFileAtomically); the previous version is kept as "<path>.bak".
Status saveProject(const data::Project& project, const std::string& path,
                   const ProjectSaveOptions& options = {});

} // namespace bs::io
