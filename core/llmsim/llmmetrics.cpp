// Per-replication metrics from the requests and steps of one engine run.
#include "llmsim/llmsimulator.h"
#include "sim/loghistogram.h"
#include "sim/percentiles.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace bs::llmsim {

namespace {

Summary exactSummary(std::vector<double> values)
{
    Summary s;
    s.count = values.size();
    if (values.empty())
        return s;
    s.meanS = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    constexpr double probabilities[] = {0.50, 0.90, 0.99};
    const auto q = sim::exactQuantiles(std::span<const double>(values), probabilities);
    s.p50S = q[0];
    s.p90S = q[1];
    s.p99S = q[2];
    s.maxS = *std::max_element(values.begin(), values.end());
    return s;
}

template <typename Field>
Summary summaryOf(std::span<const RequestResult> requests, Field field)
{
    std::vector<double> values;
    values.reserve(requests.size());
    for (const RequestResult& r : requests)
        values.push_back(field(r));
    return exactSummary(std::move(values));
}

/// Pooled inter-token latency: the exact mean and max from the requests, the percentiles from
/// the sketch of every gap (relative error at most 0.4%).
Summary itlSummary(const EngineRun& run)
{
    Summary s;
    const auto requests = std::span<const RequestResult>(run.requests);
    double sum = 0.0;
    std::uint64_t gaps = 0;
    double maxGap = 0.0;
    for (const RequestResult& r : requests) {
        if (r.outputTokens < 2)
            continue;
        sum += r.finishS - r.firstTokenS;
        gaps += std::uint64_t(r.outputTokens - 1);
        maxGap = std::max(maxGap, r.maxItlS);
    }
    s.count = gaps;
    if (gaps) {
        s.meanS = sum / double(gaps);
        s.maxS = maxGap;
        s.p50S = run.itlGaps.quantile(0.50);
        s.p90S = run.itlGaps.quantile(0.90);
        s.p99S = run.itlGaps.quantile(0.99);
    }
    return s;
}

bool meetsSla(const RequestResult& r, const SlaSpec& sla)
{
    const bool ttftOk = sla.ttftMs <= 0.0 || r.ttftS * 1e3 <= sla.ttftMs;
    const bool tpotOk = sla.tpotMs <= 0.0 || r.tpotS * 1e3 <= sla.tpotMs;
    return ttftOk && tpotOk;
}

void stepStatistics(std::span<const StepRecord> steps, const EngineConfig& config,
                    ReplicationMetrics& m)
{
    m.steps = std::int64_t(steps.size());
    double tokens = 0.0, running = 0.0, inSystemTime = 0.0;
    for (const StepRecord& step : steps) {
        tokens += step.scheduledTokens;
        running += step.running;
        inSystemTime += double(step.running + step.waiting) * step.durationS;
        m.preemptions += step.preempted;
        m.maxRunning = std::max(m.maxRunning, step.running);
        m.maxWaiting = std::max(m.maxWaiting, step.waiting);
        if (config.numGpuBlocks > 0)
            m.peakKvUse =
                std::max(m.peakKvUse, double(step.kvBlocksUsed) / double(config.numGpuBlocks));
    }
    if (!steps.empty()) {
        m.meanBatchTokens = tokens / double(steps.size());
        m.meanRunning = running / double(steps.size());
    }
    if (m.durationS > 0.0)
        m.meanInSystem = inSystemTime / m.durationS;
}

/// Energy from the first arrival to the last token: the steps at their power (summed by the
/// engine) plus idle power over the time between them.
void energyStatistics(const EngineRun& run, double outputTokens, ReplicationMetrics& m)
{
    if (!std::isfinite(run.idlePowerW) || !(m.durationS > 0.0))
        return;
    double busyS = 0.0;
    for (const StepRecord& step : run.steps)
        busyS += step.durationS;
    m.energyJ = run.busyEnergyJ + run.idlePowerW * std::max(0.0, m.durationS - busyS);
    m.meanPowerW = m.energyJ / m.durationS;
    m.energyPerOutputTokenJ = m.energyJ / outputTokens;
    m.peakTemperatureC = run.peakTemperatureC;
}

} // namespace

ReplicationMetrics summarise(const EngineRun& run, const EngineConfig& config, const SlaSpec& sla)
{
    const auto requests = std::span<const RequestResult>(run.requests);
    const auto steps = std::span<const StepRecord>(run.steps);
    ReplicationMetrics m;
    if (requests.empty())
        return m;
    m.ttft = summaryOf(requests, [](const RequestResult& r) { return r.ttftS; });
    m.e2e = summaryOf(requests, [](const RequestResult& r) { return r.e2eS; });
    m.queue = summaryOf(requests, [](const RequestResult& r) { return r.queueS; });
    std::vector<double> tpots;
    for (const RequestResult& r : requests)
        if (r.outputTokens > 1)
            tpots.push_back(r.tpotS);
    m.tpot = exactSummary(std::move(tpots));
    m.itl = itlSummary(run);

    double firstArrival = requests.front().arrivalS, lastFinish = 0.0;
    double outputTokens = 0.0, promptTokens = 0.0;
    std::uint64_t good = 0;
    for (const RequestResult& r : requests) {
        firstArrival = std::min(firstArrival, r.arrivalS);
        lastFinish = std::max(lastFinish, r.finishS);
        outputTokens += r.outputTokens;
        promptTokens += r.promptTokens;
        good += meetsSla(r, sla) ? 1 : 0;
    }
    m.durationS = lastFinish - firstArrival;
    if (m.durationS > 0.0) {
        m.requestsPerS = double(requests.size()) / m.durationS;
        m.outputTokensPerS = outputTokens / m.durationS;
        m.totalTokensPerS = (outputTokens + promptTokens) / m.durationS;
        m.goodputPerS = double(good) / m.durationS;
    }
    m.goodFraction = double(good) / double(requests.size());
    stepStatistics(steps, config, m);
    energyStatistics(run, outputTokens, m);
    return m;
}

} // namespace bs::llmsim
