#pragma once

#include "sim/runlength.h"
#include "sim/scenario.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace bs::sim {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A metric over the replications: the mean of the per-replication values and its 95%
/// confidence interval (Student t with replications - 1 degrees of freedom). The interval is
/// NaN with a single replication.
struct Estimate
{
    double value = kNaN;
    double ciLow = kNaN;
    double ciHigh = kNaN;

    double halfWidth() const { return 0.5 * (ciHigh - ciLow); }
};

/// Summary of a latency-like quantity (seconds). Percentiles are estimated per replication and
/// then averaged; min and max are over all replications; the histogram pools all replications.
struct DistributionSummary
{
    std::uint64_t count = 0; ///< Values per replication.
    Estimate mean;
    Estimate p50;
    Estimate p90;
    Estimate p95;
    Estimate p99;
    Estimate p999;
    double min = kNaN;
    double max = kNaN;
    std::vector<double> histogramEdgesS; ///< counts.size() + 1 edges, log-spaced (8 per octave).
    std::vector<std::uint64_t> histogramCounts;
};

struct StreamResult
{
    std::string name;
    double weight = 1.0;
    std::uint64_t requests = 0; ///< Measured requests of this stream, all replications.
    Estimate throughputPerS;    ///< Its measured requests / measurement window.
    Estimate latencyMeanS;
    Estimate latencyP50S;
    Estimate latencyP99S;
};

/// Windowed behaviour of replication 0 over the measurement, for plots. A window holds the
/// batches dispatched in [startS, startS + windowS) that carry at least one measured request.
struct TimeSeries
{
    double windowS = 0.0;
    std::vector<double> startS;
    std::vector<std::uint64_t> requests; ///< Measured requests dispatched in the window.
    std::vector<std::uint64_t> batches;
    std::vector<double> meanBatch;
    std::vector<double> queueDepthMean; ///< Requests waiting at the dispatch decisions.
    std::vector<std::uint64_t> queueDepthMax;
    std::vector<double> batchCapMean; ///< The policy's cap (changes under adaptive).
    std::vector<double> latencyP50S;  ///< Exact percentiles of the window's measured requests.
    std::vector<double> latencyP90S;
    std::vector<double> latencyP99S;
};

/// One measured request of replication 0 (only when records are asked for).
struct RequestRecord
{
    std::uint64_t index = 0; ///< Global arrival number (warm-up requests included).
    std::uint32_t stream = 0;
    std::uint32_t server = 0;
    std::uint32_t batchSize = 0;
    double arrivalS = 0.0;
    double dispatchS = 0.0;
    double completionS = 0.0;
};

struct Stability
{
    bool stable = true;
    double offeredRatePerS = kNaN;  ///< Long-run mean arrival rate, all streams.
    double capacityRatePerS = kNaN; ///< servers * best b / sustained service time of b.
    double rho = kNaN;              ///< offered / capacity.
    std::string reason;             ///< Why it is unstable, naming the scenario keys.
};

/// The headline numbers of one replication.
struct ReplicationSummary
{
    std::uint64_t seed = 0;
    double throughputPerS = kNaN;
    double latencyMeanS = kNaN;
    double latencyP99S = kNaN;
    double meanBatch = kNaN;
};

/// Everything a simulation measured. JSON form: resultToJson (what the CLI's --json prints and
/// the GUI and reports read).
struct Result
{
    Scenario scenario; ///< As run (CLI overrides applied).
    Stability stability;
    RunCoverage coverage;             ///< How many cycles of its traffic each replication covered.
    std::vector<std::uint64_t> seeds; ///< One per replication.

    Estimate throughputPerS; ///< Completions in the measurement window / its length.
    DistributionSummary latency;
    DistributionSummary queueWait;
    std::string latencyMethod;
    std::string queueWaitMethod;

    std::vector<std::uint64_t> batchSizeCounts; ///< [b] = batches of size b, all replications.
    Estimate meanBatchSize;
    std::vector<Estimate> serverUtilisation;
    std::optional<Estimate> energyPerRequestJ; ///< Absent without power information.
    std::optional<Estimate> meanPowerW;        ///< All servers together.
    /// Per replication the hottest device temperature (°C) at the end of a measured batch, over
    /// all servers; absent unless the service model is thermal (accelerator).
    std::optional<Estimate> peakTemperatureC;

    std::vector<StreamResult> streams;
    Estimate jainP99;                 ///< Jain's index over per-stream p99 latency.
    Estimate jainThroughputPerWeight; ///< Jain's index over throughput / weight.

    TimeSeries timeSeries;
    std::vector<RequestRecord> records;
    std::vector<ReplicationSummary> perReplication;
    std::vector<std::string> warnings;
};

} // namespace bs::sim
