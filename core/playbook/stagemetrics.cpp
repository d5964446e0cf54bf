#include "playbook/stagemetrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

namespace bs::playbook {

namespace {

constexpr std::size_t kP99Index = 3; // kReportedPercentiles[3] == 0.99

/// Picks the overall slice: the significant slice with the largest relative change, or the
/// last comparable slice when none is significant.
void chooseOverall(StageMetric& metric)
{
    int best = -1;
    for (std::size_t i = 0; i < metric.slices.size(); ++i) {
        const auto& d = metric.slices[i].delta;
        if (!d.significant)
            continue;
        if (best < 0 ||
            std::fabs(d.relative) > std::fabs(metric.slices[std::size_t(best)].delta.relative))
            best = int(i);
    }
    for (std::size_t i = metric.slices.size(); best < 0 && i-- > 0;) {
        if (std::isfinite(metric.slices[i].delta.delta))
            best = int(i);
    }
    if (best >= 0) {
        metric.overall = metric.slices[std::size_t(best)].delta;
        metric.overallLabel = metric.slices[std::size_t(best)].label;
    }
}

std::vector<std::string> labelsOf(const StageMetric& metric)
{
    std::vector<std::string> labels;
    for (const auto& slice : metric.slices)
        labels.push_back(slice.label);
    return labels;
}

std::vector<Delta> deltasOf(const StageMetric& metric)
{
    std::vector<Delta> deltas;
    for (const auto& slice : metric.slices)
        deltas.push_back(slice.delta);
    return deltas;
}

void finishAcrossBatches(StageMetric& metric)
{
    chooseOverall(metric);
    const auto deltas = deltasOf(metric);
    const auto labels = labelsOf(metric);
    metric.persistence = persistenceAcrossBatches(deltas, labels);
}

void finishAcrossWindows(StageMetric& metric)
{
    const auto deltas = deltasOf(metric);
    const auto labels = labelsOf(metric);
    metric.persistence = persistenceAcrossWindows(deltas, labels);
}

using PointValue = std::function<Interval(const data::SweepPoint&)>;

std::optional<StageMetric> sweepMetric(const std::vector<BatchPair>& pairs, const char* name,
                                       const char* unit, const PointValue& value,
                                       bool higherIsWorse, double practicalDelta)
{
    StageMetric metric;
    metric.stage = Stage::CompletionTail;
    metric.metric = name;
    metric.unit = unit;
    metric.source = "sweeps";
    metric.higherIsWorse = higherIsWorse;
    for (const auto& pair : pairs) {
        const Interval b = value(*pair.baseline);
        const Interval c = value(*pair.candidate);
        if (!b.known() || !c.known())
            continue;
        metric.slices.push_back(
            {"batch " + std::to_string(pair.batch), compare(b, c, practicalDelta)});
    }
    if (metric.slices.empty())
        return std::nullopt;
    finishAcrossBatches(metric);
    return metric;
}

/// Per-window p99 of one windowed percentile series as intervals (unknown where the window has
/// too few samples for a p99).
Interval windowP99(const analysis::WindowPercentiles& series, std::size_t k)
{
    if (k >= series.value.size() || !series.sufficient[k])
        return {};
    return {series.value[k], series.ciLow[k], series.ciHigh[k]};
}

std::optional<StageMetric> windowedMetric(Stage stage, const char* name,
                                          const analysis::Distribution& b,
                                          const analysis::Distribution& c,
                                          const std::vector<analysis::WindowPercentiles>& bw,
                                          const std::vector<analysis::WindowPercentiles>& cw,
                                          double windowS, double practicalDelta)
{
    if (b.count == 0 || c.count == 0 || !b.at(0.99) || !c.at(0.99))
        return std::nullopt;
    StageMetric metric;
    metric.stage = stage;
    metric.metric = name;
    metric.unit = "ms";
    metric.source = "request traces";
    metric.overall = compare(fromPercentile(*b.at(0.99)).scaled(1e3),
                             fromPercentile(*c.at(0.99)).scaled(1e3), practicalDelta);
    metric.overallLabel = "whole trace";
    if (bw.size() > kP99Index && cw.size() > kP99Index) {
        const std::size_t windows =
            std::min(bw[kP99Index].value.size(), cw[kP99Index].value.size());
        for (std::size_t k = 0; k < windows; ++k) {
            const Interval x = windowP99(bw[kP99Index], k).scaled(1e3);
            const Interval y = windowP99(cw[kP99Index], k).scaled(1e3);
            if (!x.known() || !y.known())
                continue;
            char label[64];
            std::snprintf(label, sizeof label, "t = %.4g s", double(k) * windowS);
            metric.slices.push_back({label, compare(x, y, practicalDelta)});
        }
    }
    finishAcrossWindows(metric);
    return metric;
}

std::optional<StageMetric> streamMetric(const analysis::RequestAnalysis& b,
                                        const analysis::RequestAnalysis& c, double practicalDelta)
{
    if (b.streams.size() < 2 || c.streams.size() < 2)
        return std::nullopt;
    StageMetric metric;
    metric.stage = Stage::CorePlacement;
    metric.metric = "per-stream p99 latency";
    metric.unit = "ms";
    metric.source = "request traces";
    for (const auto& stream : b.streams) {
        const auto match =
            std::ranges::find(c.streams, stream.name, &analysis::StreamStatistics::name);
        if (match == c.streams.end() || !stream.p99.sufficient || !match->p99.sufficient)
            continue;
        metric.slices.push_back({"stream " + stream.name,
                                 compare(fromPercentile(stream.p99).scaled(1e3),
                                         fromPercentile(match->p99).scaled(1e3), practicalDelta)});
    }
    if (metric.slices.empty())
        return std::nullopt;
    chooseOverall(metric);
    finishAcrossWindows(metric);
    metric.persistence.text += " (streams)";
    return metric;
}

/// Splits n steps into `groups` consecutive groups: [first, last) index pairs.
std::vector<std::pair<std::size_t, std::size_t>> stepGroups(std::size_t n, std::size_t groups)
{
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t g = 0; g < groups; ++g)
        out.emplace_back(n * g / groups, n * (g + 1) / groups);
    return out;
}

using StepValue = std::function<double(const analysis::StepBreakdown&)>;

Interval stepMean(const std::vector<analysis::StepBreakdown>& steps, std::size_t first,
                  std::size_t last, const StepValue& value)
{
    std::vector<double> values;
    for (std::size_t i = first; i < last; ++i) {
        const double v = value(steps[i]);
        if (std::isfinite(v))
            values.push_back(v);
    }
    return meanInterval(values);
}

std::optional<StageMetric> stepMetric(Stage stage, const char* name, const char* unit,
                                      const analysis::KernelAnalysis& b,
                                      const analysis::KernelAnalysis& c, const StepValue& value,
                                      double practicalDelta)
{
    const std::size_t n = std::min(b.steps.size(), c.steps.size());
    if (n == 0)
        return std::nullopt;
    StageMetric metric;
    metric.stage = stage;
    metric.metric = name;
    metric.unit = unit;
    metric.source = "kernel traces";
    metric.overall = compare(stepMean(b.steps, 0, b.steps.size(), value),
                             stepMean(c.steps, 0, c.steps.size(), value), practicalDelta);
    metric.overallLabel = "all steps";
    if (!std::isfinite(metric.overall.delta))
        return std::nullopt;
    const std::size_t groups = n >= 8 ? 4 : n >= 4 ? 2 : 1;
    const auto bg = stepGroups(b.steps.size(), groups);
    const auto cg = stepGroups(c.steps.size(), groups);
    for (std::size_t g = 0; g < groups && groups > 1; ++g) {
        metric.slices.push_back(
            {"steps window " + std::to_string(g + 1) + " of " + std::to_string(groups),
             compare(stepMean(b.steps, bg[g].first, bg[g].second, value),
                     stepMean(c.steps, cg[g].first, cg[g].second, value), practicalDelta)});
    }
    finishAcrossWindows(metric);
    return metric;
}

StageMetric simulatedMetric(Stage stage, const char* name, const char* unit, const Interval& b,
                            const Interval& c, bool higherIsWorse, double practicalDelta,
                            int replications)
{
    StageMetric metric;
    metric.stage = stage;
    metric.metric = name;
    metric.unit = unit;
    metric.source = "simulation";
    metric.higherIsWorse = higherIsWorse;
    metric.overall = compare(b, c, practicalDelta);
    metric.overallLabel = "target traffic";
    auto& p = metric.persistence;
    p.slices = replications;
    p.testable = replications >= 2 && metric.overall.intervalKnown;
    p.persistent = p.testable && metric.overall.significant;
    p.direction = metric.overall.sign;
    p.significant = p.persistent ? replications : 0;
    p.text = p.testable ? (p.persistent ? "holds across " : "not significant over ") +
                              std::to_string(replications) + " independent replications"
                        : "one replication: persistence not testable";
    return metric;
}

} // namespace

std::vector<StageMetric> sweepStageMetrics(const data::SweepTable& baseline,
                                           const data::SweepTable& candidate, double practicalDelta)
{
    const auto pairs = pairByBatch(baseline, candidate);
    std::vector<StageMetric> out;
    auto add = [&out](std::optional<StageMetric> metric) {
        if (metric)
            out.push_back(std::move(*metric));
    };
    add(sweepMetric(
        pairs, "p99 latency", "ms",
        [](const data::SweepPoint& p) { return sweepPercentile(p, 0.99).scaled(1e3); }, true,
        practicalDelta));
    add(sweepMetric(pairs, "throughput", "inferences/s", &sweepThroughput, false, practicalDelta));
    add(sweepMetric(pairs, "energy per inference", "J", &sweepEnergyPerInference, true,
                    practicalDelta));
    return out;
}

std::vector<StageMetric> requestStageMetrics(const analysis::RequestAnalysis& baseline,
                                             const analysis::RequestAnalysis& candidate,
                                             double practicalDelta)
{
    std::vector<StageMetric> out;
    const double windowS = baseline.timeSeries.windowS;
    if (auto m = windowedMetric(Stage::RuntimeQueue, "queue wait p99", baseline.queueWait,
                                candidate.queueWait, baseline.timeSeries.queueWait,
                                candidate.timeSeries.queueWait, windowS, practicalDelta))
        out.push_back(std::move(*m));
    if (auto m = streamMetric(baseline, candidate, practicalDelta))
        out.push_back(std::move(*m));
    if (auto m = windowedMetric(Stage::CompletionTail, "p99 latency", baseline.latency,
                                candidate.latency, baseline.timeSeries.latency,
                                candidate.timeSeries.latency, windowS, practicalDelta))
        out.push_back(std::move(*m));
    return out;
}

std::vector<StageMetric> kernelStageMetrics(const analysis::KernelAnalysis& baseline,
                                            const analysis::KernelAnalysis& candidate,
                                            double practicalDelta)
{
    std::vector<StageMetric> out;
    auto add = [&](Stage stage, const char* name, const char* unit, const StepValue& value) {
        if (auto m = stepMetric(stage, name, unit, baseline, candidate, value, practicalDelta))
            out.push_back(std::move(*m));
    };
    add(Stage::CompilePlan, "kernels per step", "kernels",
        [](const analysis::StepBreakdown& s) { return double(s.kernels); });
    add(Stage::CompilePlan, "device busy per step", "ms",
        [](const analysis::StepBreakdown& s) { return s.busyS * 1e3; });
    add(Stage::CompilePlan, "launch overhead (mean)", "µs",
        [](const analysis::StepBreakdown& s) { return s.launchOverheadMeanS * 1e6; });
    if (baseline.devices.size() >= 2 || candidate.devices.size() >= 2)
        add(Stage::CorePlacement, "device imbalance per step (max − mean busy)", "ms",
            [](const analysis::StepBreakdown& s) { return s.imbalanceS * 1e3; });
    return out;
}

std::vector<StageMetric> modelStageMetrics(const accel::Model& baseline,
                                           const accel::Model& candidate,
                                           const std::vector<int>& batches, double practicalDelta)
{
    StageMetric metric;
    metric.stage = Stage::CompilePlan;
    metric.metric = "batch service time (model)";
    metric.unit = "ms";
    metric.source = "accelerator model";
    for (int b : batches) {
        const Interval x{baseline.predict(b).serviceS * 1e3};
        const Interval y{candidate.predict(b).serviceS * 1e3};
        metric.slices.push_back({"batch " + std::to_string(b), compare(x, y, practicalDelta)});
    }
    if (metric.slices.empty())
        return {};
    finishAcrossBatches(metric);
    return {metric};
}

std::vector<StageMetric> simulatedStageMetrics(const sim::Result& baseline,
                                               const sim::Result& candidate, double practicalDelta)
{
    std::vector<StageMetric> out;
    if (!baseline.stability.stable || !candidate.stability.stable)
        return out;
    const int replications = int(std::min(baseline.seeds.size(), candidate.seeds.size()));
    out.push_back(simulatedMetric(Stage::RuntimeQueue, "queue wait p99 (simulated)", "ms",
                                  fromEstimate(baseline.queueWait.p99).scaled(1e3),
                                  fromEstimate(candidate.queueWait.p99).scaled(1e3), true,
                                  practicalDelta, replications));
    if (baseline.serverUtilisation.size() >= 2 && candidate.serverUtilisation.size() >= 2) {
        auto busiest = [](const sim::Result& r) {
            return fromEstimate(*std::ranges::max_element(
                r.serverUtilisation, {}, [](const sim::Estimate& e) { return e.value; }));
        };
        out.push_back(simulatedMetric(
            Stage::CorePlacement, "busiest server utilisation (simulated)", "", busiest(baseline),
            busiest(candidate), true, practicalDelta, replications));
    }
    out.push_back(simulatedMetric(Stage::CompletionTail, "p99 latency (simulated)", "ms",
                                  fromEstimate(baseline.latency.p99).scaled(1e3),
                                  fromEstimate(candidate.latency.p99).scaled(1e3), true,
                                  practicalDelta, replications));
    out.push_back(simulatedMetric(Stage::CompletionTail, "throughput (simulated)", "inferences/s",
                                  fromEstimate(baseline.throughputPerS),
                                  fromEstimate(candidate.throughputPerS), false, practicalDelta,
                                  replications));
    return out;
}

} // namespace bs::playbook
