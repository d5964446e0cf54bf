// `batchscope-cli demo`: the built-in demo projects written to a folder, ready for `report`,
// `region` and the workbench, built exactly as File > Open Demo builds them.
#include "analysis/llmdemoreview.h"
#include "commands.h"
#include "installpaths.h"
#include "io/llmdemo.h"
#include "io/projectfile.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace bs::cli {

namespace {

namespace fs = std::filesystem;

/// The folder the demo projects are installed in, or the source tree's when run from a build.
fs::path demoFolder()
{
    std::error_code ec;
    const fs::path installed = installedShareFolder("demo");
    if (!installed.empty() && fs::is_regular_file(installed / "demo.bsproj", ec))
        return installed;
#ifdef BATCHSCOPE_DEMO_SOURCE_DIR
    return BATCHSCOPE_DEMO_SOURCE_DIR;
#else
    return installed;
#endif
}

Expected<data::Project> loadDemo(const std::string& fileName)
{
    const fs::path path = demoFolder() / fileName;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return makeError(ErrorCode::Io, "the built-in demo " + fileName +
                                            " is not installed (looked in " +
                                            path.parent_path().string() + ")");
    return io::loadProject(path.string());
}

int runDemo(const ParsedArgs& rawArgs, CliIo& io)
{
    auto parsed = withShortOutput(rawArgs);
    if (!parsed)
        return reportError(parsed.error(), rawArgs, io);
    const ParsedArgs& args = *parsed;
    const auto usage = [&] {
        return reportError(makeError(ErrorCode::Usage,
                                     "usage: batchscope-cli demo batch|llm -o DIR [--shared-data "
                                     "DIR]"),
                           args, io);
    };
    if (args.positionals.size() != 1 || !args.value("--output"))
        return usage();
    const std::string& which = args.positionals[0];
    if (which != "batch" && which != "llm")
        return usage();
    const fs::path folder = *args.value("--output");
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec)
        return reportError(makeError(ErrorCode::Io, folder.string() +
                                                        ": cannot create the "
                                                        "folder: " +
                                                        ec.message()),
                           args, io);
    const std::string fileName = which == "llm" ? "llm-demo.bsproj" : "demo.bsproj";
    auto project = loadDemo(fileName);
    if (!project)
        return reportError(project.error(), args, io);
    std::vector<std::string> notes;
    if (which == "llm") {
        // As the workbench opens it: the public run when the shared data has it, then the
        // review's baseline and candidate simulated beside the project.
        notes.push_back(io::attachLlmDemoRun(
                            *project, args.value("--shared-data").value_or(io::sharedDataDir()))
                            .note);
        auto review = analysis::attachLlmDemoReview(*project, (folder / "llm-demo-runs").string());
        if (!review)
            return reportError(review.error(), args, io);
        notes.push_back(review->note);
    }
    const fs::path written = folder / fileName;
    if (auto saved = io::saveProject(*project, written.string()); !saved)
        return reportError(saved.error(), args, io);
    if (args.json()) {
        io.out << nlohmann::json{{"project", written.string()}, {"notes", notes}}.dump(2) << '\n';
        return kExitOk;
    }
    io.out << "Wrote " << written.string() << "\n";
    for (const auto& note : notes)
        io.out << "  " << note << "\n";
    io.out << "Next: batchscope-cli report " << written.string() << " -o review.pdf\n";
    return kExitOk;
}

} // namespace

CommandSpec demoCommand()
{
    return {"demo",
            "demo batch|llm -o DIR",
            "Write a built-in demo project to a folder, as the workbench opens it.",
            "batch: the batching demo (its runs are stored in the project).\n"
            "llm: the LLM server demo. When the shared data folder has the public vLLM run, it\n"
            "becomes a dataset and the scenario replays its real requests; otherwise the\n"
            "scenario draws requests fitted to it. The playbook's baseline and candidate\n"
            "(max_num_batched_tokens 2048 and 8192) are simulated into DIR/llm-demo-runs as\n"
            "engine request logs marked simulated, not measured.",
            {{"--output", "DIR", "folder to write the project (and its runs) into; -o"},
             {"--shared-data", "DIR",
              "where the public measurements are (default: $BATCHSCOPE_SHARED_DATA, then the "
              "folder beside the source tree)"}},
            &runDemo};
}

} // namespace bs::cli
