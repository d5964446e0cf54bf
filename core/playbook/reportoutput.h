#pragma once

#include "data/project.h"
#include "playbook/reportdocument.h"
#include "util/expected.h"

#include <string>

namespace bs::playbook {

/// Refuses a report output file that is one of the report's inputs: the project file or a
/// dataset's file (compared as files, so links and "./" are seen through). `report P -o P` and
/// the GUI's Export Report onto the open project would otherwise replace it with the report.
/// An output that does not exist yet is always accepted.
Status refuseOverwritingInput(const std::string& output, const std::string& projectPath,
                              const data::Project& project);

/// Writes the document's attachments (the reproducer and fix scenarios, the curve pack's files)
/// into the folder of `reportPath`, each atomically. Every format whose text names these files
/// (Markdown links, the PDF's "batchscope-cli simulate <stem>-reproducer.json") calls it, so a
/// reader can run what the report tells them to run. Errors name the file.
Status writeAttachmentsBeside(const ReportDocument& document, const std::string& reportPath);

} // namespace bs::playbook
