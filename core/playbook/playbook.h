#pragma once

#include "data/project.h"
#include "playbook/memo.h"
#include "playbook/steps.h"

#include <array>
#include <string>
#include <vector>

namespace bs::playbook {

/// A pitfall the review warns about (shown in the wizard, the memo and the report).
struct PitfallWarning
{
    /// "synthetic_only", "average_latency", "insufficient_tail_samples",
    /// "precision_without_fallback".
    std::string id;
    std::string text;
    std::vector<int> steps; ///< The steps whose claims it concerns.
};

/// Everything one run of the playbook found.
struct PlaybookResult
{
    std::array<StepResult, 5> steps;
    FreezeFindings freeze;
    LocateFindings locate;
    ClassificationFindings classification;
    FixFindings fix;
    MatrixFindings matrix;
    std::vector<PitfallWarning> pitfalls;
    std::string scenarioRoute;      ///< How baseline and candidate scenarios were built.
    std::vector<std::string> notes; ///< Scenario changes and analyses that failed.
    std::optional<double> slaP99S;
    /// Why steps 2-5 do not conclude (a step-1 blocker: an item not accepted with a reason, or
    /// nothing to freeze); empty when their conclusions stand. Their evidence is still shown.
    std::string conclusionBlocker;

    bool concluded() const { return conclusionBlocker.empty(); }
};

/// Runs the five steps on a project with the user's state. Only cancellation is an error;
/// missing data makes steps report missing evidence, warnings or blockers. A step-1 blocker
/// makes every later step that ran a blocker too (conclusionBlocker says why).
/// Cost: the trace analyses plus a few dozen simulations of the target scenario (capped at
/// state.options.maxSimulatedRequests requests per replication).
Expected<PlaybookResult> runPlaybook(const data::Project& project, const PlaybookState& state,
                                     const PlaybookRunOptions& options = {},
                                     Progress& progress = Progress::null(),
                                     const CancelToken& cancel = CancelToken());

/// The data-level pitfall guards: claims resting on synthetic data only (no request or kernel
/// trace, no replayed traffic, no recorded production validation), latency reported as means
/// without p95/p99 or with too few samples for its p99, and a precision or sparsity win without
/// quality and fallback evidence.
std::vector<PitfallWarning> dataPitfalls(const data::Project& project,
                                         const PlaybookContext& context,
                                         const PlaybookResult& result);

/// The memo-level guard: a memo field that states latency as an average or mean without
/// naming p95/p99.
std::vector<PitfallWarning> memoPitfalls(const Memo& memo);

/// Offers drafts for every memo field from the result (MemoField::offerDraft: a field the user
/// edited keeps its text and shows the draft as pending), including the answer to the senior
/// review question. `reproducerFile` is how the report names the reproducer scenario file.
void fillMemoDrafts(Memo& memo, const PlaybookResult& result,
                    const std::string& reproducerFile = "reproducer.json");

} // namespace bs::playbook
