#include "analysis/radixsort.h"
#include "analysis/requestparts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bs::analysis::detail {

namespace {

/// Intended send times from a claimed fixed rate: the k-th request by arrival was meant to go
/// at first arrival + k / rate.
std::vector<double> scheduleFromRate(const data::RequestTrace& t, double ratePerS)
{
    std::vector<KeyIndex> order(t.size());
    for (std::size_t i = 0; i < t.size(); ++i)
        order[i] = {orderedBits(t.arrivalS[i]), i};
    std::vector<KeyIndex> scratch;
    radixSort(order, scratch);
    std::vector<double> intended(t.size());
    const double first = t.arrivalS[order.front().index];
    for (std::size_t k = 0; k < order.size(); ++k)
        intended[order[k].index] = first + double(k) / ratePerS;
    return intended;
}

std::string percentText(double fraction)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", 100.0 * fraction);
    return buffer;
}

} // namespace

CoordinatedOmission coordinatedOmission(const data::RequestTrace& t, const Derived& d,
                                        const RequestAnalysisOptions& options)
{
    CoordinatedOmission co;
    if (!t.hasCompletion()) {
        co.reason = "the trace has no completion times";
        return co;
    }
    std::vector<double> intended;
    if (!t.intendedS.empty()) {
        co.source = "intended_times";
        intended = t.intendedS;
    } else if (options.claimedRatePerS) {
        co.source = "claimed_rate";
        co.claimedRatePerS = *options.claimedRatePerS;
        intended = scheduleFromRate(t, co.claimedRatePerS);
    } else {
        co.reason = "the trace has no intended send times and no fixed rate was claimed";
        return co;
    }
    co.checked = true;
    std::vector<double> fromIntended(t.size());
    double lagSum = 0.0;
    co.maxSendLagS = -INFINITY;
    const double p50 = quantileOfSorted(d.sortedLatencyS, 0.5);
    const double lateBeyond = std::max(0.01 * p50, 1e-6);
    std::uint64_t late = 0;
    std::size_t lastArrival = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        fromIntended[i] = t.completionS[i] - intended[i];
        const double lag = t.arrivalS[i] - intended[i];
        lagSum += lag;
        co.maxSendLagS = std::max(co.maxSendLagS, lag);
        late += lag > lateBeyond ? 1 : 0;
        if (t.arrivalS[i] >= t.arrivalS[lastArrival])
            lastArrival = i;
    }
    co.meanSendLagS = lagSum / double(t.size());
    co.lateFraction = double(late) / double(t.size());
    co.scheduleDriftS = t.arrivalS[lastArrival] - intended[lastArrival];
    std::vector<double> scratch;
    radixSort(fromIntended, scratch);
    for (double p : kReportedPercentiles) {
        co.probabilities.push_back(p);
        co.measuredS.push_back(quantileOfSorted(d.sortedLatencyS, p));
        co.fromIntendedS.push_back(quantileOfSorted(fromIntended, p));
        co.differenceS.push_back(co.fromIntendedS.back() - co.measuredS.back());
    }
    const double measured = co.measuredS[3];
    const double relative = measured > 0.0 ? co.differenceS[3] / measured : 0.0;
    co.verdict = relative > 0.10
                     ? "latency from the intended send times is " + percentText(relative) +
                           " higher at p99: the measured latencies hide time requests spent "
                           "waiting in the load generator (coordinated omission)"
                     : "no material coordinated omission: p99 from intended send times differs "
                       "by " +
                           percentText(relative);
    return co;
}

} // namespace bs::analysis::detail
