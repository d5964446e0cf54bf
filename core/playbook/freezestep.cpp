#include "playbook/llmplaybook.h"
#include "playbook/steps.h"

#include <algorithm>
#include <array>
#include <set>

namespace bs::playbook {

namespace {

/// Every tag of two runs as (key, baseline, candidate), the fixed tags first.
std::vector<std::array<std::string, 3>> allTags(const data::RunTags& b, const data::RunTags& c)
{
    std::vector<std::array<std::string, 3>> out = {
        {"workload_seed", b.workloadSeed, c.workloadSeed},
        {"model_revision", b.modelRevision, c.modelRevision},
        {"compiler", b.compiler, c.compiler},
        {"firmware", b.firmware, c.firmware},
        {"runtime", b.runtime, c.runtime},
        {"hardware", b.hardware, c.hardware}};
    std::set<std::string> keys;
    for (const auto& [key, value] : b.extra)
        keys.insert(key);
    for (const auto& [key, value] : c.extra)
        keys.insert(key);
    for (const auto& key : keys) {
        const auto x = b.extra.find(key);
        const auto y = c.extra.find(key);
        out.push_back(
            {key, x == b.extra.end() ? "" : x->second, y == c.extra.end() ? "" : y->second});
    }
    return out;
}

const TaggedDataset* counterpart(const SideInputs& candidate, data::DatasetKind kind)
{
    for (const auto& dataset : candidate.datasets) {
        if (dataset.kind == kind)
            return &dataset;
    }
    return candidate.datasets.empty() ? nullptr : &candidate.datasets.front();
}

/// Adds the item or, when the same key with the same values is already there, notes where.
void addItem(FreezeFindings& findings, FreezeItem item)
{
    for (auto& existing : findings.items) {
        if (existing.key == item.key && existing.baseline == item.baseline &&
            existing.candidate == item.candidate) {
            if (existing.where.find(item.where) == std::string::npos)
                existing.where += ", " + item.where;
            return;
        }
    }
    findings.items.push_back(std::move(item));
}

void compareDatasets(const PlaybookContext& context, FreezeFindings& findings)
{
    const auto& inputs = context.inputs;
    for (const auto& base : inputs.baseline.datasets) {
        const auto* cand = counterpart(inputs.candidate, base.kind);
        if (!cand)
            return;
        const std::string where = base.name + " vs " + cand->name;
        // On LLM runs the run headers are compared item by item (compareLlmRuns); of the
        // datasets' tags only the ones someone recorded say anything.
        const bool llmRuns = llmPair(inputs).has_value();
        for (auto& [key, b, c] : allTags(base.tags, cand->tags)) {
            if (llmRuns && b.empty() && c.empty())
                continue;
            // Unknown on both sides is not "the same" (the run was not frozen on it), but it
            // is no evidence of a difference either.
            const bool notRecorded = b.empty() && c.empty();
            addItem(findings, {key, b, c, where, !notRecorded && b != c, notRecorded, false, {}});
        }
    }
}

void compareLlmRuns(const PlaybookContext& context, FreezeFindings& findings)
{
    const auto pair = llmPair(context.inputs);
    if (!pair)
        return;
    const auto& in = context.inputs;
    const auto* b = in.baseline.tagsOf(in.baseline.llmRunsId);
    const auto* c = in.candidate.tagsOf(in.candidate.llmRunsId);
    for (auto& item : llmFreezeItems(*pair, b ? *b : data::RunTags(), c ? *c : data::RunTags()))
        addItem(findings, std::move(item));
}

void compareScenarioSeed(const PlaybookContext& context, FreezeFindings& findings)
{
    const auto& json = context.inputs.scenarioJson;
    if (!json)
        return;
    const auto seed = json->find("seed");
    if (seed == json->end() || !seed->is_number_unsigned()) {
        findings.items.push_back(
            {"scenario_seed", "", "", "target scenario (no seed)", false, true, false, {}});
        return;
    }
    findings.scenarioSeed = std::to_string(seed->get<std::uint64_t>());
    const std::string b = context.inputs.baseline.primaryTags().workloadSeed;
    const std::string c = context.inputs.candidate.primaryTags().workloadSeed;
    for (const auto* side : {&b, &c}) {
        if (!side->empty() && *side != findings.scenarioSeed) {
            findings.items.push_back(
                {"scenario_seed",
                 b,
                 c,
                 "workload seed tags vs target scenario seed " + findings.scenarioSeed,
                 true,
                 false,
                 false,
                 {}});
            return;
        }
    }
    findings.items.push_back({"scenario_seed",
                              findings.scenarioSeed,
                              findings.scenarioSeed,
                              "target scenario",
                              false,
                              false,
                              false,
                              {}});
}

std::string statusCell(const FreezeItem& item)
{
    if (!item.needsAcceptance())
        return "same";
    if (item.accepted)
        return std::string(item.notRecorded ? "not recorded on either side, " : "") +
               "accepted: " + item.reason;
    return std::string("BLOCKER: ") + item.problem();
}

/// An acceptance counts only with a reason someone can read in the review.
bool hasReason(const AcceptedDifference& acceptance)
{
    return acceptance.reason.find_first_not_of(" \t\r\n") != std::string::npos;
}

} // namespace

const char* FreezeItem::problem() const
{
    return differs ? "differs" : notRecorded ? "not recorded on either side" : "";
}

StepResult freezeStep(const PlaybookContext& context, FreezeFindings& findings)
{
    StepResult step;
    step.number = 1;
    step.title = "Freeze workload seed, model revision and execution environment";
    const auto& inputs = context.inputs;
    if (inputs.baseline.empty() || inputs.candidate.empty()) {
        step.status = StepStatus::Blocker;
        step.summary = "Nothing to freeze: the project needs datasets with the roles baseline "
                       "and candidate.";
        step.missingEvidence.push_back(std::string("a ") +
                                       (inputs.baseline.empty() ? "baseline" : "candidate") +
                                       " dataset (set a dataset's role)");
        return step;
    }
    compareDatasets(context, findings);
    compareLlmRuns(context, findings);
    compareScenarioSeed(context, findings);
    EvidenceTable table{"Run tags, baseline vs candidate",
                        {"Tag", "Baseline", "Candidate", "Compared in", "Status"},
                        {},
                        "A tag neither side recorded is not a difference, but the runs are not "
                        "frozen on it: it blocks like one until accepted with a reason."};
    for (auto& item : findings.items) {
        if (item.needsAcceptance()) {
            const auto* acceptance = context.state.acceptance(item.key);
            if (acceptance && hasReason(*acceptance)) {
                item.accepted = true;
                item.reason = acceptance->reason;
            } else if (acceptance) {
                step.warnings.push_back("the acceptance of '" + item.key +
                                        "' has no reason, so it does not count");
            }
            findings.blockers += !item.accepted;
            findings.accepted += item.accepted;
        }
        table.rows.push_back(
            {item.key, item.baseline, item.candidate, item.where, statusCell(item)});
    }
    step.tables.push_back(std::move(table));
    step.numbers.push_back({"Blocking differences", double(findings.blockers), "", kNoValue,
                            kNoValue, "run tags and scenario seed"});
    step.numbers.push_back({"Accepted differences", double(findings.accepted), "", kNoValue,
                            kNoValue, "playbook state"});
    step.status = findings.blockers > 0 ? StepStatus::Blocker : StepStatus::Ok;
    std::string blocking;
    for (const auto& item : findings.items) {
        if (item.needsAcceptance() && !item.accepted)
            blocking += (blocking.empty() ? "" : ", ") + item.key +
                        (item.notRecorded ? " (not recorded)" : "");
    }
    step.summary =
        findings.blockers > 0
            ? std::to_string(findings.blockers) +
                  " item(s) block the comparison until accepted with a reason: " + blocking + "."
            : "Baseline and candidate are frozen: every tag matches or its "
              "difference is accepted (" +
                  std::to_string(findings.accepted) + " accepted).";
    for (const auto& name : inputs.baseline.notLoaded)
        step.warnings.push_back("baseline dataset '" + name + "' is referenced but not loaded");
    for (const auto& name : inputs.candidate.notLoaded)
        step.warnings.push_back("candidate dataset '" + name + "' is referenced but not loaded");
    return step;
}

} // namespace bs::playbook
