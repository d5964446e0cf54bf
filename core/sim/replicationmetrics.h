#pragma once

#include "sim/engine.h"
#include "sim/loghistogram.h"
#include "sim/recorder.h"
#include "sim/result.h"

#include <array>
#include <cstdint>
#include <vector>

namespace bs::sim {

/// The metrics of one replication, computed from its Recorder right after the run (inside the
/// parallel loop, so the 8-byte-per-request latency store is freed before the next one).
struct ReplicationMetrics
{
    EngineOutcome outcome;
    std::uint64_t seed = 0;
    std::uint64_t measured = 0;
    double throughputPerS = kNaN;
    double latencyMeanS = kNaN;
    double latencyMinS = kNaN;
    double latencyMaxS = kNaN;
    std::array<double, 5> latencyQuantilesS{kNaN, kNaN, kNaN, kNaN, kNaN};
    double waitMeanS = kNaN;
    double waitMinS = kNaN;
    double waitMaxS = kNaN;
    std::array<double, 5> waitQuantilesS{kNaN, kNaN, kNaN, kNaN, kNaN};
    LogHistogram latencyHistogram;
    LogHistogram waitHistogram;
    std::vector<std::uint64_t> batchSizeCounts;
    double meanBatch = kNaN;
    std::vector<double> utilisation;
    double energyPerRequestJ = kNaN;
    double meanPowerW = kNaN;
    double peakTemperatureC = kNaN; ///< Hottest device, end of a measured batch; NaN if none.
    struct Stream
    {
        std::uint64_t requests = 0;
        double throughputPerS = kNaN;
        double latencyMeanS = kNaN;
        double latencyP50S = kNaN;
        double latencyP99S = kNaN;
    };
    std::vector<Stream> streams;
    double jainP99 = kNaN;
    double jainThroughputPerWeight = kNaN;
    TimeSeries series;                  ///< Only when the recorder kept one.
    std::vector<RequestRecord> records; ///< Only when asked for.
};

/// Turns a finished replication's recorder into its metrics; without seriesLatencyPercentiles
/// the time series' latency percentiles are NaN (the rest of the series is kept).
ReplicationMetrics summarizeReplication(Recorder& recorder, const Scenario& scenario,
                                        bool seriesLatencyPercentiles = true);

/// Combines the replications, in index order, into the metrics of a Result: estimates with
/// confidence intervals, pooled histograms and batch counts, the time series and records of
/// replication 0. Fills the metric fields of `result`; scenario, stability and warnings are
/// the caller's.
void reduceReplications(std::vector<ReplicationMetrics>& replications, Result& result);

} // namespace bs::sim
