#include "playbook/mechanismsignals.h"
#include "sim/estimate.h"

#include <algorithm>
#include <cmath>

namespace bs::playbook {

namespace {

constexpr std::size_t kMaxTrials = 4;

std::string valueText(const nlohmann::json& value)
{
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_number())
        return formatNumber(value.get<double>(), 4);
    return value.dump();
}

/// The baseline's value of a knob when a run-tag difference maps to it.
std::optional<nlohmann::json> baselineKnob(const PlaybookContext& context, const std::string& knob)
{
    if (!context.scenarios.baseline)
        return std::nullopt;
    for (const auto& difference : context.scenarios.knobs) {
        if (difference.knob == knob) {
            auto value = knobValue(*context.scenarios.baseline, knob);
            if (!value.is_null())
                return value;
        }
    }
    return std::nullopt;
}

/// The largest batch size of the candidate sweep drawing under 97% of its power limit.
std::optional<int> coolestLargeBatch(const PlaybookContext& context, int below)
{
    const auto cap = candidatePowerCapW(context);
    const auto& sweep = context.inputs.candidate.sweep;
    if (!cap || !sweep)
        return std::nullopt;
    std::optional<int> best;
    for (const auto& p : sweep->points) {
        if (p.powerW && *p.powerW < 0.97 * *cap && p.batchSize < below)
            best = std::max(best.value_or(0), p.batchSize);
    }
    return best;
}

/// The utilisation at which the target traffic saturates the candidate: past it the p99 is
/// queueing for capacity, which no setting of the policy removes.
constexpr double kSaturatedRho = 0.9;

/// Capacity is the finding when the candidate runs the target traffic at or near saturation.
bool capacityIsTheFinding(const PlaybookContext& context)
{
    const auto& candidate = context.simulated.candidate;
    return candidate && candidate->stability.rho >= kSaturatedRho;
}

/// Changes aimed at the mechanism: policy knobs and config values only (reversible settings of
/// the hardware under review). Adding hardware is not among them (see capacityAction).
std::vector<FixChoice> mechanismFixes(const PlaybookContext& context, Mechanism top,
                                      const sim::Scenario& scenario)
{
    const double delayMs = scenario.policy.maxQueueDelayS * 1000.0;
    const int maxBatch = scenario.policy.maxBatch;
    const bool accelerator = scenario.service.kind == sim::ServiceSpec::Kind::Accelerator;
    std::vector<FixChoice> out;
    auto add = [&out](std::string knob, nlohmann::json value, std::string reason) {
        out.push_back({std::move(knob), std::move(value), std::move(reason)});
    };
    auto halfDelay = [&] {
        if (std::isfinite(delayMs) && delayMs > 0.0)
            add("max_queue_delay_ms", delayMs / 2.0,
                "halve the queue delay: smaller, sooner batches");
    };
    switch (top) {
    case Mechanism::Scheduling:
        if (auto b = baselineKnob(context, "max_queue_delay_ms"))
            add("max_queue_delay_ms", *b, "restore the baseline's queue delay");
        halfDelay();
        if (auto b = baselineKnob(context, "max_batch"))
            add("max_batch", *b, "restore the baseline's batch cap");
        if (accelerator)
            add("fusion_factor", 2.0, "fuse kernels pairwise: half the launches per batch");
        break;
    case Mechanism::Thermal:
        if (auto b = coolestLargeBatch(context, maxBatch))
            add("max_batch", *b, "cap batches where the candidate stays under its power limit");
        else if (maxBatch > 1)
            add("max_batch", maxBatch / 2, "halve the batch cap: lower power per batch");
        if (maxBatch * 2 <= 4096)
            add("max_batch", maxBatch * 2,
                "double the batch cap: more work per watt under a "
                "power limit (compute-bound batches)");
        halfDelay();
        break;
    case Mechanism::Compute:
        // Compute-bound batches take time in proportion to their work: smaller, sooner batches
        // shorten the tail at the same work per item.
        if (maxBatch > 1)
            add("max_batch", maxBatch / 2,
                "halve the batch cap: compute-bound batch time falls with its size");
        halfDelay();
        if (auto b = baselineKnob(context, "precision"); b && accelerator)
            add("precision", *b, "restore the baseline precision");
        break;
    case Mechanism::Memory:
        if (std::isfinite(delayMs) && delayMs > 0.0)
            add("max_queue_delay_ms", delayMs * 2.0,
                "double the queue delay: larger batches "
                "amortise the weight reads");
        add("max_batch", maxBatch * 2, "double the batch cap: raise arithmetic intensity");
        break;
    case Mechanism::Precision:
        if (auto b = baselineKnob(context, "precision"); b && accelerator)
            add("precision", *b, "restore the baseline precision");
        halfDelay();
        break;
    }
    return out;
}

std::vector<FixChoice> proposeFixes(const PlaybookContext& context, Mechanism top,
                                    const sim::Scenario& scenario)
{
    auto out = mechanismFixes(context, top, scenario);
    // Drop no-op changes; smallest category first (stable: the order above within one).
    std::erase_if(
        out, [&scenario](const FixChoice& f) { return knobValue(scenario, f.knob) == f.value; });
    std::ranges::stable_sort(out, {}, [](const FixChoice& f) { return knobCategoryRank(f.knob); });
    const std::size_t settings = capacityIsTheFinding(context) ? kMaxTrials - 1 : kMaxTrials;
    if (out.size() > settings)
        out.resize(settings);
    if (capacityIsTheFinding(context))
        out.push_back({"servers", scenario.servers.count + 1,
                       "capacity action (adds hardware): the target traffic runs the candidate "
                       "at " +
                           formatNumber(100.0 * context.simulated.candidate->stability.rho, 2) +
                           "% of its capacity"});
    return out;
}

/// Paired difference of a per-replication value (same seeds on both sides).
Movement pairedMovement(const char* metric, const char* unit, double scale,
                        const sim::Result& candidate, const sim::Result& fixed,
                        double sim::ReplicationSummary::*field, const sim::Estimate& c,
                        const sim::Estimate& f)
{
    Movement m{metric,          unit,
               c.value * scale, f.value * scale,
               analysis::kNaN,  analysis::kNaN,
               analysis::kNaN,  "paired difference over replications with common seeds, Student t"};
    std::vector<double> differences;
    const std::size_t n = std::min(candidate.perReplication.size(), fixed.perReplication.size());
    for (std::size_t i = 0; i < n; ++i)
        differences.push_back(
            (fixed.perReplication[i].*field - candidate.perReplication[i].*field) * scale);
    const auto estimate = sim::estimateOf(differences);
    m.delta = estimate.value;
    m.ciLow = estimate.ciLow;
    m.ciHigh = estimate.ciHigh;
    return m;
}

/// Inferences per joule = 1 / energy per inference, interval from the energy interval.
Interval perfPerWatt(const sim::Result& result)
{
    if (!result.energyPerRequestJ || !(result.energyPerRequestJ->value > 0.0))
        return {};
    const auto& e = *result.energyPerRequestJ;
    return {1.0 / e.value, e.ciHigh > 0.0 ? 1.0 / e.ciHigh : analysis::kNaN,
            e.ciLow > 0.0 ? 1.0 / e.ciLow : analysis::kNaN};
}

std::vector<Movement> movements(const sim::Result& candidate, const sim::Result& fixed)
{
    std::vector<Movement> out;
    out.push_back(pairedMovement("throughput", "inferences/s", 1.0, candidate, fixed,
                                 &sim::ReplicationSummary::throughputPerS, candidate.throughputPerS,
                                 fixed.throughputPerS));
    out.push_back(pairedMovement("p99 latency", "ms", 1e3, candidate, fixed,
                                 &sim::ReplicationSummary::latencyP99S, candidate.latency.p99,
                                 fixed.latency.p99));
    const Interval c = perfPerWatt(candidate);
    const Interval f = perfPerWatt(fixed);
    Movement ppw{"perf per watt",
                 "inferences/J",
                 c.value,
                 f.value,
                 analysis::kNaN,
                 analysis::kNaN,
                 analysis::kNaN,
                 c.known() ? "1 / energy per inference; difference of independent intervals"
                           : "not predicted: the scenario has no power model"};
    if (c.known() && f.known()) {
        const Delta d = compare(c, f, 0.0);
        ppw.delta = d.delta;
        ppw.ciLow = d.ciLow;
        ppw.ciHigh = d.ciHigh;
    }
    out.push_back(ppw);
    return out;
}

/// The p99 a fix has to reach: the SLA, else the baseline's simulated p99 plus the tolerance.
std::optional<double> p99TargetMs(const PlaybookContext& context)
{
    if (context.inputs.slaP99S)
        return *context.inputs.slaP99S * 1e3;
    const auto& baseline = context.simulated.baseline;
    if (baseline && baseline->stability.stable)
        return baseline->latency.p99.value * 1e3 * (1.0 + context.state.options.p99Tolerance);
    return std::nullopt;
}

bool improves(const std::vector<Movement>& m, const PlaybookOptions& options)
{
    const auto& throughput = m[0];
    const auto& p99 = m[1];
    const auto& ppw = m[2];
    const bool p99Falls = std::isfinite(p99.ciHigh) ? p99.ciHigh < 0.0 : p99.delta < 0.0;
    const bool keepsThroughput =
        !(throughput.delta < -options.throughputTolerance * throughput.candidate);
    const bool keepsEnergy =
        !std::isfinite(ppw.delta) || ppw.delta >= -options.energyTolerance * ppw.candidate;
    return p99Falls && keepsThroughput && keepsEnergy;
}

FixTrial runTrial(const PlaybookContext& context, const sim::Scenario& reproducer,
                  const FixChoice& choice, std::optional<sim::Scenario>& fixedScenario,
                  std::optional<sim::Result>& fixedResult)
{
    FixTrial trial;
    trial.choice = choice;
    trial.category = knobCategory(choice.knob);
    trial.from = valueText(knobValue(reproducer, choice.knob));
    auto scenario = applyKnob(reproducer, choice);
    if (!scenario) {
        trial.error = scenario.error().message;
        return trial;
    }
    scenario->name =
        "Fix: " + choice.knob + " = " + valueText(choice.value) + " (" + reproducer.name + ")";
    auto result = context.simulate(*scenario);
    if (!result) {
        trial.error = result.error().message;
        return trial;
    }
    trial.stable = result->stability.stable;
    if (!trial.stable) {
        trial.error = "unstable: " + result->stability.reason;
        return trial;
    }
    trial.movements = movements(*context.simulated.candidate, *result);
    trial.improves = improves(trial.movements, context.state.options);
    const auto target = p99TargetMs(context);
    trial.meetsTarget = target && trial.movements[1].fixed <= *target;
    fixedScenario = std::move(*scenario);
    fixedResult = std::move(*result);
    return trial;
}

std::string movementCell(const Movement& m)
{
    if (!std::isfinite(m.delta))
        return "n/a";
    std::string text = formatSigned(m.delta, m.unit);
    if (std::isfinite(m.ciLow))
        text += " [" + formatNumber(m.ciLow) + ", " + formatNumber(m.ciHigh) + "]";
    return text;
}

/// How good a trial is, higher is better: 3 improves without regressions and meets the p99
/// target (SLA, else baseline + tolerance); 2 meets the target at a throughput or energy cost;
/// 1 improves without meeting it; 0 at least lowers p99; -1 otherwise.
int trialGrade(const FixTrial& t)
{
    if (!t.stable || t.movements.empty())
        return -1;
    if (t.improves && t.meetsTarget)
        return 3;
    if (t.meetsTarget && t.movements[1].delta < 0.0)
        return 2;
    if (t.improves)
        return 1;
    return t.movements[1].delta < 0.0 ? 0 : -1;
}

std::string verdictText(const FixTrial& t)
{
    switch (trialGrade(t)) {
    case 3:
        return "improves p99 to the target without regressions";
    case 2:
        return "meets the p99 target, at a throughput or energy cost";
    case 1:
        return "improves p99 without regressions, short of the target";
    case 0:
        return "lowers p99 but regresses throughput or energy";
    default:
        return "does not lower p99";
    }
}

EvidenceTable trialTable(const FixFindings& findings)
{
    EvidenceTable table{"Bounded changes simulated (smallest category first)",
                        {"Change", "Category", "From → to", "Δ throughput [95% CI]",
                         "Δ p99 [95% CI]", "Δ perf/W [95% CI]", "Verdict"},
                        {},
                        "Δ = fixed − candidate on the reproducer's traffic; throughput and p99 "
                        "from paired replications (common seeds)."};
    for (const auto& t : findings.trials) {
        const bool chosen = findings.chosen && *findings.chosen == t.choice;
        std::string verdict = !t.error.empty() ? t.error : verdictText(t);
        if (chosen)
            verdict = "CHOSEN: " + verdict;
        table.rows.push_back({t.choice.knob + " (" + t.choice.reason + ")", t.category,
                              t.from + " → " + valueText(t.choice.value),
                              t.movements.empty() ? "" : movementCell(t.movements[0]),
                              t.movements.empty() ? "" : movementCell(t.movements[1]),
                              t.movements.empty() ? "" : movementCell(t.movements[2]), verdict});
    }
    return table;
}

/// Which traffic the movements were simulated on, and whether the SLA is judged on it.
std::string trafficText(const PlaybookContext& context)
{
    const auto& scenario = *context.scenarios.candidate;
    if (context.scenarios.derived)
        return "traffic derived from the candidate sweep '" + scenario.name +
               "' (an assumption, not the target traffic)";
    return "the target traffic '" + scenario.name + "'" +
           (context.inputs.slaP99S ? " (the traffic the SLA is judged on)" : "");
}

/// Runs the trials and picks the best grade, the smallest change among equals (trials come
/// smallest category first).
void chooseFix(const PlaybookContext& context, const std::vector<FixChoice>& choices,
               FixFindings& findings)
{
    std::vector<std::optional<sim::Scenario>> scenarios(choices.size());
    std::vector<std::optional<sim::Result>> results(choices.size());
    int chosen = -1;
    bool settingMeetsTarget = false;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        findings.trials.push_back(
            runTrial(context, *findings.reproducer, choices[i], scenarios[i], results[i]));
        const auto& trial = findings.trials.back();
        const int grade = trialGrade(trial);
        // More hardware is the answer only when no setting of the hardware under review is.
        if (knobCategoryRank(trial.choice.knob) == kCapacityRank && settingMeetsTarget &&
            !findings.userChosen)
            continue;
        settingMeetsTarget = settingMeetsTarget || grade >= 2;
        if (grade >= 0 && (chosen < 0 || grade > trialGrade(findings.trials[std::size_t(chosen)])))
            chosen = int(i);
    }
    // The user's own change is predicted whatever it does (the warning says how it fared).
    if (chosen < 0 && findings.userChosen && findings.trials.front().stable)
        chosen = 0;
    if (chosen < 0)
        return;
    const auto& trial = findings.trials[std::size_t(chosen)];
    findings.chosen = trial.choice;
    findings.category = trial.category;
    findings.from = trial.from;
    findings.movements = trial.movements;
    findings.fixed = scenarios[std::size_t(chosen)];
    findings.fixedResult = results[std::size_t(chosen)];
    const auto& candidate = *context.simulated.candidate;
    findings.candidatePowerW = candidate.meanPowerW;
    findings.candidatePeakC = candidate.peakTemperatureC;
    findings.fixedPowerW = findings.fixedResult->meanPowerW;
    findings.fixedPeakC = findings.fixedResult->peakTemperatureC;
}

} // namespace

StepResult fixStep(const PlaybookContext& context, const ClassificationFindings& classification,
                   FixFindings& findings)
{
    StepResult step;
    step.number = 4;
    step.title = "One focused reproducer and one bounded fix";
    const auto& candidate = context.scenarios.candidate;
    if (!candidate || !context.simulated.candidate ||
        !context.simulated.candidate->stability.stable) {
        step.status = StepStatus::Blocker;
        step.summary =
            "No reproducer: " + (!candidate ? context.scenarios.error
                                 : context.simulated.candidate
                                     ? "the candidate scenario is unstable (" +
                                           context.simulated.candidate->stability.reason + ")"
                                     : std::string("the candidate scenario did not simulate"));
        step.missingEvidence.push_back("a scenario of the target traffic (project scenario or a "
                                       "candidate sweep to derive one)");
        return step;
    }
    findings.reproducer = *candidate;
    findings.reproducer->name = "Reproducer: " + candidate->name;
    std::vector<FixChoice> choices;
    if (context.state.fix) {
        choices.push_back(*context.state.fix);
        findings.userChosen = true;
    } else if (!classification.claims()) {
        // A fix addresses the classified mechanism; with none claimed there is nothing to aim
        // a change at.
        step.status = StepStatus::NotStarted;
        step.summary = "No fix proposed: " + classification.noClaim +
                       ". The reproducer is frozen for reference: scenario '" +
                       findings.reproducer->name + "', seed " +
                       std::to_string(findings.reproducer->seed) + ".";
        return step;
    } else {
        choices = proposeFixes(context, classification.ranked.front().mechanism, *candidate);
    }
    chooseFix(context, choices, findings);
    step.tables.push_back(trialTable(findings));
    if (!findings.chosen) {
        step.status = StepStatus::Blocker;
        step.summary = "No bounded change improves the reproducer's p99 (" +
                       std::to_string(findings.trials.size()) + " simulated).";
        return step;
    }
    for (const auto& m : findings.movements)
        step.numbers.push_back(
            {"expected " + m.metric + " change", m.delta, m.unit, m.ciLow, m.ciHigh, m.method});
    const auto chosenTrial = std::ranges::find_if(
        findings.trials, [&](const FixTrial& t) { return t.choice == *findings.chosen; });
    const int grade = trialGrade(*chosenTrial);
    const bool improved = grade == 3;
    const bool capacity = knobCategoryRank(findings.chosen->knob) == kCapacityRank;
    step.status = improved ? StepStatus::Ok : StepStatus::Warning;
    step.summary = std::string(capacity ? "Capacity action (adds hardware; no policy or config "
                                          "setting reaches the target): change "
                                        : "Change ") +
                   findings.chosen->knob + " from " + findings.from + " to " +
                   valueText(findings.chosen->value) + " (" + findings.category + ", " +
                   (findings.userChosen ? "chosen by the user" : findings.chosen->reason) +
                   "). Reproducer: scenario '" + findings.reproducer->name + "', seed " +
                   std::to_string(findings.reproducer->seed) + ". Expected, on " +
                   trafficText(context) + ": throughput " + movementCell(findings.movements[0]) +
                   ", p99 " + movementCell(findings.movements[1]) + ", perf per watt " +
                   movementCell(findings.movements[2]) + ".";
    if (!improved)
        step.warnings.push_back("the chosen change " + verdictText(*chosenTrial) +
                                " in the simulation");
    if (!context.inputs.slaNote.empty())
        step.warnings.push_back(context.inputs.slaNote);
    return step;
}

} // namespace bs::playbook
