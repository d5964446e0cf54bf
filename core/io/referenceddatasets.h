#pragma once

#include "data/project.h"
#include "util/canceltoken.h"

#include <optional>
#include <string>
#include <vector>

namespace bs::io {

/// One dataset a project references by path (a kernel trace, LLM benchmark runs, a long request
/// trace), read again with the reader and options it was saved with.
struct ReferencedLoad
{
    std::string id;                      ///< The dataset's id in the project.
    std::optional<data::Dataset> loaded; ///< Its content and provenance as read now (id kept).
    /// Why it was not read, or that the file changed since the project was saved (SHA-256):
    /// said to the user, never silent.
    std::string warning;
};

/// Reads every dataset of `project` that is not loaded and has a path; one that cannot be read
/// gets a warning naming the file and the dataset, and stays unloaded (the playbook names it as
/// missing evidence). Safe on any thread: `project` is read only.
std::vector<ReferencedLoad> loadReferencedDatasets(const data::Project& project,
                                                   const CancelToken& cancel = CancelToken());

} // namespace bs::io
