#pragma once

#include "analysis/regionresult.h"
#include "playbook/llmcurvepacksection.h"
#include "playbook/memo.h"
#include "playbook/playbook.h"
#include "playbook/reportdocument.h"
#include "util/htmlescape.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace bs::playbook {

struct ReportOptions
{
    /// Shown in the title block ("2026-12-02 14:05 UTC"); the caller chooses, so tests can pin
    /// it. Empty: left out.
    std::string generatedAt;
    /// Stem of the files that accompany the report ("report" → "report-reproducer.json").
    std::string fileStem = "report";
    /// The project file, named in errors about its playbook or memo section.
    std::string projectPath;
};

/// What a report is made of: the memo after auto-fill, the playbook result, the document to
/// lay out, the re-importable JSON and the files that go with it.
struct ReportBundle
{
    Memo memo;
    PlaybookState state;
    PlaybookResult result;
    std::vector<PitfallWarning> pitfalls; ///< Data and memo guards together.
    /// The project's feasible region (the curve pack); empty when the project asks for none.
    std::optional<analysis::RegionResult> curvePack;
    std::string curvePackNote; ///< Why there is no curve pack.
    /// The LLM server's curve pack (the project's `llm` section); absent when the project
    /// studies no LLM server.
    std::optional<LlmCurvePack> llmCurvePack;
    ReportDocument document;
    nlohmann::json json;
};

/// Why a report is a draft: the playbook does not conclude (a step-1 blocker not accepted with
/// a reason), or the memo's decision is one its sign-offs do not allow (checkDecision). Empty:
/// the report is final.
std::vector<std::string> reportDraftReasons(const ReportBundle& bundle);

/// Name of the reproducer / fixed scenario files for a stem.
std::string reproducerFileName(const std::string& fileStem);
std::string fixFileName(const std::string& fileStem);
/// LLM runs: the focused reproducer (LlmSlice) beside the report.
std::string llmSliceFileName(const std::string& fileStem);

/// Reads the playbook state and memo from the project (readStoredPlaybook), runs the playbook,
/// offers the drafts to the memo (user edits kept) and builds the document and JSON.
/// Errors: a bad "playbook" or "memo" section, cancellation.
Expected<ReportBundle> prepareReport(const data::Project& project, const ReportOptions& options,
                                     const PlaybookRunOptions& runOptions = {},
                                     Progress& progress = Progress::null(),
                                     const CancelToken& cancel = CancelToken());

/// The document: title block, memo, pitfall guards, the five steps with their evidence, the
/// reproducer and the provenance (dataset files with SHA-256 and reader versions, seeds, tool
/// version).
ReportDocument buildReportDocument(const data::Project& project, const ReportBundle& bundle,
                                   const ReportOptions& options);

/// The JSON report: {"format": "batchscope-report", "version": 1, "draft", "draft_reasons",
/// "decision_gate", "memo", "playbook_state", "steps", "classification", "fix" (with both
/// scenarios), "matrix", "pitfalls", "curve_pack", "provenance", "notes"}, and "llm_curve_pack"
/// when the project studies an LLM server. Complete enough to re-import the memo and the state.
nlohmann::json reportToJson(const data::Project& project, const ReportBundle& bundle,
                            const ReportOptions& options);

/// What a JSON report gives back.
struct ReportImport
{
    Memo memo;
    PlaybookState state;
    nlohmann::json reproducerScenario; ///< null when the report has none.
};
/// Reads the memo and state back from a JSON report; errors name the key.
Expected<ReportImport> reportFromJson(const nlohmann::json& json, const std::string& path = {});

/// A file produced next to the main output.
struct RenderedFile
{
    std::string name;
    std::string content;
};

struct MarkdownOutput
{
    std::string markdown;
    std::vector<RenderedFile> files; ///< Figure SVGs and attachments, to write beside it.
};

/// Markdown (CommonMark + pipe tables). Figures become "<stem>-<figure id>.svg" image links,
/// attachments are listed as links. User text is escaped: HTML-significant characters become
/// entities and Markdown specials get a backslash, so no text can inject markup.
MarkdownOutput renderMarkdown(const ReportDocument& document, const std::string& fileStem);

/// A self-contained HTML page: inline CSS, inline SVG figures, attachments as data: download
/// links and listings. No script, no external resource. Every text is HTML-escaped.
std::string renderHtml(const ReportDocument& document);

/// Writes the Markdown report and its files (same folder) atomically, one by one.
Status writeMarkdownReport(const ReportBundle& bundle, const std::string& path);
Status writeHtmlReport(const ReportBundle& bundle, const std::string& path);
Status writeJsonReport(const ReportBundle& bundle, const std::string& path);

} // namespace bs::playbook
