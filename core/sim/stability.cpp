#include "sim/stability.h"

#include "util/numbertext.h"

#include <algorithm>

namespace bs::sim {

namespace {

std::string number(double v)
{
    return significant(v, 4);
}

/// A closed loop cannot overload its servers: each client waits for its answer. Its throughput
/// is at most the capacity and at most N clients / (think + overhead + a lone batch of 1)
/// (the asymptotic bounds of a closed network); that bound stands for the offered load.
void closedLoopBound(const Scenario& scenario, const ServiceModel& service, Stability& out)
{
    const ArrivalSpec& loop = scenario.streams.front().arrivals;
    const ServerSpec& spec = scenario.servers;
    const double cycleS = loop.thinkS + loop.clientOverheadS + loop.clientOverheadFixedS +
                          spec.preComputeS(1) + service.meanServiceS(1) + spec.postComputeS(1);
    out.offeredRatePerS = std::min(double(loop.concurrency) / cycleS, out.capacityRatePerS);
    out.rho = out.offeredRatePerS / out.capacityRatePerS;
}

} // namespace

std::string offeredLoadKey(const Scenario& scenario)
{
    if (scenario.namedStreams)
        return "scenario.streams";
    const auto& arrivals = scenario.streams.front().arrivals;
    switch (arrivals.kind) {
    case ArrivalSpec::Kind::Mmpp2:
        return "scenario.arrivals.rates_per_s";
    case ArrivalSpec::Kind::Replay:
        return arrivals.ratePerS > 0.0 ? "scenario.arrivals.rate_per_s" : "scenario.arrivals";
    case ArrivalSpec::Kind::ClosedLoop:
        return "scenario.arrivals.concurrency";
    default:
        return "scenario.arrivals.rate_per_s";
    }
}

Stability assessStability(const Scenario& scenario, const ServiceModel& service,
                          const std::vector<const ReplayTimes*>& replays,
                          std::vector<std::string>& warnings)
{
    Stability out;
    double offered = 0.0;
    double peak = 0.0;
    for (std::size_t s = 0; s < scenario.streams.size(); ++s) {
        offered += meanRatePerS(scenario.streams[s].arrivals, replays[s]);
        peak += peakRatePerS(scenario.streams[s].arrivals, replays[s]);
    }
    int bestBatch = scenario.policy.maxBatch;
    double best = 0.0;
    const int from =
        scenario.policy.kind == PolicySpec::Kind::Static ? scenario.policy.maxBatch : 1;
    // A server's streams hide the copies of one batch behind the others' compute, but the
    // device still computes one batch's worth at a time (it is shared, not multiplied).
    const ServerSpec& spec = scenario.servers;
    const auto cycleS = [&](int b) {
        const double computeS = service.sustainedServiceS(b);
        const double copiesS = spec.preComputeS(b) + spec.postComputeS(b);
        return std::max(computeS, (copiesS + computeS) / double(spec.streams));
    };
    for (int b = from; b <= scenario.policy.maxBatch; ++b) {
        const double rate = double(b) / cycleS(b);
        if (rate > best) {
            best = rate;
            bestBatch = b;
        }
    }
    const int servers = scenario.servers.count;
    out.offeredRatePerS = offered;
    out.capacityRatePerS = double(servers) * best;
    out.rho = offered / out.capacityRatePerS;
    const std::string capacity = number(out.capacityRatePerS) + " req/s (" +
                                 std::to_string(servers) + " server(s) x batch " +
                                 std::to_string(bestBatch) + " / " +
                                 number(cycleS(bestBatch) * 1000.0) + " ms" +
                                 (spec.streams > 1 ? ", at most: it assumes the streams hide "
                                                     "every pre-compute"
                                                   : "") +
                                 ")";
    if (scenario.streams.front().arrivals.kind == ArrivalSpec::Kind::ClosedLoop) {
        closedLoopBound(scenario, service, out);
        return out;
    }
    // A replay that does not loop ends: its queue drains, whatever it offered while it lasted.
    bool finite = true;
    for (const auto& stream : scenario.streams)
        finite =
            finite && stream.arrivals.kind == ArrivalSpec::Kind::Replay && !stream.arrivals.loop;
    if (out.rho >= 1.0 && finite) {
        warnings.push_back(offeredLoadKey(scenario) + ": the replay offers " + number(offered) +
                           " req/s, at least the capacity of " + capacity +
                           "; the queue grows while the trace lasts");
        return out;
    }
    if (out.rho >= 1.0) {
        out.stable = false;
        out.reason = offeredLoadKey(scenario) + ": the offered load of " + number(offered) +
                     " req/s is at least the capacity of " + capacity +
                     ", rho = " + number(out.rho) +
                     "; the queue grows without bound, so latency percentiles would only "
                     "measure the length of the run";
        return out;
    }
    if (peak >= out.capacityRatePerS)
        warnings.push_back(offeredLoadKey(scenario) + ": at its peak the arrival rate (" +
                           number(peak) + " req/s) exceeds the capacity of " + capacity +
                           "; the queue builds up during bursts and drains after them");
    if (scenario.policy.kind == PolicySpec::Kind::Adaptive) {
        const int low = scenario.policy.minBatch;
        const double floor = double(servers) * double(low) / cycleS(low);
        if (offered >= floor)
            warnings.push_back("scenario.policy.min_batch: at batch " + std::to_string(low) +
                               " the servers manage only " + number(floor) +
                               " req/s, less than the " + number(offered) +
                               " req/s offered; if the controller lowers the cap that far the "
                               "queue grows");
    }
    if (out.rho >= 0.95)
        warnings.push_back("rho = " + number(out.rho) +
                           ": the queue is close to saturation, so its percentiles converge "
                           "slowly; check the confidence intervals and consider more requests");
    return out;
}

} // namespace bs::sim
