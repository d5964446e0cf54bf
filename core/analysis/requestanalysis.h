#pragma once

#include "analysis/arrivalfit.h"
#include "analysis/batchmeans.h"
#include "analysis/distribution.h"
#include "data/requesttrace.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bs::analysis {

struct RequestAnalysisOptions
{
    /// Window of the time series (seconds); 0 chooses a round value giving about 100 windows.
    double windowS = 0.0;
    /// A fixed offered rate the load generator claimed (requests/s): enables the coordinated
    /// omission check when the trace has no intended send times.
    std::optional<double> claimedRatePerS;
    std::size_t cdfPoints = 512;
    std::uint64_t bootstrapSeed = 1; ///< Fixed, so the tail intervals are reproducible.
    int bootstrapReplicates = 200;
    bool arrivals = true; ///< Characterise and fit the arrival process.
};

/// One percentile over the windows of a time series; NaN where a window is empty.
struct WindowPercentiles
{
    double probability = 0.0;
    std::vector<double> value;
    std::vector<double> ciLow; ///< NaN where the interval is unbounded.
    std::vector<double> ciHigh;
    std::vector<std::uint8_t> sufficient; ///< 1 when the window holds enough samples.
};

/// Behaviour over time. Window k covers [startS[k], startS[k] + windowS) in trace seconds.
/// Latency and queue wait percentiles group requests by arrival; throughput counts completions.
struct RequestTimeSeries
{
    double windowS = 0.0;
    std::vector<double> startS;
    std::vector<std::uint64_t> arrivals;
    std::vector<std::uint64_t> completions;
    std::vector<double> throughputPerS;       ///< Completions in the window / windowS.
    std::vector<WindowPercentiles> latency;   ///< One per kReportedPercentiles entry.
    std::vector<WindowPercentiles> queueWait; ///< Empty without dispatch times.
};

/// One part of the latency in the tail against the median.
struct TailComponent
{
    std::string name;          ///< "queue_wait", "batch_formation", "server_wait", "service".
    double medianMeanS = kNaN; ///< Mean of the part for requests in the median band.
    double tailMeanS = kNaN;   ///< Mean of the part for requests at or above p99.
    double excessS = kNaN;     ///< tailMeanS - medianMeanS.
    double share = kNaN;       ///< excessS / total excess.
    double ciLowS = kNaN;      ///< Bootstrap 95% interval of excessS.
    double ciHighS = kNaN;
};

/// The tail (>= p99) against the median band (p49..p51) split into additive parts of latency.
struct TailDecomposition
{
    bool available = false;
    std::string reason;
    double p50S = kNaN;
    double p99S = kNaN;
    std::uint64_t tailCount = 0;
    std::uint64_t medianCount = 0;
    double excessS = kNaN; ///< Mean latency of the tail minus that of the median band.
    std::vector<TailComponent> components; ///< Largest excess first.
    std::string method;
};

struct BatchStatistics
{
    bool available = false;
    std::string source; ///< "batch_id" (exact) or "batch_size" (batches estimated).
    std::string reason;
    std::uint64_t batches = 0;
    double meanSize = kNaN;              ///< Mean over batches.
    double meanSizeSeenByRequest = kNaN; ///< Mean over requests (larger: big batches hold more).
    std::vector<std::uint64_t> batchesBySize; ///< [b] = batches of size b.
    Distribution formationS;  ///< Last minus first arrival of each batch (batch_id only).
    Distribution oldestWaitS; ///< Dispatch minus first arrival (batch_id and dispatch).
};

struct StreamStatistics
{
    std::string name;
    std::uint64_t requests = 0;
    double throughputPerS = kNaN; ///< Completed requests / trace span.
    double meanS = kNaN;
    PercentileEstimate p50;
    PercentileEstimate p99;
};

/// Fairness across streams: Jain's index (sum x)^2 / (n sum x^2) over per-stream p99 latency and
/// throughput, and how far the worst stream's p99 is from the best and from the whole trace.
struct Fairness
{
    bool available = false;
    std::string reason;
    std::size_t streams = 0;
    double jainP99 = kNaN;
    double jainThroughput = kNaN;
    double worstToBestP99 = kNaN;
    double worstToOverallP99 = kNaN;
    std::string worstStream;
    std::string bestStream;
    bool allSufficient = false; ///< Every stream's p99 has enough samples.
};

/// Latency recomputed from intended send times (or a claimed fixed rate) against the measured.
struct CoordinatedOmission
{
    bool checked = false;
    std::string source; ///< "intended_times" or "claimed_rate".
    std::string reason; ///< Why not checked.
    double claimedRatePerS = kNaN;
    std::vector<double> probabilities; ///< kReportedPercentiles.
    std::vector<double> measuredS;     ///< completion - arrival.
    std::vector<double> fromIntendedS; ///< completion - intended.
    std::vector<double> differenceS;
    double meanSendLagS = kNaN; ///< arrival - intended.
    double maxSendLagS = kNaN;
    double lateFraction = kNaN;   ///< Requests sent more than 1% of the median latency late.
    double scheduleDriftS = kNaN; ///< Last arrival minus its intended time.
    std::string verdict;
};

/// Everything the request-trace views show.
struct RequestAnalysis
{
    std::string name;
    std::uint64_t requests = 0;
    std::uint64_t completed = 0;
    double originEpochS = 0.0;
    double firstArrivalS = kNaN;
    double spanS = kNaN; ///< First arrival to last completion (or last arrival).
    /// completion - arrival; count 0 without completions. Its percentile intervals are
    /// widened to batch means when latencies are autocorrelated (latencyDependence).
    Distribution latency;
    SampleDependence latencyDependence;
    Distribution queueWait; ///< dispatch - arrival; count 0 without dispatch times.
    Distribution service;   ///< completion - dispatch.
    Distribution inputTokens;
    Distribution outputTokens;
    RequestTimeSeries timeSeries;
    TailDecomposition tail;
    BatchStatistics batches;
    std::vector<StreamStatistics> streams;
    Fairness fairness;
    CoordinatedOmission coordinatedOmission;
    ArrivalCharacterisation arrivals;
    std::vector<std::string> notes;
};

/// Analyses a request trace. Every artifact the trace's columns allow is computed; the others
/// say why they are missing. Errors: columns of the wrong length, non-finite times, completion
/// before arrival, dispatch outside [arrival, completion], a window giving over 100,000
/// windows, cancellation. Percentiles are exact (radix sort once, then selection per window and
/// stream). Thread contract: pure function of its inputs; progress is used on the caller's thread.
Expected<RequestAnalysis> analyzeRequests(const data::RequestTrace& trace,
                                          const RequestAnalysisOptions& options = {},
                                          Progress& progress = Progress::null(),
                                          const CancelToken& cancel = CancelToken());

} // namespace bs::analysis
