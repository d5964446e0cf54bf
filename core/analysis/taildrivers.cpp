#include "analysis/taildrivers.h"

#include "analysis/orderstatistics.h"
#include "sim/rng.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace bs::analysis {

namespace {

constexpr std::size_t kStepParts = 4;
constexpr const char* kStepPartNames[kStepParts] = {"mapping_fallback", "core_imbalance",
                                                    "host_launch_gaps", "service_variability"};
using StepParts = std::array<double, kStepParts>;

/// A step's wall time split into additive parts.
StepParts partsOf(const StepBreakdown& s)
{
    const double fallback = s.fallbackS;
    const double imbalance = std::max(0.0, s.imbalanceS);
    const double gaps = std::max(0.0, s.hostGapS - s.cpuFallbackExposedS);
    return {fallback, imbalance, gaps, s.wallS - fallback - imbalance - gaps};
}

StepParts meanOf(const std::vector<StepParts>& rows)
{
    StepParts m{};
    for (const auto& r : rows) {
        for (std::size_t c = 0; c < kStepParts; ++c)
            m[c] += r[c] / double(rows.size());
    }
    return m;
}

void rank(TailDrivers& d)
{
    d.excessS = 0.0;
    for (const auto& x : d.drivers)
        d.excessS += x.excessS;
    for (auto& x : d.drivers)
        x.share = d.excessS != 0.0 ? x.excessS / d.excessS : kNaN;
    std::stable_sort(
        d.drivers.begin(), d.drivers.end(),
        [](const TailDriver& a, const TailDriver& b) { return a.excessS > b.excessS; });
}

/// Bootstrap intervals of each part's excess, resampling steps of both sets.
void bootstrap(const std::vector<StepParts>& tail, const std::vector<StepParts>& median,
               std::uint64_t seed, int replicates, std::vector<TailDriver>& drivers)
{
    std::vector<std::vector<double>> excess(kStepParts);
    for (int b = 0; b < replicates; ++b) {
        sim::Rng rng(sim::replicationSeed(seed, std::uint64_t(b)), 1);
        auto resample = [&](const std::vector<StepParts>& rows) {
            StepParts m{};
            for (std::size_t k = 0; k < rows.size(); ++k) {
                const auto& r = rows[std::size_t(rng.uniform() * double(rows.size()))];
                for (std::size_t c = 0; c < kStepParts; ++c)
                    m[c] += r[c] / double(rows.size());
            }
            return m;
        };
        const StepParts t = resample(tail), m = resample(median);
        for (std::size_t c = 0; c < kStepParts; ++c)
            excess[c].push_back(t[c] - m[c]);
    }
    for (std::size_t c = 0; c < kStepParts; ++c) {
        std::sort(excess[c].begin(), excess[c].end());
        drivers[c].ciLowS = quantileOfSorted(excess[c], 0.025);
        drivers[c].ciHighS = quantileOfSorted(excess[c], 0.975);
    }
}

std::string driverName(const std::string& component)
{
    if (component == "queue_wait" || component == "server_wait")
        return "queueing_delay";
    if (component == "service")
        return "service_variability";
    return component; // batch_formation
}

} // namespace

TailDrivers tailDriversFromSteps(const KernelAnalysis& k, std::uint64_t seed, int replicates)
{
    TailDrivers d;
    d.source = "kernel trace steps";
    std::vector<double> walls;
    for (const auto& s : k.steps)
        walls.push_back(s.wallS);
    if (!k.deviceActivity || walls.size() < 2) {
        d.reason = k.deviceActivity ? "the kernel trace has fewer than 2 steps" : k.note;
        return d;
    }
    std::sort(walls.begin(), walls.end());
    d.p50S = quantileOfSorted(walls, 0.50);
    d.p99S = quantileOfSorted(walls, 0.99);
    const double lo = quantileOfSorted(walls, 0.45), hi = quantileOfSorted(walls, 0.55);
    std::vector<StepParts> tail, median;
    const StepBreakdown* nearest = nullptr;
    for (const auto& s : k.steps) {
        if (s.wallS >= d.p99S)
            tail.push_back(partsOf(s));
        else if (s.wallS >= lo && s.wallS <= hi)
            median.push_back(partsOf(s));
        const bool candidate = s.wallS < d.p99S;
        if (candidate &&
            (!nearest || std::fabs(s.wallS - d.p50S) < std::fabs(nearest->wallS - d.p50S)))
            nearest = &s;
    }
    if (median.empty() && nearest)
        median.push_back(partsOf(*nearest));
    if (median.empty()) {
        d.reason = "every step takes the same time: there is no tail to explain";
        return d;
    }
    const StepParts mt = meanOf(tail), mm = meanOf(median);
    for (std::size_t c = 0; c < kStepParts; ++c)
        d.drivers.push_back({kStepPartNames[c], mt[c] - mm[c], kNaN, kNaN, kNaN,
                             "step time split: fallback (CPU-path idle, no-tensor-core and "
                             "user-marked kernels), max-minus-mean device busy, host-bound idle "
                             "gaps, remaining time"});
    bootstrap(tail, median, seed, std::max(replicates, 20), d.drivers);
    rank(d);
    d.sufficient = walls.size() >= minimumSamplesForPercentile(0.99);
    d.available = true;
    d.method = "Steps at or above the p99 step time (tail) against steps between p45 and p55 "
               "(median band; the step nearest the median when the band is empty); each step's "
               "time = mapping fallback + core imbalance + host/launch gaps + the rest, so the "
               "parts' excesses add up to the step-time excess.";
    d.uncertainty =
        "bootstrap over steps, " + std::to_string(std::max(replicates, 20)) + " replicates, seed " +
        std::to_string(seed) + "; " + std::to_string(walls.size()) + " steps" +
        (d.sufficient ? "" : " - too few for a p99 (459 needed): read the ranking as indicative");
    return d;
}

TailDrivers tailDrivers(const RequestAnalysis* requests, const KernelAnalysis* kernels,
                        std::uint64_t seed, int replicates)
{
    const bool haveRequests = requests && requests->tail.available;
    if (!haveRequests) {
        if (kernels)
            return tailDriversFromSteps(*kernels, seed, replicates);
        TailDrivers d;
        d.reason = requests ? requests->tail.reason : "no request or kernel trace";
        return d;
    }
    const auto& tail = requests->tail;
    TailDrivers d;
    d.source = "request trace";
    d.p50S = tail.p50S;
    d.p99S = tail.p99S;
    const auto* p99 = requests->latency.at(0.99);
    d.sufficient = p99 && p99->sufficient;
    for (const auto& c : tail.components) {
        const std::string name = driverName(c.name);
        auto it = std::find_if(d.drivers.begin(), d.drivers.end(),
                               [&](const TailDriver& x) { return x.name == name; });
        if (it == d.drivers.end()) {
            d.drivers.push_back(
                {name, c.excessS, kNaN, c.ciLowS, c.ciHighS, "request trace: " + c.name});
        } else {
            // Intervals of two parts are combined conservatively (as if fully correlated).
            it->excessS += c.excessS, it->ciLowS += c.ciLowS, it->ciHighS += c.ciHighS;
            it->evidence += " + " + c.name;
        }
    }
    d.method = tail.method;
    const auto intervals = tail.method.find("95% intervals");
    d.uncertainty = intervals == std::string::npos ? tail.method : tail.method.substr(intervals);
    const TailDrivers steps =
        kernels ? tailDriversFromSteps(*kernels, seed, replicates) : TailDrivers{};
    auto service = std::find_if(d.drivers.begin(), d.drivers.end(), [](const TailDriver& x) {
        return x.name == "service_variability";
    });
    if (steps.available && steps.excessS > 0.0 && service != d.drivers.end()) {
        const TailDriver whole = *service;
        d.drivers.erase(service);
        for (const auto& s : steps.drivers) {
            const double f = s.excessS / steps.excessS;
            d.drivers.push_back(
                {s.name, whole.excessS * f, kNaN, whole.ciLowS * f, whole.ciHighS * f,
                 "service excess x step-time share from the kernel trace (" + s.evidence + ")"});
        }
        d.source = "request trace + kernel trace steps";
        d.method += " The service part is split into mapping fallback, core imbalance, host/launch "
                    "gaps and kernel time variability in the proportions the kernel trace's tail "
                    "steps show, assuming that trace profiles the same service.";
    } else if (kernels) {
        d.notes.push_back("the kernel trace could not refine the service part: " +
                          (steps.available
                               ? std::string("its tail steps are not slower than the median")
                               : steps.reason));
    } else {
        d.notes.push_back("core imbalance and mapping fallback need a kernel trace of the service");
    }
    rank(d);
    d.available = true;
    if (!d.sufficient)
        d.notes.push_back("the request trace's p99 has too few samples to be claimed; read the "
                          "ranking as indicative");
    return d;
}

} // namespace bs::analysis
