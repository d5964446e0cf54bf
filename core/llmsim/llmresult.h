#pragma once

#include "llmsim/kvcapacity.h"
#include "llmsim/llmscenario.h"
#include "sim/loghistogram.h"
#include "sim/result.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace bs::llmsim {

/// One served request, times in seconds from the run's start.
struct RequestResult
{
    double arrivalS = 0.0;
    std::int32_t promptTokens = 0;
    std::int32_t outputTokens = 0;
    double firstScheduledS = 0.0;
    double firstTokenS = 0.0;
    double finishS = 0.0;
    double ttftS = 0.0;  ///< First token - arrival, + the step's client_overhead_ms.
    double tpotS = 0.0;  ///< (last - first token) / (output - 1); 0 for a single output token.
    double e2eS = 0.0;   ///< Last token - arrival, + the step's client_overhead_ms.
    double queueS = 0.0; ///< First scheduled - arrival.
    double maxItlS = 0.0;
    std::int32_t preemptions = 0;
};

/// The engine at one step: what ran and what the queues held once it was scheduled.
struct StepRecord
{
    double startS = 0.0;
    double durationS = 0.0;
    std::int32_t scheduledTokens = 0;
    std::int32_t prefillTokens = 0;
    std::int32_t decodeSeqs = 0;
    std::int32_t running = 0;
    std::int32_t waiting = 0;
    std::int32_t preempted = 0;
    std::int32_t admitted = 0; ///< Requests admitted from waiting in this step.
    /// Board power of the replica during the step (roofline step only, else NaN). A float
    /// fills the padding before kvBlocksUsed; energy is summed in double by the engine.
    float powerW = std::numeric_limits<float>::quiet_NaN();
    std::int64_t kvBlocksUsed = 0;
};

/// Mean and exact percentiles (numpy 'linear') of one per-request metric, seconds.
struct Summary
{
    std::uint64_t count = 0;
    double meanS = sim::kNaN, p50S = sim::kNaN, p90S = sim::kNaN, p99S = sim::kNaN;
    double maxS = sim::kNaN;
};

/// The metrics of one replication.
struct ReplicationMetrics
{
    std::uint64_t seed = 0;
    Summary ttft, tpot, e2e, queue;
    Summary itl; ///< Pooled over every gap between tokens; percentiles from a 0.4% sketch.
    double durationS = 0.0; ///< First arrival to last token.
    double requestsPerS = 0.0, outputTokensPerS = 0.0, totalTokensPerS = 0.0;
    double goodputPerS = 0.0;  ///< Requests meeting the SLA per second.
    double goodFraction = 0.0; ///< Share of requests meeting the SLA.
    std::int64_t steps = 0, preemptions = 0;
    double meanBatchTokens = 0.0, meanRunning = 0.0;
    std::int32_t maxRunning = 0, maxWaiting = 0;
    double peakKvUse = 0.0; ///< Highest share of KV blocks in use at a step.
    /// Time-average of running + waiting over the run (from the steps), for Little's law.
    double meanInSystem = 0.0;
    /// Energy of the replica's GPUs from the first arrival to the last token: every step at
    /// its power plus idle power between steps. NaN unless the step model has a power model.
    double energyJ = sim::kNaN;
    double meanPowerW = sim::kNaN;            ///< energyJ / durationS.
    double energyPerOutputTokenJ = sim::kNaN; ///< energyJ / output tokens.
    /// Hottest device temperature at a step's end; NaN without a thermal model.
    double peakTemperatureC = sim::kNaN;
};

/// A whole run: every replication's metrics, their estimates, and replication 0 in detail.
struct LlmResult
{
    /// As run: a KV cache sized from memory has its block count filled in (kvCapacity says how).
    LlmScenario scenario;
    std::optional<KvCapacity> kvCapacity;
    /// The trace the arrivals were fitted to (scenario.arrivals holds the fitted Poisson spec).
    std::string arrivalsFittedFrom;
    std::vector<ReplicationMetrics> replications;
    std::vector<RequestResult> requests; ///< Replication 0, in arrival order.
    std::vector<StepRecord> steps;       ///< Replication 0.
    /// Replication 0's gaps between consecutive tokens of a request (what its itl metrics
    /// summarise), for the ITL CDF.
    sim::LogHistogram itlGaps;
};

} // namespace bs::llmsim
