#include "playbook/llmplaybook.h"
#include "playbook/stagemetrics.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace bs::playbook {

const char* stageName(Stage stage)
{
    switch (stage) {
    case Stage::CompilePlan:
        return "compile plan";
    case Stage::RuntimeQueue:
        return "runtime queue";
    case Stage::CorePlacement:
        return "core placement";
    case Stage::AdmissionQueue:
        return "admission queue";
    case Stage::SchedulerStep:
        return "scheduler step";
    case Stage::KvCache:
        return "KV cache";
    case Stage::DecodeIterations:
        return "decode iterations";
    case Stage::CompletionTail:
        return "completion and tail";
    }
    return "completion and tail";
}

std::vector<Stage> pipelineStages(bool llm)
{
    if (llm)
        return {Stage::AdmissionQueue, Stage::SchedulerStep, Stage::KvCache,
                Stage::DecodeIterations, Stage::CompletionTail};
    return {Stage::CompilePlan, Stage::RuntimeQueue, Stage::CorePlacement, Stage::CompletionTail};
}

namespace {

/// What would measure a stage that no data covers.
const char* stageMissingEvidence(Stage stage)
{
    switch (stage) {
    case Stage::CompilePlan:
        return "compile plan: kernel traces (PyTorch profiler / Kineto) of both runs, to compare "
               "kernel counts, device time and launch overhead per step";
    case Stage::RuntimeQueue:
        return "runtime queue: request traces with arrival, dispatch and completion times of "
               "both runs (or a scenario to simulate them)";
    case Stage::CorePlacement:
        return "core placement: per-device/stream kernel traces or per-stream request traces of "
               "both runs";
    case Stage::AdmissionQueue:
        return "admission queue: per-request queue times (an engine request log) or the "
               "engine's waiting series of both runs";
    case Stage::SchedulerStep:
        return "scheduler step: per-request TTFT and prompt tokens of both runs";
    case Stage::KvCache:
        return "KV cache: the engine's KV cache use series (or preemption counts) of both runs";
    case Stage::DecodeIterations:
        return "decode iterations: per-request TPOT or inter-token latencies of both runs";
    case Stage::CompletionTail:
        return "completion and tail: sweeps or request traces of both runs with p99 latency";
    }
    return "";
}

/// The accelerator model of a scenario whose service is one, or nothing.
std::optional<accel::Model> scenarioModel(const std::optional<sim::Scenario>& scenario)
{
    if (!scenario || scenario->service.kind != sim::ServiceSpec::Kind::Accelerator)
        return std::nullopt;
    auto model = accel::modelFromJson(scenario->service.acceleratorModel, "service.model", {});
    return model ? std::optional<accel::Model>(std::move(*model)) : std::nullopt;
}

/// Predicted batch service time when both scenarios run the accelerator model, at the sweeps'
/// batch sizes (else powers of two up to the candidate's batch cap).
std::vector<StageMetric> modelMetrics(const PlaybookContext& context, double practical)
{
    const auto baseline = scenarioModel(context.scenarios.baseline);
    const auto candidate = scenarioModel(context.scenarios.candidate);
    if (!baseline || !candidate)
        return {};
    std::vector<int> batches;
    const auto& in = context.inputs;
    if (in.baseline.sweep && in.candidate.sweep) {
        for (const auto& pair : pairByBatch(*in.baseline.sweep, *in.candidate.sweep))
            batches.push_back(pair.batch);
    } else {
        for (int b = 1; b <= context.scenarios.candidate->policy.maxBatch; b *= 2)
            batches.push_back(b);
    }
    return modelStageMetrics(*baseline, *candidate, batches, practical);
}

std::vector<StageMetric> collectMetrics(const PlaybookContext& context)
{
    const double practical = context.state.options.practicalDelta;
    const auto& in = context.inputs;
    std::vector<StageMetric> all;
    if (const auto pair = llmPair(in)) {
        // LLM runs speak for the serving pipeline; batch sources would mix two pipelines.
        all = llmStageMetrics(*pair->baseline, *pair->candidate, practical, in.baseline.power.get(),
                              in.candidate.power.get());
        std::ranges::stable_sort(all, {}, [](const StageMetric& m) { return int(m.stage); });
        return all;
    }
    auto append = [&all](std::vector<StageMetric> more) {
        for (auto& m : more)
            all.push_back(std::move(m));
    };
    if (context.baseline.kernels && context.candidate.kernels)
        append(
            kernelStageMetrics(*context.baseline.kernels, *context.candidate.kernels, practical));
    append(modelMetrics(context, practical));
    if (context.baseline.requests && context.candidate.requests)
        append(requestStageMetrics(*context.baseline.requests, *context.candidate.requests,
                                   practical));
    if (in.baseline.sweep && in.candidate.sweep)
        append(sweepStageMetrics(*in.baseline.sweep, *in.candidate.sweep, practical));
    if (context.simulated.baseline && context.simulated.candidate)
        append(simulatedStageMetrics(*context.simulated.baseline, *context.simulated.candidate,
                                     practical));
    // Pipeline order; within a stage, measured sources before simulated ones.
    std::ranges::stable_sort(all, {}, [](const StageMetric& m) { return int(m.stage); });
    return all;
}

/// The symptom: the first p99 latency metric from measurements, else the simulated one.
int tailMetricIndex(const std::vector<StageMetric>& metrics)
{
    int simulated = -1;
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        if (metrics[i].stage != Stage::CompletionTail ||
            metrics[i].metric.rfind("p99 latency", 0) != 0)
            continue;
        if (metrics[i].source != "simulation")
            return int(i);
        if (simulated < 0)
            simulated = int(i);
    }
    return simulated;
}

void findDivergentBatches(LocateFindings& findings)
{
    std::set<int> batches;
    for (const auto& metric : findings.metrics) {
        if (metric.source != "sweeps" || metric.metric == "energy per inference")
            continue;
        for (const auto& slice : metric.slices) {
            // A worse tail or a lower throughput: the divergence the alarm is about.
            const bool worse = metric.higherIsWorse ? slice.delta.sign > 0 : slice.delta.sign < 0;
            if (worse)
                batches.insert(std::stoi(slice.label.substr(6)));
        }
    }
    findings.divergentBatches.assign(batches.begin(), batches.end());
}

std::string failingText(const StageMetric& m)
{
    std::string text = m.metric + " " + formatSigned(m.overall.delta, m.unit);
    if (std::isfinite(m.overall.relative))
        text += " (" + formatSigned(100.0 * m.overall.relative, "%", 2) + ")";
    return text + " at " + m.overallLabel + " [" + m.source + "]" +
           (m.persistence.text.empty() ? "" : "; " + m.persistence.text);
}

/// The symptom list: alarm metrics that got worse, and the SLA missed on the target traffic.
void findFailing(const PlaybookContext& context, LocateFindings& findings)
{
    for (const auto& m : findings.metrics) {
        if ((m.stage != Stage::CompletionTail && !isLlmAlarmMetric(m)) || !m.divergent())
            continue;
        const int worse = m.higherIsWorse ? 1 : -1;
        if (m.overall.sign == worse || m.persistence.direction == worse)
            findings.failing.push_back(failingText(m));
    }
    const auto& candidate = context.simulated.candidate;
    const auto& sla = context.inputs.slaP99S;
    if (!sla || !candidate || context.scenarios.derived || !candidate->stability.stable)
        return;
    // Over the SLA beyond its interval: a miss the replications agree on.
    const auto& p99 = candidate->latency.p99;
    if ((std::isfinite(p99.ciLow) ? p99.ciLow : p99.value) > *sla)
        findings.failing.push_back("p99 latency " +
                                   formatValue(candidate->latency.p99.value * 1e3, "ms") +
                                   " over the SLA " + formatValue(*sla * 1e3, "ms") +
                                   " on the target traffic [simulation]");
}

/// Queue wait p99 change over p99 latency change from the same source. Simulated waits count
/// only when the runs differ in policy knobs alone: a slower service also lengthens the queue,
/// and that queueing is the service change's consequence, not its cause.
double queueShareOfTailChange(const std::vector<StageMetric>& metrics, bool simulatedCounts)
{
    for (const char* source : {"request traces", "simulation"}) {
        if (std::string(source) == "simulation" && !simulatedCounts)
            continue;
        const StageMetric* queue = nullptr;
        const StageMetric* tail = nullptr;
        for (const auto& m : metrics) {
            if (m.source != source)
                continue;
            if (m.stage == Stage::RuntimeQueue)
                queue = &m;
            if (m.stage == Stage::CompletionTail && m.metric.rfind("p99 latency", 0) == 0)
                tail = &m;
        }
        if (queue && tail && tail->overall.delta > 0.0 && tail->overall.significant &&
            std::isfinite(queue->overall.delta))
            return std::clamp(queue->overall.delta / tail->overall.delta, 0.0, 1.0);
    }
    return analysis::kNaN;
}

std::string deltaCell(const Delta& d)
{
    std::string text = formatSigned(d.delta, "");
    if (std::isfinite(d.relative))
        text += " (" + formatSigned(100.0 * d.relative, "%", 2) + ")";
    if (d.intervalKnown)
        text += " [" + formatNumber(d.ciLow) + ", " + formatNumber(d.ciHigh) + "]";
    return text;
}

/// "yes" only for the figure the row shows: a change seen in some slices alone is said so
/// (beside a whole-run interval that spans 0, a bare "yes" reads as a contradiction).
std::string divergentCell(const StageMetric& m)
{
    if (m.overall.significant)
        return "yes";
    return m.divergent() ? "in slices only" : "no";
}

EvidenceTable stageTable(const LocateFindings& findings)
{
    EvidenceTable table{"Per-stage divergence, baseline vs candidate (tail metric first)",
                        {"Stage", "Metric", "Source", "Slice", "Baseline", "Candidate",
                         "Δ (rel.) [95% CI]", "Divergent", "Persistence"},
                        {},
                        "Δ = candidate − baseline. Intervals: order statistics (traces), "
                        "interpolated order-statistic ranks (sweeps), Student t over "
                        "replications (simulation), Student t over steps (kernel traces); "
                        "differences combine both sides in quadrature."};
    std::vector<int> order;
    if (findings.tailMetric >= 0)
        order.push_back(findings.tailMetric);
    for (int i = 0; i < int(findings.metrics.size()); ++i) {
        if (i != findings.tailMetric)
            order.push_back(i);
    }
    for (int i : order) {
        const auto& m = findings.metrics[std::size_t(i)];
        table.rows.push_back(
            {stageName(m.stage), m.metric + (m.unit.empty() ? "" : " (" + m.unit + ")"), m.source,
             m.overallLabel, formatNumber(m.overall.baseline), formatNumber(m.overall.candidate),
             deltaCell(m.overall), divergentCell(m),
             (m.persistence.persistent ? "persistent: " : "") + m.persistence.text});
    }
    return table;
}

EvidenceTable sliceTable(const StageMetric& metric)
{
    EvidenceTable table{metric.metric + " per slice (" + metric.source + ")",
                        {"Slice", "Baseline", "Candidate", "Δ (rel.) [95% CI]", "Divergent"},
                        {},
                        {}};
    for (const auto& slice : metric.slices)
        table.rows.push_back({slice.label, formatValue(slice.delta.baseline, metric.unit),
                              formatValue(slice.delta.candidate, metric.unit),
                              deltaCell(slice.delta), slice.delta.significant ? "yes" : "no"});
    return table;
}

/// Says where the two sweeps come from: "Measured" only for data read from measurement files,
/// so the demo's generated sweeps are never taken for hardware results.
std::string sweepCaption(const char* metric, const SideInputs& baseline,
                         const SideInputs& candidate)
{
    auto origin = [](const SideInputs& side) {
        return side.sweepSynthetic ? "synthetic: BatchScope's built-in demo data, not a measurement"
                                   : "measured";
    };
    const std::string sweeps = "the baseline sweep '" + baseline.sweepName +
                               "' and the candidate sweep '" + candidate.sweepName + "'";
    if (baseline.sweepSynthetic == candidate.sweepSynthetic)
        return std::string(baseline.sweepSynthetic ? "Synthetic " : "Measured ") + metric + " of " +
               sweeps +
               (baseline.sweepSynthetic ? " (BatchScope's built-in demo data, not a "
                                          "measurement of hardware)."
                                        : ".");
    return std::string(metric) + " of the baseline sweep '" + baseline.sweepName + "' (" +
           origin(baseline) + ") and the candidate sweep '" + candidate.sweepName + "' (" +
           origin(candidate) + ").";
}

figure::Figure sweepFigure(const PlaybookContext& context, const char* metric, const char* yTitle)
{
    figure::Figure figure;
    figure.title = std::string(metric) + " by batch size";
    figure.xTitle = "batch size";
    figure.yTitle = yTitle;
    figure.xLog = true;
    for (const auto* side : {&context.inputs.baseline, &context.inputs.candidate}) {
        figure::FigureSeries series{
            side->role, figure::FigureSeriesKind::Line, {}, -1, side == &context.inputs.candidate};
        for (const auto& point : side->sweep->points) {
            const double value = std::string(metric) == "p99 latency"
                                     ? sweepPercentile(point, 0.99).value * 1e3
                                     : sweepThroughput(point).value;
            if (std::isfinite(value))
                series.points.push_back({double(point.batchSize), value});
        }
        figure.series.push_back(std::move(series));
    }
    if (std::string(metric) == "p99 latency" && context.inputs.slaP99S)
        figure.referenceLines.push_back({figure::FigureReferenceLine::Orientation::Horizontal,
                                         *context.inputs.slaP99S * 1e3, "SLA p99"});
    figure.caption = sweepCaption(metric, context.inputs.baseline, context.inputs.candidate);
    return figure;
}

std::string pipelineText(bool llm)
{
    std::string text;
    for (Stage stage : pipelineStages(llm))
        text += (text.empty() ? "" : " → ") + std::string(stageName(stage));
    return text;
}

std::string summaryText(const LocateFindings& findings)
{
    std::string text;
    if (findings.tailMetric >= 0) {
        const auto& tail = findings.metrics[std::size_t(findings.tailMetric)];
        text = "Tail first: p99 latency (" + tail.source + ") " +
               (tail.divergent() ? "diverges by " + formatSigned(tail.overall.delta, tail.unit) +
                                       " at " + tail.overallLabel
                                 : std::string("does not diverge")) +
               "; " + tail.persistence.text + ". ";
    }
    if (findings.firstPersistentStage) {
        const auto& m = findings.metrics[std::size_t(findings.firstMetric)];
        text += "First persistent divergent stage along " + pipelineText(findings.llm) + ": " +
                std::string(stageName(*findings.firstPersistentStage)) + " (" + m.metric + " " +
                formatSigned(m.overall.delta, m.unit) + ", " + m.source + ", " +
                m.persistence.text + ").";
    } else {
        text += "No stage diverges persistently (across batch sizes, time windows or "
                "replications).";
    }
    return text;
}

/// Missing evidence for unmeasured stages; Ok only when a persistent stage was found and no
/// stage before it went unmeasured.
void judgeStatus(const LocateFindings& findings, StepResult& step)
{
    bool earlierUnmeasured = false;
    const int firstStage =
        findings.firstPersistentStage ? int(*findings.firstPersistentStage) : kStageCount;
    for (Stage stage : pipelineStages(findings.llm)) {
        const int s = int(stage);
        if (findings.measured[s])
            continue;
        step.missingEvidence.push_back(stageMissingEvidence(stage));
        earlierUnmeasured = earlierUnmeasured || s < firstStage;
    }
    step.summary = summaryText(findings);
    if (!findings.firstPersistentStage) {
        step.status = StepStatus::Warning;
    } else if (earlierUnmeasured) {
        step.status = StepStatus::Warning;
        step.warnings.push_back("stages before " +
                                std::string(stageName(*findings.firstPersistentStage)) +
                                " were not measured: the first divergent stage may lie earlier");
    } else {
        step.status = StepStatus::Ok;
    }
}

} // namespace

StepResult locateStep(const PlaybookContext& context, LocateFindings& findings)
{
    StepResult step;
    step.number = 2;
    step.title = "Locate the first persistent divergent stage";
    findings.llm = llmPair(context.inputs).has_value();
    findings.metrics = collectMetrics(context);
    if (findings.metrics.empty()) {
        step.status = StepStatus::Blocker;
        step.summary = "No metric is measured on both sides, so no stage can be compared.";
        for (Stage stage : pipelineStages(findings.llm))
            step.missingEvidence.push_back(stageMissingEvidence(stage));
        return step;
    }
    for (std::size_t i = 0; i < findings.metrics.size(); ++i) {
        const auto& m = findings.metrics[i];
        findings.measured[int(m.stage)] = true;
        if (!findings.firstPersistentStage && m.persistence.persistent && m.divergent()) {
            findings.firstPersistentStage = m.stage;
            findings.firstMetric = int(i);
        }
    }
    findings.tailMetric = tailMetricIndex(findings.metrics);
    findDivergentBatches(findings);
    findFailing(context, findings);
    findings.queueShareOfTailChange =
        queueShareOfTailChange(findings.metrics, context.scenarios.policyOnlyDifference());

    step.tables.push_back(stageTable(findings));
    for (const auto& m : findings.metrics) {
        if (!m.slices.empty() && m.slices.size() <= 12 && m.divergent())
            step.tables.push_back(sliceTable(m));
    }
    if (context.inputs.baseline.sweep && context.inputs.candidate.sweep) {
        step.figures.push_back(sweepFigure(context, "p99 latency", "p99 latency (ms)"));
        step.figures.push_back(sweepFigure(context, "throughput", "throughput (inferences/s)"));
    }
    if (findings.tailMetric >= 0) {
        const auto& tail = findings.metrics[std::size_t(findings.tailMetric)];
        step.numbers.push_back({"p99 latency change (" + tail.overallLabel + ")",
                                tail.overall.delta, tail.unit, tail.overall.ciLow,
                                tail.overall.ciHigh, tail.source});
    }
    judgeStatus(findings, step);
    return step;
}

} // namespace bs::playbook
