#pragma once

#include "data/project.h"
#include "util/expected.h"

#include <string>

namespace bs::playbook {

/// Refuses a report output file that is one of the report's inputs: the project file or a
/// dataset's file (compared as files, so links and "./" are seen through). `report P -o P` and
/// the GUI's Export Report onto the open project would otherwise replace it with the report.
/// An output that does not exist yet is always accepted.
Status refuseOverwritingInput(const std::string& output, const std::string& projectPath,
                              const data::Project& project);

} // namespace bs::playbook
