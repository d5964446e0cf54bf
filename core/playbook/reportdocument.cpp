#include "data/llmrun.h"
#include "playbook/curvepacksection.h"
#include "playbook/llmcurvepacksection.h"
#include "playbook/report.h"
#include "sim/scenariojson.h"
#include "util/hostinfo.h"
#include "util/version.h"

#include <algorithm>

namespace bs::playbook {

namespace {

void collectFigures(const ReportSection& section, std::vector<const ReportFigure*>& out)
{
    for (const auto& block : section.blocks) {
        if (const auto* figure = std::get_if<ReportFigure>(&block))
            out.push_back(figure);
    }
    for (const auto& sub : section.subsections)
        collectFigures(sub, out);
}

/// The memo fields of one template section as label/value pairs, and notes for pending drafts.
void addMemoFields(const Memo& memo, const char* section, ReportSection& out)
{
    ReportKeyValues values;
    std::vector<std::string> pending;
    for (const auto& ref : memoFields()) {
        if (std::string(ref.section) != section)
            continue;
        const auto& field = memo.*(ref.field);
        values.entries.emplace_back(ref.label, field.text.empty() ? "(empty)" : field.text);
        if (field.hasPendingDraft())
            pending.push_back(std::string(ref.label) + ": " + field.draft);
    }
    out.blocks.push_back(std::move(values));
    if (!pending.empty()) {
        out.blocks.push_back(ReportParagraph{"The playbook has newer drafts for fields the "
                                             "reviewer edited (kept as edited):",
                                             ParagraphStyle::Muted});
        out.blocks.push_back(ReportList{pending, false});
    }
}

/// A sign-off as a reviewer checks it: who, what, when and why ("not given" says a decision
/// was recorded without its reason).
std::vector<std::string> ownerRow(const Owner& owner)
{
    const bool pending = owner.state == SignoffState::Pending;
    return {owner.role, owner.name.empty() ? "(unassigned)" : owner.name,
            signoffStateName(owner.state),
            owner.date.empty() ? (pending ? "" : "not recorded") : owner.date,
            owner.note.empty() ? (pending ? "" : "not given") : owner.note};
}

ReportSection memoSection(const Memo& memo)
{
    ReportSection section{"memo", "Accelerator review memo", std::nullopt, {}, {}};
    const std::pair<const char*, const char*> parts[] = {{"symptom", "1. Symptom"},
                                                         {"mechanism", "2. Mechanism hypothesis"},
                                                         {"action", "3. Proposed action"},
                                                         {"signoff", "4. Signoff"}};
    for (const auto& [key, heading] : parts) {
        ReportSection sub{std::string("memo-") + key, heading, std::nullopt, {}, {}};
        addMemoFields(memo, key, sub);
        if (std::string(key) == "signoff") {
            ReportTable owners{
                "Required owners", {"Role", "Name", "Sign-off", "Date", "Rationale"}, {}, {}, 2};
            for (const auto& owner : memo.owners)
                owners.rows.push_back(ownerRow(owner));
            sub.blocks.push_back(std::move(owners));
            sub.blocks.push_back(
                ReportKeyValues{{{"Final decision", decisionLabel(memo.decision)}}});
            if (const auto gate = checkDecision(memo, memo.decision); !gate.allowed)
                sub.blocks.push_back(ReportParagraph{gate.message, ParagraphStyle::Warning});
        }
        section.subsections.push_back(std::move(sub));
    }
    if (!memo.evidence.empty()) {
        ReportSection attached{
            "memo-evidence", "Evidence attached to the memo", std::nullopt, {}, {}};
        for (std::size_t i = 0; i < memo.evidence.size(); ++i) {
            const auto& item = memo.evidence[i];
            attached.blocks.push_back(
                ReportParagraph{item.title + (item.source.empty() ? "" : " — " + item.source),
                                ParagraphStyle::Summary});
            attached.blocks.push_back(
                ReportFigure{"memo-evidence" + std::to_string(i + 1), item.figure});
        }
        section.subsections.push_back(std::move(attached));
    }
    return section;
}

ReportSection pitfallSection(const std::vector<PitfallWarning>& pitfalls)
{
    ReportSection section{"pitfalls", "Pitfall guards", std::nullopt, {}, {}};
    if (pitfalls.empty())
        section.blocks.push_back(ReportParagraph{
            "No pitfall guard fired: the claims rest on production-shape evidence, tail "
            "percentiles and (where relevant) quality and fallback evidence.",
            ParagraphStyle::Normal});
    for (const auto& pitfall : pitfalls)
        section.blocks.push_back(ReportParagraph{pitfall.text, ParagraphStyle::Warning});
    return section;
}

int statusColumnOf(const std::vector<std::string>& columns)
{
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const auto& c = columns[i];
        if (c == "Status" || c == "Result" || c == "Verdict" || c == "Divergent")
            return int(i);
    }
    return -1;
}

ReportTable keyNumberTable(const std::vector<KeyNumber>& numbers)
{
    ReportTable table{"Key numbers", {"Quantity", "Value", "95% CI", "Source"}, {}, {}, -1};
    for (const auto& n : numbers)
        table.rows.push_back({n.label, formatValue(n.value, n.unit),
                              n.hasInterval() ? formatNumber(n.ciLow) + " to " +
                                                    formatNumber(n.ciHigh) + " " + n.unit
                                              : "",
                              n.source});
    return table;
}

/// A step's warnings, with each pitfall guard that the Pitfall guards section states in full
/// named there only by a pointer: the report says each thing once.
std::vector<ReportParagraph> stepWarnings(const StepResult& step,
                                          const std::vector<PitfallWarning>& pitfalls)
{
    std::vector<ReportParagraph> out;
    for (const auto& warning : step.warnings) {
        const auto pitfall = std::ranges::find_if(pitfalls, [&warning](const PitfallWarning& p) {
            return warning == "pitfall: " + p.text;
        });
        if (pitfall == pitfalls.end()) {
            out.push_back({warning, ParagraphStyle::Warning});
            continue;
        }
        std::string name = pitfall->id;
        std::ranges::replace(name, '_', ' ');
        out.push_back({"The pitfall guard '" + name +
                           "' concerns this step's claims (stated in Pitfall guards).",
                       ParagraphStyle::Warning});
    }
    return out;
}

ReportSection stepSection(const StepResult& step, const std::vector<PitfallWarning>& pitfalls)
{
    ReportSection section{"step-" + std::to_string(step.number),
                          "Step " + std::to_string(step.number) + ": " + step.title,
                          step.status,
                          {},
                          {}};
    section.blocks.push_back(ReportParagraph{step.summary, ParagraphStyle::Summary});
    for (auto& warning : stepWarnings(step, pitfalls))
        section.blocks.push_back(std::move(warning));
    if (!step.numbers.empty())
        section.blocks.push_back(keyNumberTable(step.numbers));
    for (const auto& t : step.tables)
        section.blocks.push_back(
            ReportTable{t.title, t.columns, t.rows, t.note, statusColumnOf(t.columns)});
    int index = 0;
    for (const auto& figure : step.figures)
        section.blocks.push_back(ReportFigure{
            "step" + std::to_string(step.number) + "-fig" + std::to_string(++index), figure});
    if (!step.missingEvidence.empty()) {
        section.blocks.push_back(ReportParagraph{
            "Missing evidence that would strengthen or decide this step:", ParagraphStyle::Normal});
        section.blocks.push_back(ReportList{step.missingEvidence, false});
    }
    return section;
}

/// JSON text with '<', '>' and '&' written as \u escapes: the same JSON value, but no user
/// text in it can read as markup wherever the text is shown (Markdown, HTML, a PDF listing).
std::string markupFreeJson(const nlohmann::json& json)
{
    std::string out;
    for (char c : json.dump(2)) {
        if (c == '<')
            out += "\\u003c";
        else if (c == '>')
            out += "\\u003e";
        else if (c == '&')
            out += "\\u0026";
        else
            out += c;
    }
    return out + "\n";
}

ReportSection reproducerSection(const PlaybookResult& result, const ReportOptions& options,
                                ReportDocument& document)
{
    ReportSection section{"reproducer", "Reproducer and fix scenarios", std::nullopt, {}, {}};
    if (result.fix.llmReproducer && result.fix.llmFixed) {
        // LLM runs: the candidate's requests replayed on its engine, as and with the change.
        const auto reproducer = reproducerFileName(options.fileStem);
        const auto fix = fixFileName(options.fileStem);
        const std::string json = markupFreeJson(*result.fix.llmReproducer);
        document.attachments.push_back(
            {reproducer, json, "the candidate's requests replayed on its engine knobs"});
        document.attachments.push_back({fix, markupFreeJson(*result.fix.llmFixed),
                                        "the LLM reproducer with the one engine knob change"});
        section.blocks.push_back(ReportParagraph{
            "The LLM reproducer replays the candidate's requests with a step time fitted on the "
            "candidate run (" +
                result.fix.llmMethod + "); run both with:",
            ParagraphStyle::Normal});
        section.blocks.push_back(ReportCode{"batchscope-cli simulate " + reproducer +
                                                " --json\nbatchscope-cli simulate " + fix +
                                                " --json",
                                            "sh", "Commands"});
        section.blocks.push_back(ReportCode{json, "json", reproducer});
        if (const auto& slice = result.fix.llmSlice) {
            const auto sliceFile = llmSliceFileName(options.fileStem);
            document.attachments.push_back({sliceFile, markupFreeJson(slice->scenario),
                                            "the focused reproducer: " + llmSliceText(*slice)});
            section.blocks.push_back(ReportParagraph{
                "Focused reproducer (" + sliceFile + "): " + llmSliceText(*slice) + ".",
                slice->exact ? ParagraphStyle::Normal : ParagraphStyle::Warning});
        }
        return section;
    }
    if (!result.fix.reproducer) {
        section.blocks.push_back(
            ReportParagraph{"No reproducer: " + result.steps[3].summary, ParagraphStyle::Warning});
        return section;
    }
    const auto reproducer = reproducerFileName(options.fileStem);
    const std::string json = markupFreeJson(sim::scenarioToJson(*result.fix.reproducer));
    document.attachments.push_back({reproducer, json,
                                    "the frozen candidate scenario (seed " +
                                        std::to_string(result.fix.reproducer->seed) + ")"});
    section.blocks.push_back(ReportParagraph{
        "The frozen scenario reproduces the candidate's behaviour under the target traffic; run "
        "it with:",
        ParagraphStyle::Normal});
    std::string commands = "batchscope-cli simulate " + reproducer + " --json";
    if (result.fix.fixed) {
        const auto fix = fixFileName(options.fileStem);
        document.attachments.push_back({fix, markupFreeJson(sim::scenarioToJson(*result.fix.fixed)),
                                        "the reproducer with the one bounded change"});
        commands += "\nbatchscope-cli simulate " + fix + " --json";
    }
    section.blocks.push_back(ReportCode{commands, "sh", "Commands"});
    section.blocks.push_back(ReportCode{json, "json", reproducer});
    return section;
}

std::string sizeText(std::uint64_t bytes)
{
    return bytes == 0 ? "" : std::to_string(bytes) + " B";
}

/// Where each input came from. Built-in demo data says so: it is not a measurement.
/// "BatchScope 0.1.0 (commit 1a2b3c4d5e6f)".
std::string toolText()
{
    return std::string("BatchScope ") + kVersionString + " (commit " + kGitCommit + ")";
}

/// Where a dataset's numbers come from: a measurement, the built-in demo's generator, or an LLM
/// run BatchScope's simulator wrote (its run record says so).
std::string originOf(const data::Dataset& d)
{
    if (data::isSynthetic(d.provenance))
        return "synthetic (built-in demo)";
    if (const auto runs = d.llmRuns(); runs && !runs->runs.empty()) {
        const auto by = data::llmKnob(runs->runs.front(), {"simulated_by"});
        if (!by.empty())
            return "simulated (" + by + ")";
    }
    return "measurement file";
}

ReportTable datasetTable(const data::Project& project)
{
    ReportTable datasets{"Input datasets",
                         {"Dataset", "Role", "Kind", "Origin", "File", "Size", "Reader"},
                         {},
                         "A dataset without a file is embedded in the project file; its SHA-256 "
                         "is of its compact JSON.",
                         -1};
    for (const auto& d : project.datasets) {
        const auto& p = d.provenance;
        datasets.rows.push_back({d.name, data::datasetRoleName(d.role),
                                 data::datasetKindName(d.kind), originOf(d),
                                 p.path.empty() ? "(embedded)" : p.path, sizeText(p.sizeBytes),
                                 p.reader + " v" + std::to_string(p.readerVersion)});
    }
    return datasets;
}

/// The SHA-256 that pins each input, in a table of its own so the 64 digits fit on a line.
ReportTable hashTable(const data::Project& project)
{
    ReportTable hashes{"SHA-256 of each input", {"Dataset", "SHA-256"}, {}, {}, -1};
    for (const auto& d : project.datasets)
        hashes.rows.push_back(
            {d.name, d.provenance.sha256.empty()
                         ? "not recorded: the project file was saved without it (save the "
                           "project again to pin this input)"
                         : d.provenance.sha256});
    return hashes;
}

/// "energy_tolerance 0.05, max_simulated_requests 100000, ...": the options as words, which
/// wrap on paper where one JSON run would not.
std::string optionsText(const nlohmann::json& options)
{
    std::string text;
    for (const auto& [key, value] : options.items())
        text += (text.empty() ? "" : ", ") + key + " " + value.dump();
    return text;
}

ReportSection provenanceSection(const data::Project& project, const PlaybookResult& result,
                                const PlaybookState& state)
{
    ReportSection section{"provenance", "Provenance", std::nullopt, {}, {}};
    section.blocks.push_back(datasetTable(project));
    section.blocks.push_back(hashTable(project));
    ReportKeyValues seeds;
    if (result.fix.reproducer) {
        seeds.entries.emplace_back("Reproducer scenario seed",
                                   std::to_string(result.fix.reproducer->seed));
        seeds.entries.emplace_back("Replications",
                                   std::to_string(result.fix.reproducer->replications));
    }
    if (result.fix.fixedResult) {
        std::string list;
        for (auto seed : result.fix.fixedResult->seeds)
            list += (list.empty() ? "" : ", ") + std::to_string(seed);
        seeds.entries.emplace_back("Replication seeds (derived from the scenario seed)", list);
    }
    seeds.entries.emplace_back("Tool", toolText());
    seeds.entries.emplace_back("Host", hostDescription());
    seeds.entries.emplace_back("Scenario route", result.scenarioRoute.empty()
                                                     ? std::string("none")
                                                     : result.scenarioRoute);
    seeds.entries.emplace_back("Playbook options", optionsText(toJson(state).at("options")));
    section.blocks.push_back(std::move(seeds));
    if (!result.notes.empty()) {
        section.blocks.push_back(ReportParagraph{"Notes:", ParagraphStyle::Muted});
        section.blocks.push_back(ReportList{result.notes, false});
    }
    return section;
}

/// The decision as the title block shows it: blocked decisions say so there, not only in the
/// sign-off section.
std::string decisionText(const Memo& memo)
{
    const auto gate = checkDecision(memo, memo.decision);
    return std::string(decisionLabel(memo.decision)) +
           (gate.allowed ? "" : " — BLOCKED: " + gate.message);
}

std::string stepStatusLine(const PlaybookResult& result)
{
    std::string text;
    for (const auto& step : result.steps)
        text += (text.empty() ? "" : " · ") + std::to_string(step.number) + " " +
                stepStatusLabel(step.status);
    return text;
}

} // namespace

std::vector<const ReportFigure*> allFigures(const ReportDocument& document)
{
    std::vector<const ReportFigure*> out;
    for (const auto& section : document.sections)
        collectFigures(section, out);
    return out;
}

std::string draftBanner(const ReportDocument& document)
{
    std::string text = "DRAFT: not for sign-off.";
    for (std::size_t i = 0; i < document.draftReasons.size(); ++i)
        text += (i == 0 ? " " : "; ") + document.draftReasons[i];
    return text + (document.isDraft() ? "." : "");
}

std::vector<std::string> reportDraftReasons(const ReportBundle& bundle)
{
    std::vector<std::string> reasons;
    if (!bundle.result.concluded())
        reasons.push_back("the playbook does not conclude, because " +
                          bundle.result.conclusionBlocker);
    if (const auto gate = checkDecision(bundle.memo, bundle.memo.decision); !gate.allowed)
        reasons.push_back(gate.message);
    return reasons;
}

std::string reproducerFileName(const std::string& fileStem)
{
    return fileStem + "-reproducer.json";
}

std::string fixFileName(const std::string& fileStem)
{
    return fileStem + "-fix.json";
}

std::string llmSliceFileName(const std::string& fileStem)
{
    return fileStem + "-slice.json";
}

ReportDocument buildReportDocument(const data::Project& project, const ReportBundle& bundle,
                                   const ReportOptions& options)
{
    ReportDocument document;
    document.draftReasons = reportDraftReasons(bundle);
    document.title = std::string(document.isDraft() ? "DRAFT — " : "") + "Accelerator review: " +
                     (project.title.empty() ? "untitled project" : project.title);
    document.subtitle = "Scheduling & Workload Mapping / Batch Size Effects";
    document.titleBlock = {{"Project", project.title},
                           {"Decision", decisionText(bundle.memo)},
                           {"Playbook steps", stepStatusLine(bundle.result)},
                           {"Generated by", toolText()}};
    if (!options.generatedAt.empty())
        document.titleBlock.emplace_back("Generated at", options.generatedAt);
    document.sections.push_back(memoSection(bundle.memo));
    document.sections.push_back(pitfallSection(bundle.pitfalls));
    ReportSection playbook{"playbook", "Debug playbook", std::nullopt, {}, {}};
    for (const auto& step : bundle.result.steps)
        playbook.subsections.push_back(stepSection(step, bundle.pitfalls));
    document.sections.push_back(std::move(playbook));
    document.sections.push_back(curvePackSection(bundle.curvePack, bundle.curvePackNote,
                                                 options.fileStem, document.attachments));
    if (bundle.llmCurvePack)
        document.sections.push_back(
            llmCurvePackSection(*bundle.llmCurvePack, options.fileStem, document.attachments));
    document.sections.push_back(reproducerSection(bundle.result, options, document));
    document.sections.push_back(provenanceSection(project, bundle.result, bundle.state));
    return document;
}

} // namespace bs::playbook
