#include "commands.h"
#include "io/projectfile.h"
#include "projectsummary.h"

#include <nlohmann/json.hpp>

namespace bs::cli {

namespace {

int runProject(const ParsedArgs& args, CliIo& io)
{
    if (args.positionals.size() != 2 || args.positionals[0] != "info") {
        return reportError(
            makeError(ErrorCode::Usage, "usage: batchscope-cli project info FILE.bsproj"), args,
            io);
    }
    const std::string& path = args.positionals[1];
    auto project = io::loadProject(path);
    if (!project)
        return reportError(project.error(), args, io);
    const nlohmann::json summary = summarizeProject(*project, path);
    if (args.json())
        io.out << summary.dump(2) << '\n';
    else
        io.out << formatProjectSummary(summary);
    return kExitOk;
}

} // namespace

CommandSpec projectCommand()
{
    return {
        "project",
        "project info FILE.bsproj",
        "Show what a project holds: datasets with provenance, scenarios, model, memo.",
        "A project is JSON (optionally gzip) with \"schema\": 1. Referenced datasets are listed\n"
        "with the path, size and SHA-256 they were saved with.",
        {},
        &runProject};
}

} // namespace bs::cli
