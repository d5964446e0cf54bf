#include "commands.h"
#include "io/projectfile.h"
#include "io/readdataset.h"
#include "io/referenceddatasets.h"
#include "playbook/report.h"
#include "playbook/reportoutput.h"
#include "renderhooks.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>

namespace bs::cli {

namespace {

using ReportWriter = std::function<Status(const playbook::ReportBundle&, const std::string&)>;

/// One output format of `report`. Adding a format is adding a row here.
struct ReportFormat
{
    std::string name;
    std::string description;
    ReportWriter write;
};

Status writePdf(const playbook::ReportBundle& bundle, const std::string& path)
{
    const auto& hooks = renderHooks();
    if (!hooks.writePdf)
        return makeError(ErrorCode::Unsupported, path, 0, 0,
                         "PDF output needs Qt's PDF writer, which this build of batchscope-cli "
                         "does not include; use --format html (self-contained, printable) or md");
    return hooks.writePdf(bundle.document, path);
}

const std::vector<ReportFormat>& reportFormats()
{
    static const std::vector<ReportFormat> formats = {
        {"md", "Markdown, with the SVG figures and the reproducer scenario beside it",
         &playbook::writeMarkdownReport},
        {"html", "self-contained HTML (inline SVG figures, embedded reproducer)",
         &playbook::writeHtmlReport},
        {"json", "JSON with memo, playbook state and evidence (re-importable)",
         &playbook::writeJsonReport},
        {"pdf", "PDF through Qt's PDF writer (vector charts, page numbers)", &writePdf},
    };
    return formats;
}

std::string formatNames()
{
    std::string names;
    for (const auto& f : reportFormats())
        names += (names.empty() ? "" : "|") + f.name;
    return names;
}

/// --format, or the output file's extension.
Expected<const ReportFormat*> chooseFormat(const ParsedArgs& args, const std::string& output)
{
    std::string name = args.value("--format").value_or("");
    if (name.empty()) {
        name = std::filesystem::path(output).extension().string();
        if (!name.empty())
            name.erase(0, 1);
        if (name == "markdown" || name == "htm")
            name = name == "htm" ? "html" : "md";
    }
    for (const auto& format : reportFormats()) {
        if (format.name == name)
            return &format;
    }
    return makeError(ErrorCode::Usage,
                     "--format: '" + name + "' is not a report format (" + formatNames() + ")");
}

/// Reads the datasets the project references by path (large traces), with the reader and
/// options they were saved with. One that cannot be read stays unloaded: the playbook names
/// it as missing evidence.
void loadReferencedDatasets(data::Project& project, CliIo& io)
{
    for (auto& load : io::loadReferencedDatasets(project)) {
        if (!load.warning.empty())
            io.err << "warning: " << load.warning << "\n";
        if (!load.loaded)
            continue;
        for (auto& dataset : project.datasets)
            if (dataset.id == load.id)
                dataset.content = load.loaded->content;
    }
}

/// "2026-12-02 14:05 UTC"; SOURCE_DATE_EPOCH (reproducible builds) pins it.
std::string generationTime()
{
    std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"))
        now = std::time_t(std::strtoll(epoch, nullptr, 10));
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &utc);
    return text;
}

nlohmann::json outcomeJson(const playbook::ReportBundle& bundle, const std::string& output,
                           const std::string& format)
{
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& step : bundle.result.steps)
        steps.push_back({{"number", step.number},
                         {"title", step.title},
                         {"status", playbook::stepStatusName(step.status)},
                         {"summary", step.summary}});
    nlohmann::json pitfalls = nlohmann::json::array();
    for (const auto& p : bundle.pitfalls)
        pitfalls.push_back({{"id", p.id}, {"text", p.text}});
    const auto& ranked = bundle.result.classification.ranked;
    return {{"output", output},
            {"format", format},
            {"draft", bundle.document.isDraft()},
            {"draft_reasons", bundle.document.draftReasons},
            {"steps", std::move(steps)},
            {"mechanism", bundle.result.classification.claims()
                              ? playbook::mechanismName(ranked.front().mechanism)
                              : ""},
            {"pitfalls", std::move(pitfalls)}};
}

void printOutcome(const nlohmann::json& outcome, std::ostream& out)
{
    out << "Wrote " << outcome["output"].get<std::string>() << " ("
        << outcome["format"].get<std::string>() << ")\n";
    for (const auto& step : outcome["steps"])
        out << "  step " << step["number"].get<int>() << " [" << step["status"].get<std::string>()
            << "] " << step["summary"].get<std::string>() << "\n";
    if (!outcome["mechanism"].get<std::string>().empty())
        out << "Leading mechanism: " << outcome["mechanism"].get<std::string>() << "\n";
    for (const auto& p : outcome["pitfalls"])
        out << "Pitfall: " << p["text"].get<std::string>() << "\n";
    for (const auto& reason : outcome["draft_reasons"])
        out << "DRAFT: " << reason.get<std::string>() << "\n";
}

int runReport(const ParsedArgs& rawArgs, CliIo& io)
{
    auto parsed = withShortOutput(rawArgs);
    if (!parsed)
        return reportError(parsed.error(), rawArgs, io);
    const ParsedArgs& args = *parsed;
    const auto output = args.value("--output");
    if (args.positionals.size() != 1 || !output || output->empty())
        return reportError(
            makeError(ErrorCode::Usage, "usage: batchscope-cli report PROJECT.bsproj --format " +
                                            formatNames() + " -o FILE"),
            args, io);
    auto format = chooseFormat(args, *output);
    if (!format)
        return reportError(format.error(), args, io);
    const std::string& path = args.positionals[0];
    auto project = io::loadProject(path);
    if (!project)
        return reportError(project.error(), args, io);
    if (auto status = playbook::refuseOverwritingInput(*output, path, *project); !status)
        return reportError(status.error(), args, io);
    loadReferencedDatasets(*project, io);

    playbook::ReportOptions options;
    options.generatedAt = generationTime();
    options.fileStem = std::filesystem::path(*output).stem().string();
    options.projectPath = path;
    auto bundle = playbook::prepareReport(*project, options);
    if (!bundle)
        return reportError(bundle.error(), args, io);
    if (auto status = (*format)->write(*bundle, *output); !status)
        return reportError(status.error(), args, io);
    const auto outcome = outcomeJson(*bundle, *output, (*format)->name);
    if (args.json())
        io.out << outcome.dump(2) << '\n';
    else
        printOutcome(outcome, io.out);
    // The draft is written (it is marked on every page), but a script must not mistake it for
    // a final report.
    if (bundle->document.isDraft() && !args.has("--allow-draft")) {
        io.err << "error: " << *output << " is a DRAFT: " << playbook::draftBanner(bundle->document)
               << " (pass --allow-draft to accept a draft)\n";
        return kExitDraft;
    }
    return kExitOk;
}

std::string formatHelp()
{
    std::string text;
    for (const auto& f : reportFormats())
        text += "  " + f.name + std::string(6 - std::min<std::size_t>(5, f.name.size()), ' ') +
                f.description + "\n";
    return text;
}

} // namespace

CommandSpec reportCommand()
{
    return {"report",
            "report PROJECT.bsproj --format md|html|json|pdf -o FILE",
            "Run the debug playbook on a project and write the review memo report.",
            "Runs the five playbook steps on the project's baseline and candidate datasets and "
            "target\nscenario, fills the memo's drafts (fields the user edited are kept), and "
            "writes the report:\nthe memo, the steps with their evidence tables and figures, "
            "the reproducer scenario and\nthe provenance (files with SHA-256, reader versions, "
            "seeds, tool version).\nFormats (default: from the output file's extension):\n" +
                formatHelp() +
                "Referenced datasets are read again from their paths; one that cannot be read is "
                "left out\nwith a warning. SOURCE_DATE_EPOCH pins the generation time.\n"
                "A report is a DRAFT (marked on every page) while a step-1 blocker is not "
                "accepted with a\nreason, or while the memo's decision is one its sign-offs "
                "do not allow; the draft is\nwritten and the exit code is 3 unless "
                "--allow-draft is given.",
            {{"--format", "FORMAT", "output format: " + formatNames()},
             {"--output", "FILE", "the report file to write (short: -o FILE)"},
             {"--allow-draft", {}, "exit 0 even when the report is a DRAFT"}},
            &runReport};
}

} // namespace bs::cli
