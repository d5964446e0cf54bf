#pragma once

#include "sim/arrivalprocess.h"
#include "sim/scenario.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace bs::sim {

/// The slowest time scale of a scenario's traffic: what a run must cover many times before its
/// tail percentiles mean anything. Renewal traffic (Poisson, deterministic, gamma without a
/// profile) has none: every stretch of it looks alike, so only the request count matters.
struct TrafficTimeScale
{
    /// Seconds of one cycle (MMPP: mean low + high dwell; diurnal: the period; ramp: its span;
    /// replay: one pass of the trace); 0 = none.
    double seconds = 0.0;
    /// Cycles one replication must cover: run_length.min_cycles for modulated traffic (MMPP,
    /// diurnal), 1 for a ramp or a replayed trace (they are deterministic: one whole pass
    /// shows everything, a second pass repeats the same arrivals).
    double requiredCycles = 0.0;
    std::string unit;       ///< Plural, for messages: "dwell cycles", "diurnal periods", ...
    std::string origin;     ///< The dotted key that sets it, e.g. "scenario.arrivals.mean_dwell_s".
    bool modulated = false; ///< MMPP or diurnal: the warm-up covers a cycle too.
};

/// How much of its traffic a run covers. Written into every sim::Result.
struct RunCoverage
{
    TrafficTimeScale timeScale;
    double cyclesPerReplication =
        std::numeric_limits<double>::quiet_NaN(); ///< Measured span / time scale (NaN without one).
    std::uint64_t requestedRequests = 0;          ///< Measured requests per replication as asked.
    bool extended = false;                        ///< requests were raised to cover the time scale.
    bool sufficient = true; ///< Covers timeScale.requiredCycles per replication.
    /// Empty when sufficient and not extended; otherwise what happened, e.g. "not confident: run
    /// covers 0.3 diurnal periods per replication (needs 20; run_length.max_requests ...)".
    std::string note;
};

/// Measured and warm-up requests of one replication, and what they cover.
struct RunPlan
{
    std::uint64_t requests = 0;
    std::uint64_t warmupRequests = 0;
    RunCoverage coverage;
};

/// The slowest time scale over all streams (the longest). `replays[s]` is stream s's prepared
/// replay or null; without it a replay's inline times_s give its period, a file replay has
/// none (unknown until it is read).
TrafficTimeScale trafficTimeScale(const Scenario& scenario,
                                  const std::vector<const ReplayTimes*>& replays = {});

/// The run the simulator makes of `scenario` at the long-run offered rate `offeredRatePerS`:
/// requests raised (never lowered) so that each replication covers the traffic's required
/// cycles, within run_length.max_requests; the warm-up raised to one cycle of modulated
/// traffic when the run was extended. run_length.min_cycles = 0 keeps the requests as given.
RunPlan planRun(const Scenario& scenario, double offeredRatePerS,
                const std::vector<const ReplayTimes*>& replays = {});

/// planRun at the scenario's own offered rate, computed from its specs (replay files count as
/// unknown): what a caller that plans work (the region analysis) expects simulate() to run.
RunPlan plannedRun(const Scenario& scenario);

} // namespace bs::sim
