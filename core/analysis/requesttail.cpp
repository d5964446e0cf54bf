#include "analysis/requestparts.h"
#include "sim/rng.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace bs::analysis::detail {

namespace {

constexpr std::size_t kMaxParts = 3;
/// Below this many members in both sets the interval is a bootstrap; above, the normal
/// approximation of a difference of means (the bootstrap would agree and cost B passes).
constexpr std::size_t kBootstrapLimit = 20000;

using Parts = std::array<double, kMaxParts>;

struct Sample
{
    std::vector<Parts> tail;
    std::vector<Parts> median;
};

Parts meanOf(const std::vector<Parts>& rows, std::size_t parts)
{
    Parts m{};
    for (const auto& r : rows) {
        for (std::size_t c = 0; c < parts; ++c)
            m[c] += r[c];
    }
    for (std::size_t c = 0; c < parts; ++c)
        m[c] /= double(rows.size());
    return m;
}

/// Bootstrap (fixed seed, replicate b draws from its own stream) of the excess of each part.
void bootstrapIntervals(const Sample& s, std::size_t parts, const RequestAnalysisOptions& options,
                        std::vector<TailComponent>& out)
{
    const int replicates = std::max(options.bootstrapReplicates, 20);
    std::vector<std::vector<double>> excess(parts, std::vector<double>(std::size_t(replicates)));
    for (int b = 0; b < replicates; ++b) {
        sim::Rng rng(sim::replicationSeed(options.bootstrapSeed, std::uint64_t(b)), 0);
        auto resampledMean = [&](const std::vector<Parts>& rows) {
            Parts m{};
            for (std::size_t k = 0; k < rows.size(); ++k) {
                const auto& r = rows[std::size_t(rng.uniform() * double(rows.size()))];
                for (std::size_t c = 0; c < parts; ++c)
                    m[c] += r[c];
            }
            for (std::size_t c = 0; c < parts; ++c)
                m[c] /= double(rows.size());
            return m;
        };
        const Parts t = resampledMean(s.tail);
        const Parts m = resampledMean(s.median);
        for (std::size_t c = 0; c < parts; ++c)
            excess[c][std::size_t(b)] = t[c] - m[c];
    }
    for (std::size_t c = 0; c < parts; ++c) {
        std::sort(excess[c].begin(), excess[c].end());
        out[c].ciLowS = quantileOfSorted(excess[c], 0.025);
        out[c].ciHighS = quantileOfSorted(excess[c], 0.975);
    }
}

void normalIntervals(const Sample& s, std::size_t parts, std::vector<TailComponent>& out)
{
    const Parts mt = meanOf(s.tail, parts);
    const Parts mm = meanOf(s.median, parts);
    for (std::size_t c = 0; c < parts; ++c) {
        double vt = 0.0, vm = 0.0;
        for (const auto& r : s.tail)
            vt += (r[c] - mt[c]) * (r[c] - mt[c]);
        for (const auto& r : s.median)
            vm += (r[c] - mm[c]) * (r[c] - mm[c]);
        vt /= double(std::max<std::size_t>(s.tail.size() - 1, 1));
        vm /= double(std::max<std::size_t>(s.median.size() - 1, 1));
        const double half =
            1.959964 * std::sqrt(vt / double(s.tail.size()) + vm / double(s.median.size()));
        out[c].ciLowS = out[c].excessS - half;
        out[c].ciHighS = out[c].excessS + half;
    }
}

/// The additive parts of each request's latency: batch formation, waiting for a server and
/// service when batches are known; queue wait and service otherwise.
Parts partsOf(const data::RequestTrace& t, const BatchGroups& g, std::size_t i)
{
    const double wait = t.dispatchS[i] - t.arrivalS[i];
    const double service = t.completionS[i] - t.dispatchS[i];
    if (g.batchOf.empty())
        return {wait, service, 0.0};
    const double formation = std::clamp(g.lastArrivalS[g.batchOf[i]] - t.arrivalS[i], 0.0, wait);
    return {formation, wait - formation, service};
}

} // namespace

TailDecomposition decomposeTail(const data::RequestTrace& t, const Derived& d, const BatchGroups& g,
                                const RequestAnalysisOptions& options)
{
    TailDecomposition out;
    if (!t.hasCompletion()) {
        out.reason = "the trace has no completion times";
        return out;
    }
    if (!t.hasDispatch()) {
        out.reason = "the trace has no dispatch times, so latency cannot be split into queue "
                     "wait and service";
        return out;
    }
    const auto& sorted = d.sortedLatencyS;
    out.p50S = quantileOfSorted(sorted, 0.50);
    out.p99S = quantileOfSorted(sorted, 0.99);
    const double lo = quantileOfSorted(sorted, 0.49);
    const double hi = quantileOfSorted(sorted, 0.51);
    const bool batches = !g.batchOf.empty();
    const std::vector<std::string> names =
        batches ? std::vector<std::string>{"batch_formation", "server_wait", "service"}
                : std::vector<std::string>{"queue_wait", "service"};
    const std::size_t parts = names.size();
    Sample s;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const double latency = d.latencyS[i];
        if (latency >= out.p99S)
            s.tail.push_back(partsOf(t, g, i));
        else if (latency >= lo && latency <= hi)
            s.median.push_back(partsOf(t, g, i));
    }
    if (s.tail.empty() || s.median.empty()) {
        out.reason = "too few requests to separate the tail from the median";
        return out;
    }
    out.tailCount = s.tail.size();
    out.medianCount = s.median.size();
    const Parts mt = meanOf(s.tail, parts);
    const Parts mm = meanOf(s.median, parts);
    out.excessS = 0.0;
    for (std::size_t c = 0; c < parts; ++c) {
        TailComponent comp;
        comp.name = names[c];
        comp.tailMeanS = mt[c];
        comp.medianMeanS = mm[c];
        comp.excessS = mt[c] - mm[c];
        out.excessS += comp.excessS;
        out.components.push_back(comp);
    }
    const bool small = s.tail.size() < kBootstrapLimit && s.median.size() < kBootstrapLimit;
    if (small)
        bootstrapIntervals(s, parts, options, out.components);
    else
        normalIntervals(s, parts, out.components);
    for (auto& c : out.components)
        c.share = out.excessS != 0.0 ? c.excessS / out.excessS : kNaN;
    std::stable_sort(
        out.components.begin(), out.components.end(),
        [](const TailComponent& a, const TailComponent& b) { return a.excessS > b.excessS; });
    out.available = true;
    out.method = std::string("Requests at or above p99 (tail) against requests between p49 and p51 "
                             "(median band); latency = ") +
                 (batches ? "batch formation (last arrival of its batch - arrival) + server wait "
                            "(dispatch - last arrival) + service (completion - dispatch)"
                          : "queue wait (dispatch - arrival) + service (completion - dispatch)") +
                 "; each part's excess = tail mean - median-band mean, so the excesses add up to "
                 "the latency excess. 95% intervals: " +
                 (small ? "bootstrap over requests, " +
                              std::to_string(std::max(options.bootstrapReplicates, 20)) +
                              " replicates, seed " + std::to_string(options.bootstrapSeed)
                        : std::string("normal approximation of a difference of means (both sets "
                                      "over 20,000 requests)")) +
                 "; the p99 and band edges are taken as fixed.";
    return out;
}

} // namespace bs::analysis::detail
