#pragma once

#include "llmsim/llmresult.h"
#include "llmsim/steptimemodel.h"
#include "sim/loghistogram.h"
#include "util/canceltoken.h"
#include "util/expected.h"

#include <limits>
#include <memory>
#include <span>
#include <string>

namespace bs::llmsim {

/// Everything one engine run produced.
struct EngineRun
{
    std::vector<RequestResult> requests; ///< In arrival order.
    std::vector<StepRecord> steps;
    sim::LogHistogram itlGaps; ///< Every gap between two consecutive tokens of a request.
    double busyEnergyJ = 0.0;  ///< Sum of step power x duration (0 without a power model).
    double idlePowerW = std::numeric_limits<double>::quiet_NaN(); ///< NaN: no power model.
    /// The hottest device temperature at the end of any step; NaN without a thermal model.
    double peakTemperatureC = std::numeric_limits<double>::quiet_NaN();
};

/// Serves `requests` (sorted by arrival) on one engine. Deterministic. Errors: a request that
/// can never fit (its tokens exceed the KV cache, or the token budget without chunked
/// prefill), an unknown policy, cancellation.
Expected<EngineRun> runEngine(const EngineConfig& config, const StepTimeModel& stepTime,
                              std::span<const RequestSpec> requests,
                              CancelToken cancel = CancelToken());

/// Per-replication metrics from one engine run (SLA limits 0 = none).
ReplicationMetrics summarise(const EngineRun& run, const EngineConfig& config, const SlaSpec& sla);

struct LlmSimOptions
{
    std::string baseDirectory; ///< Relative replay and profile paths resolve against it.
    /// Threads for the replications (0: all cores). The result does not depend on it.
    std::size_t threads = 0;
};

/// Runs the scenario: prepares arrivals and the step model, runs the replications in parallel
/// (each with its own seed, reduced in index order: bit-identical for any thread count) and
/// keeps replication 0 in detail.
Expected<LlmResult> simulateLlm(const LlmScenario& scenario, const LlmSimOptions& options = {},
                                CancelToken cancel = CancelToken());

} // namespace bs::llmsim
