#include "analysis/llmrunfigures.h"
#include "playbook/llmplaybook.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace bs::playbook {

namespace {

constexpr int kWindows = 4;

/// A per-request value (seconds, or any unit), absent for requests that lack it.
using RequestValue = std::function<std::optional<double>(const data::LlmRequest&)>;

/// Successful requests in arrival order (record order when arrivals are not recorded).
std::vector<const data::LlmRequest*> servedInOrder(const data::LlmRun& run)
{
    std::vector<const data::LlmRequest*> out;
    for (const auto& r : run.requests) {
        if (r.ok)
            out.push_back(&r);
    }
    std::ranges::stable_sort(out, {},
                             [](const data::LlmRequest* r) { return r->arrivalS.value_or(0.0); });
    return out;
}

std::vector<double> valuesOf(std::span<const data::LlmRequest* const> requests,
                             const RequestValue& value)
{
    std::vector<double> out;
    for (const auto* r : requests) {
        if (auto v = value(*r); v && std::isfinite(*v))
            out.push_back(*v);
    }
    return out;
}

Interval percentileInterval(std::vector<double> values, double probability, double scale)
{
    if (values.empty())
        return {};
    std::ranges::sort(values);
    return fromPercentile(analysis::percentileOfSorted(values, probability)).scaled(scale);
}

/// Consecutive arrivals in kWindows windows of equal count.
std::vector<std::span<const data::LlmRequest* const>>
windowsOf(const std::vector<const data::LlmRequest*>& served)
{
    std::vector<std::span<const data::LlmRequest* const>> out;
    const std::size_t n = served.size();
    for (int w = 0; w < kWindows; ++w) {
        const std::size_t begin = n * std::size_t(w) / kWindows;
        const std::size_t end = n * std::size_t(w + 1) / kWindows;
        out.emplace_back(served.data() + begin, end - begin);
    }
    return out;
}

std::string windowLabel(int w)
{
    return "window " + std::to_string(w + 1) + " of " + std::to_string(kWindows) +
           " (consecutive arrivals, p90)";
}

struct MetricSpec
{
    Stage stage;
    std::string metric, unit;
    double probability = 0.99; ///< Of the whole run; windows use p90 (enough samples each).
    double scale = 1e3;        ///< Seconds to the display unit.
    RequestValue value;
};

/// A per-request metric: whole-run percentile with its interval; windows for persistence.
std::optional<StageMetric> requestMetric(const data::LlmRun& b, const data::LlmRun& c,
                                         const MetricSpec& spec, double practical)
{
    const auto sb = servedInOrder(b);
    const auto sc = servedInOrder(c);
    auto vb = valuesOf(sb, spec.value);
    auto vc = valuesOf(sc, spec.value);
    if (vb.empty() || vc.empty())
        return std::nullopt;
    StageMetric m;
    m.stage = spec.stage;
    m.metric = spec.metric;
    m.unit = spec.unit;
    m.source = "LLM runs";
    m.overallLabel = "whole run (" + std::to_string(vb.size()) + " vs " +
                     std::to_string(vc.size()) + " requests)";
    m.overall = compare(percentileInterval(vb, spec.probability, spec.scale),
                        percentileInterval(vc, spec.probability, spec.scale), practical);
    const auto wb = windowsOf(sb);
    const auto wc = windowsOf(sc);
    std::vector<Delta> deltas;
    std::vector<std::string> labels;
    for (int w = 0; w < kWindows; ++w) {
        const auto x = valuesOf(wb[std::size_t(w)], spec.value);
        const auto y = valuesOf(wc[std::size_t(w)], spec.value);
        if (x.size() < 10 || y.size() < 10)
            continue;
        deltas.push_back(compare(percentileInterval(x, 0.9, spec.scale),
                                 percentileInterval(y, 0.9, spec.scale), practical));
        labels.push_back(windowLabel(w));
        m.slices.push_back({labels.back(), deltas.back()});
    }
    m.persistence = persistenceAcrossWindows(deltas, labels);
    return m;
}

/// An engine-series quantity: mean per window of samples (Student t), mean over the run.
std::optional<StageMetric> seriesMetric(const data::LlmRun& b, const data::LlmRun& c, Stage stage,
                                        const std::string& metric, const std::string& unit,
                                        double (*value)(const data::LlmEngineSample&),
                                        double practical)
{
    if (b.engineSeries.size() < 2 * kWindows || c.engineSeries.size() < 2 * kWindows)
        return std::nullopt;
    auto values = [value](const std::vector<data::LlmEngineSample>& series, std::size_t begin,
                          std::size_t end) {
        std::vector<double> out;
        for (std::size_t i = begin; i < end; ++i)
            out.push_back(value(series[i]));
        return out;
    };
    StageMetric m;
    m.stage = stage;
    m.metric = metric;
    m.unit = unit;
    m.source = "LLM engine series";
    m.overallLabel = "whole run (" + std::to_string(b.engineSeries.size()) + " vs " +
                     std::to_string(c.engineSeries.size()) + " samples)";
    m.overall = compare(meanInterval(values(b.engineSeries, 0, b.engineSeries.size())),
                        meanInterval(values(c.engineSeries, 0, c.engineSeries.size())), practical);
    std::vector<Delta> deltas;
    std::vector<std::string> labels;
    for (int w = 0; w < kWindows; ++w) {
        auto range = [w](std::size_t n) {
            return std::pair{n * std::size_t(w) / kWindows, n * std::size_t(w + 1) / kWindows};
        };
        const auto [b0, b1] = range(b.engineSeries.size());
        const auto [c0, c1] = range(c.engineSeries.size());
        deltas.push_back(compare(meanInterval(values(b.engineSeries, b0, b1)),
                                 meanInterval(values(c.engineSeries, c0, c1)), practical));
        labels.push_back("window " + std::to_string(w + 1) + " of " + std::to_string(kWindows) +
                         " (engine samples, mean)");
        m.slices.push_back({labels.back(), deltas.back()});
    }
    m.persistence = persistenceAcrossWindows(deltas, labels);
    return m;
}

/// A figure the tool reported for the whole run, without an interval (twice the threshold).
std::optional<StageMetric> reportedMetric(Stage stage, const std::string& metric,
                                          const std::string& unit, std::optional<double> b,
                                          std::optional<double> c, bool higherIsWorse,
                                          double practical)
{
    if (!b || !c)
        return std::nullopt;
    StageMetric m;
    m.stage = stage;
    m.metric = metric;
    m.unit = unit;
    m.source = "LLM runs (reported)";
    m.overallLabel = "whole run";
    m.overall = compare({*b}, {*c}, practical);
    m.higherIsWorse = higherIsWorse;
    return m;
}

std::optional<double> beyondQueue(const data::LlmRequest& r)
{
    if (!r.ttftS)
        return std::nullopt;
    return *r.ttftS - r.queueS.value_or(0.0);
}

std::vector<MetricSpec> requestSpecs(bool queueRecorded)
{
    std::vector<MetricSpec> specs;
    if (queueRecorded)
        specs.push_back({Stage::AdmissionQueue, "queue time p99", "ms", 0.99, 1e3,
                         [](const data::LlmRequest& r) { return r.queueS; }});
    specs.push_back({Stage::SchedulerStep,
                     queueRecorded ? "TTFT beyond queue p99" : "TTFT p99 (queue not recorded)",
                     "ms", 0.99, 1e3, beyondQueue});
    specs.push_back({Stage::SchedulerStep, "prefill time per prompt token (median)", "µs", 0.5, 1e6,
                     [](const data::LlmRequest& r) -> std::optional<double> {
                         const auto t = beyondQueue(r);
                         if (!t || !r.promptTokens || *r.promptTokens <= 0)
                             return std::nullopt;
                         return *t / *r.promptTokens;
                     }});
    if (queueRecorded)
        specs.push_back({Stage::SchedulerStep, "TTFT p99", "ms", 0.99, 1e3,
                         [](const data::LlmRequest& r) { return r.ttftS; }});
    specs.push_back({Stage::DecodeIterations, "TPOT p99", "ms", 0.99, 1e3,
                     [](const data::LlmRequest& r) { return r.tpotS; }});
    specs.push_back({Stage::DecodeIterations, "TPOT median", "ms", 0.5, 1e3,
                     [](const data::LlmRequest& r) { return r.tpotS; }});
    specs.push_back({Stage::DecodeIterations, "ITL p99", "ms", 0.99, 1e3,
                     [](const data::LlmRequest& r) -> std::optional<double> {
                         if (r.itlS.empty())
                             return std::nullopt;
                         return *std::ranges::max_element(r.itlS);
                     }});
    specs.push_back({Stage::CompletionTail, "p99 latency (E2E)", "ms", 0.99, 1e3,
                     [](const data::LlmRequest& r) { return r.e2eS; }});
    return specs;
}

bool recordsQueue(const data::LlmRun& run)
{
    return std::ranges::any_of(run.requests, [](const auto& r) { return r.queueS.has_value(); });
}

} // namespace

bool isLlmAlarmMetric(const StageMetric& metric)
{
    return metric.source.rfind("LLM", 0) == 0 &&
           (metric.metric.rfind("TTFT p99", 0) == 0 || metric.metric == "TPOT p99");
}

std::vector<StageMetric> llmStageMetrics(const data::LlmRun& baseline,
                                         const data::LlmRun& candidate, double practical,
                                         const data::PowerSeries* baselinePower,
                                         const data::PowerSeries* candidatePower)
{
    std::vector<StageMetric> out;
    auto add = [&out](std::optional<StageMetric> m) {
        if (m)
            out.push_back(std::move(*m));
    };
    const bool queue = recordsQueue(baseline) && recordsQueue(candidate);
    for (const auto& spec : requestSpecs(queue))
        add(requestMetric(baseline, candidate, spec, practical));
    add(seriesMetric(
        baseline, candidate, Stage::AdmissionQueue, "waiting requests (mean)", "requests",
        [](const data::LlmEngineSample& s) { return double(s.waiting); }, practical));
    add(seriesMetric(
        baseline, candidate, Stage::KvCache, "KV cache use (mean)", "%",
        [](const data::LlmEngineSample& s) { return s.kvCacheUsePct; }, practical));
    const std::vector<std::string> preemptions = {"num_preemptions", "preemptions",
                                                  "num_preemptions_total"};
    add(reportedMetric(Stage::KvCache, "preemptions", "", llmKnobNumber(baseline, preemptions),
                       llmKnobNumber(candidate, preemptions), true, practical));
    add(reportedMetric(Stage::CompletionTail, "output tokens/s", "tokens/s",
                       baseline.outputTokensPerS, candidate.outputTokensPerS, false, practical));
    add(reportedMetric(Stage::CompletionTail, "goodput", "requests/s", baseline.goodputPerS,
                       candidate.goodputPerS, false, practical));
    auto energy = reportedMetric(Stage::CompletionTail, "energy per output token", "J",
                                 analysis::llmEnergyPerOutputTokenJ(baseline, baselinePower),
                                 analysis::llmEnergyPerOutputTokenJ(candidate, candidatePower),
                                 true, practical);
    if (energy && !(analysis::llmEnergy(baseline) && analysis::llmEnergy(candidate)))
        energy->source = "LLM runs and their power logs";
    add(std::move(energy));
    return out;
}

} // namespace bs::playbook
