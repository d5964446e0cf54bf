#pragma once

#include "playbook/comparison.h"
#include "playbook/evidence.h"
#include "playbook/llmslice.h"
#include "playbook/playbookcontext.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bs::playbook {

// ---- Step 1: freeze -----------------------------------------------------------------------

/// One compared item of step 1: a run tag (or the scenario seed) on both sides.
struct FreezeItem
{
    std::string key;
    std::string baseline;
    std::string candidate;
    std::string where; ///< Which datasets were compared ("sweep", "scenario").
    /// Both sides recorded the item and the values differ.
    bool differs = false;
    /// Neither side recorded it: nothing says the runs match, but nothing says they differ.
    bool notRecorded = false;
    bool accepted = false;
    std::string reason; ///< The acceptance reason (never blank when accepted).

    /// A difference or an unrecorded item: the runs are not frozen on it until it is accepted.
    bool needsAcceptance() const { return differs || notRecorded; }
    /// "differs" or "not recorded on either side" (for summaries); "" when the item matches.
    const char* problem() const;
};

struct FreezeFindings
{
    std::vector<FreezeItem> items;
    int blockers = 0; ///< Items that need an acceptance and have none with a reason.
    int accepted = 0;
    std::string scenarioSeed; ///< Of the target scenario, when there is one.
};

/// Step 1: compares the run tags of every baseline dataset with the candidate dataset of the
/// same kind (or the first candidate dataset) and the scenario seed with the workload seed
/// tags. Every difference, and every tag neither side recorded, is a blocker unless the state
/// accepts it with a reason (a blank reason is no acceptance).
StepResult freezeStep(const PlaybookContext& context, FreezeFindings& findings);

// ---- Step 2: locate -----------------------------------------------------------------------

/// The stages of the scheduling pipeline, in the order a batch passes them. Batch inference
/// passes compile plan → runtime queue → core placement → completion and tail; an LLM request
/// passes admission queue → scheduler step → KV cache → decode iterations → completion and
/// tail. Completion and tail ends both, so sorting by value gives pipeline order for either.
enum class Stage
{
    CompilePlan,
    RuntimeQueue,
    CorePlacement,
    AdmissionQueue,
    SchedulerStep,
    KvCache,
    DecodeIterations,
    CompletionTail,
};
inline constexpr int kStageCount = 8;
/// The stages of one pipeline, in order (`llm`: the LLM serving pipeline).
std::vector<Stage> pipelineStages(bool llm);
const char* stageName(Stage stage); ///< "compile plan", "runtime queue", ...

struct StageSlice
{
    std::string label; ///< "batch 64", "window 3 (t = 120 s)", "steps 1-5".
    Delta delta;
};

/// One metric of a stage, baseline against candidate, overall and per slice.
struct StageMetric
{
    Stage stage = Stage::CompletionTail;
    std::string metric;       ///< "p99 latency", "queue wait p99", "kernels per step".
    std::string unit;         ///< Display unit of the values ("ms", "inferences/s").
    std::string source;       ///< "sweeps", "request traces", "kernel traces", "simulation".
    std::string overallLabel; ///< Which slice "overall" stands for.
    Delta overall;
    std::vector<StageSlice> slices;
    Persistence persistence;
    bool higherIsWorse = true; ///< Latency, waits: yes; throughput: no.

    bool divergent() const { return overall.significant || persistence.significant > 0; }
};

struct LocateFindings
{
    std::vector<StageMetric> metrics;
    std::optional<Stage> firstPersistentStage;
    int firstMetric = -1; ///< Index of the metric that makes it persistent.
    int tailMetric = -1;  ///< The p99 latency metric (the symptom), -1 when none.
    bool measured[kStageCount] = {};
    /// The LLM serving pipeline (both sides hold LLM runs) rather than batch inference.
    bool llm = false;
    /// Batch sizes whose tail latency or throughput diverged (sweeps), increasing.
    std::vector<int> divergentBatches;
    /// Queue wait p99 change over latency p99 change (same source), when both diverge upward.
    double queueShareOfTailChange = analysis::kNaN;
    /// The failing metrics, described ("p99 latency +3.2 ms at batch 64 [sweeps]"): an alarm
    /// metric of the completion stage (p99, throughput, energy per inference) that diverges in
    /// the worse direction, or the candidate's simulated p99 over the SLA. Empty: nothing
    /// fails, so there is no symptom for a mechanism to explain.
    std::vector<std::string> failing;
};

/// Step 2: the per-stage metric deltas with intervals, tail first; the first stage along
/// compile plan → runtime queue → core placement → completion and tail whose divergence
/// persists across batch sizes or time windows.
StepResult locateStep(const PlaybookContext& context, LocateFindings& findings);

// ---- Step 3: classify ----------------------------------------------------------------------

enum class Mechanism
{
    Compute,
    Memory,
    Scheduling,
    Precision,
    Thermal,
};
inline constexpr int kMechanismCount = 5;
const char* mechanismName(Mechanism mechanism);  ///< "compute", "memory", ...
const char* mechanismLabel(Mechanism mechanism); ///< "Compute-bound", ...

/// One piece of evidence for a hypothesis: a value in [0, 1] (how strongly it supports it), or
/// NaN when the data it needs is absent (then `missing` names that data).
struct Signal
{
    std::string name;
    double weight = 1.0;
    double value = analysis::kNaN;
    std::string evidence;
    std::string missing;

    bool available() const;
};

struct Hypothesis
{
    Mechanism mechanism = Mechanism::Compute;
    std::vector<Signal> signals;
    /// Weighted mean of the available signals; NaN when none is available.
    double score = analysis::kNaN;
    /// Available weight / total weight: how much of the evidence this hypothesis could use
    /// was there.
    double coverage = 0.0;
    /// Used for ranking: score × (0.5 + 0.5·coverage), so a hypothesis resting on half its
    /// evidence ranks below an equally strong one resting on all of it. 0 when not assessed.
    double rank = 0.0;
    std::vector<std::string> missing;
};

struct ClassificationFindings
{
    std::vector<Hypothesis> ranked; ///< Best first.
    /// The evidence that would separate the top two hypotheses.
    std::vector<std::string> separating;
    /// The top one is strong (rank ≥ 0.5), clear of the second (by ≥ 0.15) and rests on at
    /// least 40% of the evidence it could use.
    bool decided = false;
    /// Why no mechanism is claimed (nothing fails, or nothing could be assessed); the ranking is
    /// still shown, but no step acts on it. Empty when the top hypothesis is the claim.
    std::string noClaim;

    /// The top hypothesis is claimed (decided or as the leading hypothesis).
    bool claims() const { return noClaim.empty() && !ranked.empty(); }
};

/// Step 3: scores each mechanism from the step 2 findings, the model and the traces. Without a
/// failing metric (step 2, or quality outside its tolerance) no mechanism is claimed.
StepResult classifyStep(const PlaybookContext& context, const LocateFindings& locate,
                        ClassificationFindings& findings);

// ---- Step 4: reproducer and one bounded fix ---------------------------------------------------

/// The predicted change of one alarm metric, fixed minus candidate, with a 95% interval.
struct Movement
{
    std::string metric; ///< "throughput", "p99 latency", "perf per watt".
    std::string unit;
    double candidate = analysis::kNaN;
    double fixed = analysis::kNaN;
    double delta = analysis::kNaN;
    double ciLow = analysis::kNaN;
    double ciHigh = analysis::kNaN;
    std::string method;
};

/// One change the playbook simulated.
struct FixTrial
{
    FixChoice choice;
    std::string category; ///< knobCategory().
    std::string from;     ///< The knob's current value, as text.
    std::vector<Movement> movements;
    bool stable = false;
    bool improves = false;    ///< p99 falls significantly without throughput or energy regress.
    bool meetsTarget = false; ///< p99 at or under the SLA (else the baseline's p99 + tolerance).
    std::string error;
};

struct FixFindings
{
    std::optional<FixChoice> chosen;
    std::string category;
    std::string from;
    bool userChosen = false;
    std::vector<FixTrial> trials;
    std::vector<Movement> movements;         ///< Of the chosen fix.
    std::optional<sim::Scenario> reproducer; ///< The candidate scenario, frozen.
    /// LLM runs: the candidate's requests replayed on its engine knobs with a step time fitted
    /// on the candidate run, and the same with the one change (empty when not simulatable).
    std::optional<nlohmann::json> llmReproducer, llmFixed;
    /// LLM runs: the focused reproducer, the busy period of the reproducer's replay that holds
    /// its slowest first token (empty when the replay did not run).
    std::optional<LlmSlice> llmSlice;
    std::string llmMethod;              ///< How the LLM movement was obtained, or why it was not.
    std::optional<sim::Scenario> fixed; ///< The reproducer with the one change.
    std::optional<sim::Result> fixedResult;
    /// Thermal side of the regression risk: mean power and peak temperature (accelerator
    /// model services) of the candidate and of the fix, when the simulation has them.
    std::optional<sim::Estimate> candidatePowerW, fixedPowerW;
    std::optional<sim::Estimate> candidatePeakC, fixedPeakC;
};

/// Step 4: picks exactly one change (the user's, or among a few bounded changes suited to the
/// leading mechanism the smallest that brings p99 to its target without regressions, see
/// trial grades in fixstep.cpp), writes the reproducer and predicts the movement of
/// throughput, p99 and perf per watt with intervals from paired replications.
StepResult fixStep(const PlaybookContext& context, const ClassificationFindings& classification,
                   FixFindings& findings);

// ---- Step 5: the matrix -------------------------------------------------------------------

struct MatrixRow
{
    std::string area;  ///< "correctness", "quality", "performance".
    std::string slice; ///< "reproducer replay", "traffic ×0.5, max batch 32", ...
    std::string metric;
    std::string baseline, candidate, fixed; ///< Formatted values ("" when not applicable).
    std::string criterion;
    std::string result; ///< "pass", "fail", "not run".
};

struct MatrixFindings
{
    std::vector<MatrixRow> rows;
    int passed = 0;
    int failed = 0;
    int notRun = 0;
    bool replayIdentical = false;
};

/// Step 5: correctness (the reproducer and the fix replay bit-identically: each is simulated
/// twice, with different thread counts, and the JSON results compared), quality (the user's
/// precision delta within its tolerance), performance (throughput, p99, energy per inference
/// for baseline, candidate and fixed over traffic and batch-cap slices) as pass/fail rows.
/// Any failed row fails the step (Blocker). Without a reproducer nothing is replayed: the step
/// says the reproducer is missing.
StepResult matrixStep(const PlaybookContext& context, const FixFindings& fix,
                      MatrixFindings& findings);

} // namespace bs::playbook
