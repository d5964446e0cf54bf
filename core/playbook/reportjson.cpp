#include "analysis/projectregion.h"
#include "analysis/region.h"
#include "io/atomicfile.h"
#include "io/datasetjson.h"
#include "playbook/projectplaybook.h"
#include "playbook/report.h"
#include "sim/scenariojson.h"
#include "util/version.h"

#include <cmath>

namespace bs::playbook {

namespace {

constexpr int kReportVersion = 1;

nlohmann::json numberOrNull(double value)
{
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json classificationJson(const ClassificationFindings& findings)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& h : findings.ranked) {
        nlohmann::json signals = nlohmann::json::array();
        for (const auto& s : h.signals)
            signals.push_back({{"name", s.name},
                               {"weight", s.weight},
                               {"value", numberOrNull(s.value)},
                               {"evidence", s.evidence},
                               {"missing", s.available() ? "" : s.missing}});
        out.push_back({{"mechanism", mechanismName(h.mechanism)},
                       {"score", numberOrNull(h.score)},
                       {"coverage", h.coverage},
                       {"rank", h.rank},
                       {"signals", std::move(signals)},
                       {"missing_evidence", h.missing}});
    }
    return out;
}

nlohmann::json movementJson(const Movement& m)
{
    return {{"metric", m.metric},
            {"unit", m.unit},
            {"candidate", numberOrNull(m.candidate)},
            {"fixed", numberOrNull(m.fixed)},
            {"delta", numberOrNull(m.delta)},
            {"ci_low", numberOrNull(m.ciLow)},
            {"ci_high", numberOrNull(m.ciHigh)},
            {"method", m.method}};
}

nlohmann::json fixJson(const FixFindings& fix, const ReportOptions& options)
{
    nlohmann::json out = nlohmann::json::object();
    if (fix.chosen)
        out = {{"knob", fix.chosen->knob},
               {"value", fix.chosen->value},
               {"reason", fix.chosen->reason},
               {"category", fix.category},
               {"from", fix.from},
               {"user_chosen", fix.userChosen}};
    nlohmann::json movements = nlohmann::json::array();
    for (const auto& m : fix.movements)
        movements.push_back(movementJson(m));
    out["movements"] = std::move(movements);
    if (fix.reproducer) {
        out["reproducer_file"] = reproducerFileName(options.fileStem);
        out["reproducer_scenario"] = sim::scenarioToJson(*fix.reproducer);
    }
    if (fix.fixed) {
        out["fixed_file"] = fixFileName(options.fileStem);
        out["fixed_scenario"] = sim::scenarioToJson(*fix.fixed);
    }
    if (const auto& slice = fix.llmSlice)
        out["llm_slice"] = {{"file", llmSliceFileName(options.fileStem)},
                            {"first_request", slice->firstRequest + 1},
                            {"requests", slice->requests},
                            {"of_requests", slice->ofRequests},
                            {"slowest_request", slice->slowestRequest + 1},
                            {"slowest_ttft_ms", slice->slowestTtftMs},
                            {"slice_ttft_ms", slice->sliceTtftMs},
                            {"span_s", slice->spanS},
                            {"exact", slice->exact},
                            {"text", llmSliceText(*slice)}};
    return out;
}

nlohmann::json matrixJson(const MatrixFindings& matrix)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : matrix.rows)
        rows.push_back({{"area", r.area},
                        {"slice", r.slice},
                        {"metric", r.metric},
                        {"baseline", r.baseline},
                        {"candidate", r.candidate},
                        {"fixed", r.fixed},
                        {"criterion", r.criterion},
                        {"result", r.result}});
    return {{"rows", std::move(rows)},
            {"passed", matrix.passed},
            {"failed", matrix.failed},
            {"not_run", matrix.notRun},
            {"replay_identical", matrix.replayIdentical}};
}

nlohmann::json provenanceJson(const data::Project& project, const PlaybookResult& result)
{
    nlohmann::json datasets = nlohmann::json::array();
    for (const auto& d : project.datasets)
        datasets.push_back({{"id", d.id},
                            {"name", d.name},
                            {"role", data::datasetRoleName(d.role)},
                            {"kind", data::datasetKindName(d.kind)},
                            {"tags", io::toJson(d.tags)},
                            {"source", io::toJson(d.provenance)}});
    nlohmann::json seeds = nlohmann::json::array();
    if (result.fix.fixedResult)
        seeds = result.fix.fixedResult->seeds;
    return {{"datasets", std::move(datasets)},
            {"tool", {{"name", "BatchScope"}, {"version", kVersionString}}},
            {"scenario_route", result.scenarioRoute},
            {"reproducer_seed", result.fix.reproducer ? nlohmann::json(result.fix.reproducer->seed)
                                                      : nlohmann::json(nullptr)},
            {"replication_seeds", std::move(seeds)}};
}

} // namespace

nlohmann::json reportToJson(const data::Project& project, const ReportBundle& bundle,
                            const ReportOptions& options)
{
    const auto& result = bundle.result;
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& step : result.steps)
        steps.push_back(toJson(step));
    nlohmann::json pitfalls = nlohmann::json::array();
    for (const auto& p : bundle.pitfalls)
        pitfalls.push_back({{"id", p.id}, {"text", p.text}, {"steps", p.steps}});
    const auto gate = checkDecision(bundle.memo, bundle.memo.decision);
    const auto draftReasons = reportDraftReasons(bundle);
    nlohmann::json out = {
        {"format", "batchscope-report"},
        {"version", kReportVersion},
        {"draft", !draftReasons.empty()},
        {"draft_reasons", draftReasons},
        {"decision_gate",
         {{"decision", decisionName(bundle.memo.decision)},
          {"allowed", gate.allowed},
          {"message", gate.message}}},
        {"title", project.title},
        {"generated_at", options.generatedAt},
        {"memo", toJson(bundle.memo)},
        {"playbook_state", toJson(bundle.state)},
        {"steps", std::move(steps)},
        {"classification", classificationJson(result.classification)},
        {"claimed_mechanism",
         result.classification.claims()
             ? nlohmann::json(mechanismName(result.classification.ranked.front().mechanism))
             : nlohmann::json(nullptr)},
        {"no_claim", result.classification.noClaim},
        {"separating_evidence", result.classification.separating},
        {"fix", fixJson(result.fix, options)},
        {"matrix", matrixJson(result.matrix)},
        {"pitfalls", std::move(pitfalls)},
        {"curve_pack", bundle.curvePack ? analysis::toJson(*bundle.curvePack)
                                        : nlohmann::json{{"note", bundle.curvePackNote}}},
        {"provenance", provenanceJson(project, result)},
        {"notes", result.notes}};
    if (bundle.llmCurvePack)
        out["llm_curve_pack"] = llmCurvePackJson(*bundle.llmCurvePack);
    return out;
}

Expected<ReportImport> reportFromJson(const nlohmann::json& json, const std::string& path)
{
    auto fail = [&path](const std::string& message) {
        return makeError(ErrorCode::Format, path, 0, 0, "report: " + message);
    };
    // find, not value(): value() throws when "format" holds something other than text.
    const auto format = json.is_object() ? json.find("format") : json.end();
    if (!json.is_object() || format == json.end() || *format != "batchscope-report")
        return fail("not a BatchScope JSON report (\"format\" is not \"batchscope-report\")");
    const auto version = json.find("version");
    if (version == json.end() || !version->is_number_integer())
        return fail("no integer \"version\"");
    // get<int>() of 2^64-1 would be -1 and pass as an old version.
    const bool newer = version->is_number_unsigned()
                           ? version->get<std::uint64_t>() > std::uint64_t(kReportVersion)
                           : version->get<std::int64_t>() > kReportVersion;
    if (newer)
        return makeError(ErrorCode::Unsupported, path, 0, 0,
                         "report: written by a newer BatchScope (report version " +
                             version->dump() + ")");
    for (const char* key : {"memo", "playbook_state"}) {
        if (!json.contains(key) || !json[key].is_object())
            return fail(std::string("\"") + key + "\" is missing or not an object");
    }
    ReportImport out;
    auto memo = memoFromJson(json["memo"], path);
    if (!memo)
        return memo.error();
    out.memo = std::move(*memo);
    auto state = playbookStateFromJson(json["playbook_state"], path);
    if (!state)
        return state.error();
    out.state = std::move(*state);
    if (json.contains("fix") && json["fix"].is_object() &&
        json["fix"].contains("reproducer_scenario"))
        out.reproducerScenario = json["fix"]["reproducer_scenario"];
    return out;
}

Expected<ReportBundle> prepareReport(const data::Project& project, const ReportOptions& options,
                                     const PlaybookRunOptions& runOptions, Progress& progress,
                                     const CancelToken& cancel)
{
    auto stored = readStoredPlaybook(project, options.projectPath);
    if (!stored)
        return stored.error();
    auto result = runPlaybook(project, stored->state, runOptions, progress, cancel);
    if (!result)
        return result.error();
    ReportBundle bundle;
    bundle.state = stored->state;
    bundle.memo = stored->memo;
    bundle.result = std::move(*result);
    fillMemoDrafts(bundle.memo, bundle.result, reproducerFileName(options.fileStem));
    // The curve pack: the region the project's region section asks for.
    auto spec = analysis::regionSpecOfProject(project);
    if (!spec) {
        bundle.curvePackNote = spec.error().toString();
    } else if (!*spec) {
        bundle.curvePackNote =
            project.studiesOnlyAnLlmServer()
                ? "not applicable: the project studies an LLM server (its LLM curve pack follows)"
                : "the project has no scenario or no SLA (region.sla_p99_ms)";
    } else {
        analysis::RegionOptions regionOptions;
        regionOptions.threads = runOptions.threads;
        regionOptions.pool = runOptions.pool;
        auto region = analysis::computeRegion(**spec, regionOptions, progress, cancel);
        if (!region && region.error().code == ErrorCode::Cancelled)
            return region.error();
        if (region)
            bundle.curvePack = std::move(*region);
        else
            bundle.curvePackNote = region.error().toString();
    }
    auto llmPack =
        computeLlmCurvePack(project, options.projectPath, runOptions.threads, progress, cancel);
    if (!llmPack)
        return llmPack.error();
    bundle.llmCurvePack = std::move(*llmPack);
    bundle.pitfalls = bundle.result.pitfalls;
    for (auto& p : memoPitfalls(bundle.memo))
        bundle.pitfalls.push_back(std::move(p));
    bundle.document = buildReportDocument(project, bundle, options);
    bundle.json = reportToJson(project, bundle, options);
    return bundle;
}

Status writeJsonReport(const ReportBundle& bundle, const std::string& path)
{
    return io::writeFileAtomically(path, bundle.json.dump(2) + "\n", io::AtomicWriteOptions{false});
}

} // namespace bs::playbook
