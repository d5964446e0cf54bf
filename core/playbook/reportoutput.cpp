#include "playbook/reportoutput.h"

#include "io/atomicfile.h"

#include <filesystem>

namespace bs::playbook {

Status refuseOverwritingInput(const std::string& output, const std::string& projectPath,
                              const data::Project& project)
{
    std::error_code ec;
    if (!std::filesystem::exists(output, ec))
        return {};
    auto same = [&output](const std::string& input) {
        std::error_code error;
        return !input.empty() && std::filesystem::equivalent(output, input, error);
    };
    if (same(projectPath))
        return makeError(ErrorCode::Usage, output, 0, 0,
                         "is the project being reported on; the report would replace it (choose "
                         "another output file)");
    for (const auto& dataset : project.datasets) {
        if (same(dataset.provenance.path))
            return makeError(ErrorCode::Usage, output, 0, 0,
                             "is the file of dataset '" + dataset.name +
                                 "'; the report would replace it (choose another output file)");
    }
    return {};
}

Status writeAttachmentsBeside(const ReportDocument& document, const std::string& reportPath)
{
    const auto folder = std::filesystem::path(reportPath).parent_path();
    for (const auto& attachment : document.attachments) {
        if (auto status =
                io::writeFileAtomically((folder / attachment.fileName).string(), attachment.content,
                                        io::AtomicWriteOptions{false});
            !status)
            return status;
    }
    return {};
}

} // namespace bs::playbook
