#include "sim/estimate.h"
#include "sim/replicationmetrics.h"

#include <algorithm>
#include <functional>

namespace bs::sim {

namespace {

using Metrics = std::vector<ReplicationMetrics>;

Estimate over(const Metrics& reps, const std::function<double(const ReplicationMetrics&)>& get)
{
    std::vector<double> values;
    values.reserve(reps.size());
    for (const auto& r : reps)
        values.push_back(get(r));
    return estimateOf(values);
}

DistributionSummary summary(const Metrics& reps, bool latency)
{
    DistributionSummary out;
    out.count = reps.front().measured;
    auto q = [&](std::size_t i) {
        return over(reps, [&](const ReplicationMetrics& r) {
            return latency ? r.latencyQuantilesS[i] : r.waitQuantilesS[i];
        });
    };
    out.mean = over(
        reps, [&](const ReplicationMetrics& r) { return latency ? r.latencyMeanS : r.waitMeanS; });
    out.p50 = q(0);
    out.p90 = q(1);
    out.p95 = q(2);
    out.p99 = q(3);
    out.p999 = q(4);
    LogHistogram pooled;
    for (const auto& r : reps) {
        const double lo = latency ? r.latencyMinS : r.waitMinS;
        const double hi = latency ? r.latencyMaxS : r.waitMaxS;
        out.min = std::isnan(out.min) ? lo : std::min(out.min, lo);
        out.max = std::isnan(out.max) ? hi : std::max(out.max, hi);
        pooled.merge(latency ? r.latencyHistogram : r.waitHistogram);
    }
    pooled.coarsen(8, out.histogramEdgesS, out.histogramCounts);
    return out;
}

void reduceStreams(const Metrics& reps, Result& result)
{
    const auto& scenario = result.scenario;
    if (reps.front().streams.empty())
        return;
    for (std::size_t s = 0; s < scenario.streams.size(); ++s) {
        StreamResult stream;
        stream.name = scenario.streams[s].name;
        stream.weight = scenario.streams[s].weight;
        for (const auto& r : reps)
            stream.requests += r.streams[s].requests;
        stream.throughputPerS =
            over(reps, [s](const auto& r) { return r.streams[s].throughputPerS; });
        stream.latencyMeanS = over(reps, [s](const auto& r) { return r.streams[s].latencyMeanS; });
        stream.latencyP50S = over(reps, [s](const auto& r) { return r.streams[s].latencyP50S; });
        stream.latencyP99S = over(reps, [s](const auto& r) { return r.streams[s].latencyP99S; });
        result.streams.push_back(stream);
    }
    result.jainP99 = over(reps, [](const auto& r) { return r.jainP99; });
    result.jainThroughputPerWeight =
        over(reps, [](const auto& r) { return r.jainThroughputPerWeight; });
}

} // namespace

void reduceReplications(std::vector<ReplicationMetrics>& reps, Result& result)
{
    for (const auto& r : reps) {
        result.seeds.push_back(r.seed);
        result.perReplication.push_back(
            {r.seed, r.throughputPerS, r.latencyMeanS, r.latencyQuantilesS[3], r.meanBatch});
    }
    result.throughputPerS = over(reps, [](const auto& r) { return r.throughputPerS; });
    result.latency = summary(reps, true);
    result.queueWait = summary(reps, false);
    result.latencyMethod = "exact order statistics, linear interpolation (numpy 'linear')";
    result.queueWaitMethod = "log-bucket sketch (128 buckets per octave), relative error <= 0.4%";
    result.batchSizeCounts.assign(reps.front().batchSizeCounts.size(), 0);
    for (const auto& r : reps) {
        for (std::size_t b = 0; b < r.batchSizeCounts.size(); ++b)
            result.batchSizeCounts[b] += r.batchSizeCounts[b];
    }
    result.meanBatchSize = over(reps, [](const auto& r) { return r.meanBatch; });
    for (std::size_t s = 0; s < reps.front().utilisation.size(); ++s)
        result.serverUtilisation.push_back(
            over(reps, [s](const auto& r) { return r.utilisation[s]; }));
    if (!std::isnan(reps.front().meanPowerW)) {
        result.energyPerRequestJ = over(reps, [](const auto& r) { return r.energyPerRequestJ; });
        result.meanPowerW = over(reps, [](const auto& r) { return r.meanPowerW; });
    }
    if (!std::isnan(reps.front().peakTemperatureC))
        result.peakTemperatureC = over(reps, [](const auto& r) { return r.peakTemperatureC; });
    reduceStreams(reps, result);
    result.timeSeries = std::move(reps.front().series);
    result.records = std::move(reps.front().records);
}

} // namespace bs::sim
