#include "playbook/playbook.h"

#include "playbook/llmplaybook.h"

namespace bs::playbook {

namespace {

void collectNotes(const PlaybookContext& context, PlaybookResult& result)
{
    result.scenarioRoute = context.scenarios.route;
    result.slaP99S = context.inputs.slaP99S;
    auto add = [&result](const std::vector<std::string>& notes) {
        result.notes.insert(result.notes.end(), notes.begin(), notes.end());
    };
    if (!context.inputs.scenarioNote.empty())
        result.notes.push_back("scenario: " + context.inputs.scenarioNote);
    if (!context.inputs.slaNote.empty())
        result.notes.push_back("SLA: " + context.inputs.slaNote);
    for (const auto* side : {&context.inputs.baseline, &context.inputs.candidate}) {
        for (const auto& aside : side->setAside)
            result.notes.push_back(side->role + " dataset '" + aside.name +
                                   "' not used: " + aside.reason);
    }
    add(context.scenarios.notes);
    if (!context.scenarios.error.empty())
        result.notes.push_back("no scenario: " + context.scenarios.error);
    if (!context.inputs.modelError.empty())
        result.notes.push_back("project model not usable: " + context.inputs.modelError);
    add(context.baseline.problems);
    add(context.candidate.problems);
    add(context.simulated.problems);
    for (const auto* side : {&context.inputs.baseline, &context.inputs.candidate}) {
        for (const auto& name : side->unused)
            result.notes.push_back(side->role + " dataset '" + name +
                                   "' not used: the playbook takes the first of each kind");
    }
}

/// Pitfall warnings also show on the steps whose claims they concern.
void attachPitfalls(PlaybookResult& result)
{
    for (const auto& pitfall : result.pitfalls) {
        for (int step : pitfall.steps) {
            if (step >= 1 && step <= 5)
                result.steps[std::size_t(step - 1)].warnings.push_back("pitfall: " + pitfall.text);
        }
    }
}

/// The step-1 items that block, as "compiler differs, firmware not recorded on either side".
std::string blockingItems(const FreezeFindings& freeze)
{
    std::string text;
    for (const auto& item : freeze.items) {
        if (item.needsAcceptance() && !item.accepted)
            text += (text.empty() ? "" : ", ") + item.key + " " + item.problem();
    }
    return text;
}

/// Until baseline and candidate are known to differ only in what is under review, any later
/// finding may be the effect of an unfrozen difference: steps 2-5 keep their evidence for
/// inspection but claim nothing.
void gateOnFreeze(PlaybookResult& result)
{
    const auto& freeze = result.steps[0];
    if (freeze.status != StepStatus::Blocker)
        return;
    const std::string items = blockingItems(result.freeze);
    result.conclusionBlocker = items.empty()
                                   ? "step 1 could not freeze the runs: " + freeze.summary
                                   : "step 1 has item(s) not accepted with a reason: " + items;
    for (std::size_t i = 1; i < result.steps.size(); ++i) {
        auto& step = result.steps[i];
        if (step.status == StepStatus::NotStarted)
            continue;
        step.status = StepStatus::Blocker;
        step.summary = "Not concluded: " + result.conclusionBlocker +
                       ". Accept each with a reason (or freeze the runs) first. Provisional, for "
                       "inspection only: " +
                       step.summary;
    }
}

} // namespace

Expected<PlaybookResult> runPlaybook(const data::Project& project, const PlaybookState& state,
                                     const PlaybookRunOptions& options, Progress& progress,
                                     const CancelToken& cancel)
{
    auto context = prepareContext(project, state, options, progress, cancel);
    if (!context)
        return context.error();
    PlaybookResult result;
    progress.setPhase("Running the playbook steps", 5);
    result.steps[0] = freezeStep(*context, result.freeze);
    result.steps[1] = locateStep(*context, result.locate);
    progress.advanceTo(2);
    result.steps[2] = classifyStep(*context, result.locate, result.classification);
    progress.advanceTo(3);
    if (const auto llm = llmPair(context->inputs))
        result.steps[3] =
            llmFixStep(*context, *llm, result.locate, result.classification, result.fix);
    else
        result.steps[3] = fixStep(*context, result.classification, result.fix);
    progress.advanceTo(4);
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "the playbook run was cancelled");
    result.steps[4] = matrixStep(*context, result.fix, result.matrix);
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "the playbook run was cancelled");
    progress.finish();
    collectNotes(*context, result);
    result.pitfalls = dataPitfalls(project, *context, result);
    attachPitfalls(result);
    gateOnFreeze(result);
    return result;
}

} // namespace bs::playbook
