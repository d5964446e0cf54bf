#include "analysis/distribution.h"

#include "analysis/orderstatistics.h"
#include "sim/percentiles.h"

#include <algorithm>
#include <cmath>

namespace bs::analysis {

namespace {

/// The 0-based ranks a percentile estimate needs: the two neighbours of h = (n-1) p and the
/// interval's ends.
struct PercentileRanks
{
    OrderStatisticInterval interval;
    std::uint64_t below = 0;
    std::uint64_t above = 0;
    double fraction = 0.0;
};

PercentileRanks ranksFor(std::uint64_t n, double probability)
{
    PercentileRanks r;
    r.interval = orderStatisticInterval(n, probability);
    const double h = double(n - 1) * probability;
    r.below = std::uint64_t(std::floor(h));
    r.above = std::min<std::uint64_t>(r.below + 1, n - 1);
    r.fraction = h - std::floor(h);
    return r;
}

/// Fills an estimate from a lookup of order statistics (0-based rank -> value).
template <typename Lookup>
PercentileEstimate estimateFrom(const PercentileRanks& r, std::uint64_t n, Lookup orderStat)
{
    PercentileEstimate e;
    e.probability = r.interval.probability;
    e.value = sim::numpyLerp(orderStat(r.below), orderStat(r.above), r.fraction);
    e.lowerRank = r.interval.lowerRank;
    e.upperRank = r.interval.upperRank;
    e.coverage = r.interval.coverage;
    if (r.interval.boundedBelow())
        e.ciLow = orderStat(r.interval.lowerRank - 1);
    if (r.interval.boundedAbove())
        e.ciHigh = orderStat(r.interval.upperRank - 1);
    e.minimumSamples = minimumSamplesForPercentile(e.probability);
    e.sufficient = n >= e.minimumSamples;
    return e;
}

PercentileEstimate emptyEstimate(double probability)
{
    PercentileEstimate e;
    e.probability = probability;
    e.minimumSamples = minimumSamplesForPercentile(probability);
    e.upperRank = 1;
    return e;
}

void fillCdf(std::span<const double> sorted, std::size_t cdfPoints, Distribution& d)
{
    const std::size_t n = sorted.size();
    std::vector<std::size_t> ranks;
    if (n <= cdfPoints) {
        ranks.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            ranks[i] = i;
    } else {
        const std::size_t half = std::max<std::size_t>(cdfPoints / 2, 2);
        for (std::size_t k = 0; k < half; ++k)
            ranks.push_back(
                std::size_t(std::llround(double(k) * double(n - 1) / double(half - 1))));
        // The tail, evenly in -log10(1 - p) from p = 0.5 to p = 1 - 1/n.
        const double t0 = std::log10(2.0);
        const double t1 = std::log10(double(n));
        for (std::size_t k = 0; k < half; ++k) {
            const double t = t0 + (t1 - t0) * double(k) / double(half - 1);
            const double p = 1.0 - std::pow(10.0, -t);
            const double rank = std::ceil(p * double(n)) - 1.0;
            ranks.push_back(std::size_t(std::clamp(rank, 0.0, double(n - 1))));
        }
        std::sort(ranks.begin(), ranks.end());
        ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    }
    d.cdfValue.reserve(ranks.size());
    d.cdfProbability.reserve(ranks.size());
    for (std::size_t r : ranks) {
        d.cdfValue.push_back(sorted[r]);
        d.cdfProbability.push_back(double(r + 1) / double(n));
    }
}

} // namespace

const PercentileEstimate* Distribution::at(double probability) const
{
    for (const auto& p : percentiles) {
        if (p.probability == probability)
            return &p;
    }
    return nullptr;
}

double quantileOfSorted(std::span<const double> sorted, double probability)
{
    if (sorted.empty())
        return kNaN;
    const auto r = ranksFor(sorted.size(), probability);
    return sim::numpyLerp(sorted[r.below], sorted[r.above], r.fraction);
}

PercentileEstimate percentileOfSorted(std::span<const double> sorted, double probability)
{
    if (sorted.empty())
        return emptyEstimate(probability);
    return estimateFrom(ranksFor(sorted.size(), probability), sorted.size(),
                        [&](std::uint64_t rank) { return sorted[rank]; });
}

Distribution describeSorted(std::span<const double> sorted, std::size_t cdfPoints)
{
    Distribution d;
    d.count = sorted.size();
    for (double p : kReportedPercentiles)
        d.percentiles.push_back(percentileOfSorted(sorted, p));
    if (sorted.empty())
        return d;
    double sum = 0.0;
    for (double v : sorted)
        sum += v;
    d.mean = sum / double(sorted.size());
    d.min = sorted.front();
    d.max = sorted.back();
    fillCdf(sorted, cdfPoints, d);
    return d;
}

std::vector<PercentileEstimate> percentilesBySelection(std::span<double> values)
{
    std::vector<PercentileEstimate> out;
    const std::uint64_t n = values.size();
    if (n == 0) {
        for (double p : kReportedPercentiles)
            out.push_back(emptyEstimate(p));
        return out;
    }
    std::vector<PercentileRanks> ranks;
    std::vector<std::uint64_t> wanted;
    for (double p : kReportedPercentiles) {
        ranks.push_back(ranksFor(n, p));
        const auto& r = ranks.back();
        wanted.push_back(r.below);
        wanted.push_back(r.above);
        if (r.interval.boundedBelow())
            wanted.push_back(r.interval.lowerRank - 1);
        if (r.interval.boundedAbove())
            wanted.push_back(r.interval.upperRank - 1);
    }
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    // Successive selections on the shrinking tail: after nth_element at r, everything past r is
    // no smaller, so the next rank is found in [r + 1, n).
    std::uint64_t from = 0;
    for (std::uint64_t r : wanted) {
        std::nth_element(values.begin() + std::ptrdiff_t(from), values.begin() + std::ptrdiff_t(r),
                         values.end());
        from = r + 1;
    }
    for (const auto& r : ranks)
        out.push_back(estimateFrom(r, n, [&](std::uint64_t rank) { return values[rank]; }));
    return out;
}

} // namespace bs::analysis
