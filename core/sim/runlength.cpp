#include "sim/runlength.h"

#include "sim/profiletimemap.h"
#include "util/numbertext.h"

#include <algorithm>
#include <cmath>

namespace bs::sim {

namespace {

std::string number(double v)
{
    return significant(v, v < 10.0 ? 2 : 3);
}

std::string streamKey(const Scenario& scenario, std::size_t s)
{
    return scenario.namedStreams ? "scenario.streams[" + std::to_string(s) + "].arrivals"
                                 : std::string("scenario.arrivals");
}

/// One pass of a replay in seconds (after rescaling to rate_per_s): the prepared replay's
/// period, or computed from inline times exactly as replayFromTimes does; 0 when unknown.
double replayPeriodS(const ArrivalSpec& spec, const ReplayTimes* replay)
{
    if (replay)
        return replay->periodS;
    const std::size_t n = spec.timesS.size();
    if (n < 2)
        return 0.0;
    const double span = spec.timesS.back() - spec.timesS.front();
    if (!(span > 0.0))
        return 0.0;
    return spec.ratePerS > 0.0 ? double(n) / spec.ratePerS : span * double(n) / double(n - 1);
}

/// The long-run mean rate of a stream without reading files (a file replay: 0, unknown).
double plannedRatePerS(const ArrivalSpec& spec)
{
    if (spec.kind != ArrivalSpec::Kind::Replay)
        return meanRatePerS(spec, nullptr);
    if (spec.ratePerS > 0.0)
        return spec.ratePerS * ProfileTimeMap::longRunMultiplier(spec.profile);
    const double period = replayPeriodS(spec, nullptr);
    return period > 0.0 ? double(spec.timesS.size()) / period *
                              ProfileTimeMap::longRunMultiplier(spec.profile)
                        : 0.0;
}

TrafficTimeScale streamTimeScale(const ArrivalSpec& spec, const ReplayTimes* replay,
                                 const std::string& key, double minCycles)
{
    TrafficTimeScale out;
    const auto consider = [&](double seconds, double cycles, const char* unit,
                              const std::string& origin, bool modulated) {
        if (!(seconds > 0.0) || !std::isfinite(seconds))
            return;
        if (seconds * cycles <= out.seconds * out.requiredCycles)
            return;
        out = {seconds, cycles, unit, origin, modulated};
    };
    if (spec.kind == ArrivalSpec::Kind::Mmpp2)
        consider(spec.meanDwellS[0] + spec.meanDwellS[1], minCycles, "dwell cycles",
                 key + ".mean_dwell_s", true);
    if (spec.kind == ArrivalSpec::Kind::Replay && spec.loop) // a finite replay is the whole run
        consider(replayPeriodS(spec, replay), 1.0, "trace lengths", key, false);
    if (spec.profile.kind == RateProfile::Kind::Diurnal && spec.profile.amplitude > 0.0)
        consider(spec.profile.periodS, minCycles, "diurnal periods", key + ".profile.period_s",
                 true);
    if (spec.profile.kind == RateProfile::Kind::Ramp && !spec.profile.timesS.empty())
        consider(spec.profile.timesS.back(), 1.0, "ramp spans", key + ".profile.times_s", false);
    return out;
}

std::string coverageNote(const RunCoverage& c, std::uint64_t requests, const Scenario& scenario)
{
    const auto& scale = c.timeScale;
    if (!c.sufficient)
        return "not confident: run covers " + number(c.cyclesPerReplication) + " " + scale.unit +
               " per replication (needs " + number(scale.requiredCycles) + ", set by " +
               scale.origin + " and scenario.run_length.min_cycles; scenario.run_length." +
               "max_requests caps a replication at " +
               std::to_string(scenario.runLength.maxRequests) + " requests)";
    if (c.extended)
        return "requests raised from " + std::to_string(c.requestedRequests) + " to " +
               std::to_string(requests) + " per replication to cover " +
               number(c.cyclesPerReplication) + " " + scale.unit + " (" + scale.origin + ", " +
               number(scale.seconds) + " s each)";
    return {};
}

/// The ceiling of a request count computed in floating point, ignoring rounding noise (20 cycles
/// of 13,400 requests are 268,000 requests, not 268,001).
double ceilWhole(double requests)
{
    return std::ceil(requests * (1.0 - 1e-12));
}

} // namespace

TrafficTimeScale trafficTimeScale(const Scenario& scenario,
                                  const std::vector<const ReplayTimes*>& replays)
{
    TrafficTimeScale slowest;
    for (std::size_t s = 0; s < scenario.streams.size(); ++s) {
        const ReplayTimes* replay = s < replays.size() ? replays[s] : nullptr;
        const TrafficTimeScale t =
            streamTimeScale(scenario.streams[s].arrivals, replay, streamKey(scenario, s),
                            scenario.runLength.minCycles);
        if (t.seconds * t.requiredCycles > slowest.seconds * slowest.requiredCycles)
            slowest = t;
    }
    return slowest;
}

RunPlan planRun(const Scenario& scenario, double offeredRatePerS,
                const std::vector<const ReplayTimes*>& replays)
{
    RunPlan plan;
    plan.requests = scenario.requests;
    plan.warmupRequests = scenario.warmupRequests;
    RunCoverage& c = plan.coverage;
    c.requestedRequests = scenario.requests;
    if (!(scenario.runLength.minCycles > 0.0) || !(offeredRatePerS > 0.0) ||
        !std::isfinite(offeredRatePerS))
        return plan;
    c.timeScale = trafficTimeScale(scenario, replays);
    const TrafficTimeScale& scale = c.timeScale;
    if (!(scale.seconds > 0.0))
        return plan;
    const double requestsPerCycle = scale.seconds * offeredRatePerS;
    const double needed = ceilWhole(scale.requiredCycles * requestsPerCycle);
    const double budget = double(std::max(scenario.runLength.maxRequests, scenario.requests));
    if (double(plan.requests) < needed) {
        plan.requests = std::uint64_t(std::min(needed, budget));
        c.extended = plan.requests > scenario.requests;
        if (c.extended && scale.modulated)
            plan.warmupRequests = std::max(
                plan.warmupRequests, std::uint64_t(std::min(ceilWhole(requestsPerCycle), budget)));
    }
    c.cyclesPerReplication = double(plan.requests) / requestsPerCycle;
    // Rounding: the request count is the ceiling of what the cycles need.
    c.sufficient = double(plan.requests) >= needed;
    c.note = coverageNote(c, plan.requests, scenario);
    return plan;
}

RunPlan plannedRun(const Scenario& scenario)
{
    double offered = 0.0;
    for (const auto& stream : scenario.streams)
        offered += plannedRatePerS(stream.arrivals);
    return planRun(scenario, offered);
}

} // namespace bs::sim
