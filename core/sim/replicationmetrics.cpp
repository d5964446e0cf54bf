#include "sim/replicationmetrics.h"

#include "sim/estimate.h"
#include "sim/percentiles.h"

#include <algorithm>
#include <limits>
#include <span>

namespace bs::sim {

namespace {

using Parts = std::vector<std::span<const double>>;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

Parts wholeStores(const Recorder& recorder)
{
    Parts parts;
    for (const auto& store : recorder.latencyStores())
        parts.emplace_back(store);
    return parts;
}

/// Mean, min, max and the sketch of all latencies in one pass; exact quantiles after.
void summarizeLatency(const Recorder& recorder, ReplicationMetrics& out)
{
    const Parts parts = wholeStores(recorder);
    double sum = 0.0;
    double lo = kInfinity;
    double hi = 0.0;
    std::uint64_t n = 0;
    for (const auto& part : parts) {
        for (double v : part) {
            sum += v;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            out.latencyHistogram.add(v);
        }
        n += part.size();
    }
    out.measured = n;
    if (n == 0)
        return;
    out.latencyMeanS = sum / double(n);
    out.latencyMinS = lo;
    out.latencyMaxS = hi;
    const auto q =
        exactQuantiles(std::span<const std::span<const double>>(parts), kReportedQuantiles);
    std::copy(q.begin(), q.end(), out.latencyQuantilesS.begin());
}

void summarizeWait(const Recorder& recorder, ReplicationMetrics& out)
{
    out.waitHistogram = recorder.waits();
    const auto n = out.waitHistogram.count();
    if (n == 0)
        return;
    out.waitMeanS = recorder.waitSumS() / double(n);
    for (std::size_t i = 0; i < std::size(kReportedQuantiles); ++i)
        out.waitQuantilesS[i] = out.waitHistogram.quantile(kReportedQuantiles[i]);
    out.waitMinS = out.waitHistogram.quantile(0.0);
    out.waitMaxS = out.waitHistogram.quantile(1.0);
}

void summarizeServers(const Recorder& recorder, ReplicationMetrics& out)
{
    const double window = recorder.windowEndS() - recorder.windowStartS();
    const bool hasWindow = window > 0.0;
    out.throughputPerS = hasWindow ? double(recorder.completionsInWindow()) / window : kNaN;
    double busyTotal = 0.0;
    for (double busy : recorder.busyInWindowS()) {
        out.utilisation.push_back(hasWindow ? busy / window : kNaN);
        busyTotal += busy;
    }
    out.batchSizeCounts = recorder.batchSizeCounts();
    std::uint64_t batches = 0;
    std::uint64_t items = 0;
    for (std::size_t b = 0; b < out.batchSizeCounts.size(); ++b) {
        batches += out.batchSizeCounts[b];
        items += out.batchSizeCounts[b] * b;
    }
    out.meanBatch = batches > 0 ? double(items) / double(batches) : kNaN;
    out.peakTemperatureC = recorder.peakTemperatureC();
    if (recorder.hasEnergy() && hasWindow) {
        const double idle = double(out.utilisation.size()) * window - busyTotal;
        const double energy = recorder.busyEnergyJ() + recorder.idleW() * idle;
        out.meanPowerW = energy / window;
        out.energyPerRequestJ = recorder.completionsInWindow() > 0
                                    ? energy / double(recorder.completionsInWindow())
                                    : kNaN;
    }
}

void summarizeStreams(const Recorder& recorder, const Scenario& scenario, ReplicationMetrics& out)
{
    const double window = recorder.windowEndS() - recorder.windowStartS();
    std::vector<double> p99;
    std::vector<double> share;
    for (std::size_t s = 0; s < recorder.latencyStores().size(); ++s) {
        const auto& store = recorder.latencyStores()[s];
        ReplicationMetrics::Stream stream;
        stream.requests = store.size();
        stream.throughputPerS = window > 0.0 ? double(store.size()) / window : kNaN;
        if (!store.empty()) {
            double sum = 0.0;
            for (double v : store)
                sum += v;
            stream.latencyMeanS = sum / double(store.size());
            const auto q = exactQuantiles(std::span<const double>(store), std::array{0.5, 0.99});
            stream.latencyP50S = q[0];
            stream.latencyP99S = q[1];
        }
        p99.push_back(stream.latencyP99S);
        share.push_back(stream.throughputPerS / scenario.streams[s].weight);
        out.streams.push_back(stream);
    }
    out.jainP99 = jainIndex(p99);
    out.jainThroughputPerWeight = jainIndex(share);
}

void buildSeries(const Recorder& recorder, bool latencyPercentiles, ReplicationMetrics& out)
{
    const auto& windows = recorder.windows();
    const auto& begin = recorder.windowStoreBegin();
    const auto& stores = recorder.latencyStores();
    const std::size_t streams = stores.size();
    TimeSeries& series = out.series;
    series.windowS = recorder.windowS();
    for (std::size_t w = 0; w < windows.size(); ++w) {
        const auto& win = windows[w];
        series.startS.push_back(recorder.seriesStartS() + double(w) * series.windowS);
        series.requests.push_back(win.requests);
        series.batches.push_back(win.batches);
        const double batches = double(win.batches);
        series.meanBatch.push_back(win.batches ? double(win.batchItems) / batches : kNaN);
        series.queueDepthMean.push_back(win.batches ? double(win.queueDepthSum) / batches : kNaN);
        series.queueDepthMax.push_back(win.queueDepthMax);
        series.batchCapMean.push_back(win.batches ? double(win.capSum) / batches : kNaN);
        if (!latencyPercentiles) {
            series.latencyP50S.push_back(kNaN);
            series.latencyP90S.push_back(kNaN);
            series.latencyP99S.push_back(kNaN);
            continue;
        }
        Parts parts;
        for (std::size_t s = 0; s < streams; ++s) {
            const std::size_t from = begin[w * streams + s];
            const std::size_t to =
                w + 1 < windows.size() ? begin[(w + 1) * streams + s] : stores[s].size();
            parts.emplace_back(stores[s].data() + from, to - from);
        }
        const auto q = exactQuantiles(std::span<const std::span<const double>>(parts),
                                      std::array{0.5, 0.9, 0.99});
        series.latencyP50S.push_back(q[0]);
        series.latencyP90S.push_back(q[1]);
        series.latencyP99S.push_back(q[2]);
    }
}

} // namespace

ReplicationMetrics summarizeReplication(Recorder& recorder, const Scenario& scenario,
                                        bool seriesLatencyPercentiles)
{
    ReplicationMetrics out;
    summarizeLatency(recorder, out);
    summarizeWait(recorder, out);
    summarizeServers(recorder, out);
    if (scenario.streams.size() > 1 || scenario.namedStreams)
        summarizeStreams(recorder, scenario, out);
    buildSeries(recorder, seriesLatencyPercentiles, out);
    out.records = std::move(recorder.records());
    return out;
}

} // namespace bs::sim
