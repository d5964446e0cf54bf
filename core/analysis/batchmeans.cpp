#include "analysis/batchmeans.h"

#include "sim/estimate.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

namespace bs::analysis {

namespace {

constexpr std::size_t kMinBatches = 10;
constexpr std::size_t kMinBatchSize = 100;

/// The numpy-'linear' percentile of a copy of `values` by selection.
double percentileOf(std::span<const double> values, double p, std::vector<double>& scratch)
{
    scratch.assign(values.begin(), values.end());
    const double h = double(scratch.size() - 1) * p;
    const auto lo = std::size_t(std::floor(h));
    std::nth_element(scratch.begin(), scratch.begin() + std::ptrdiff_t(lo), scratch.end());
    const double a = scratch[lo];
    if (lo + 1 >= scratch.size())
        return a;
    const double b = *std::min_element(scratch.begin() + std::ptrdiff_t(lo) + 1, scratch.end());
    return a + (h - double(lo)) * (b - a);
}

std::vector<double> batchPercentiles(std::span<const double> values, std::size_t k, double p)
{
    std::vector<double> out;
    std::vector<double> scratch;
    const std::size_t size = values.size() / k;
    for (std::size_t b = 0; b < k; ++b)
        out.push_back(percentileOf(values.subspan(b * size, size), p, scratch));
    return out;
}

/// Ten batches: few enough that each batch percentile is close to unbiased and the batches'
/// correlation is negligible for any trace that spans many correlation times (on AR(1)
/// samples 20 or 40 batches undercover, tests/core/tst_analysis_batchmeans.cpp), enough for a
/// Student t interval. Whether the batches still look correlated is recorded.
std::size_t chooseBatches(std::span<const double> values, SampleDependence& out)
{
    out.batchLag1 = lag1Autocorrelation(batchPercentiles(values, kMinBatches, 0.99));
    out.batchesIndependent = !(std::abs(out.batchLag1) > 2.0 / std::sqrt(double(kMinBatches)));
    return kMinBatches;
}

} // namespace

double lag1Autocorrelation(std::span<const double> values)
{
    const std::size_t n = values.size();
    if (n < 3)
        return kNaN;
    double mean = 0.0;
    for (double v : values)
        mean += v;
    mean /= double(n);
    double num = 0.0;
    double den = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double d = values[i] - mean;
        den += d * d;
        if (i + 1 < n)
            num += d * (values[i + 1] - mean);
    }
    return den > 0.0 ? num / den : kNaN;
}

SampleDependence widenForDependence(std::span<const double> inOrder, Distribution& distribution)
{
    SampleDependence out;
    if (inOrder.size() < kMinBatches * kMinBatchSize)
        return out;
    out.assessed = true;
    out.lag1 = lag1Autocorrelation(inOrder);
    // An independent sample's lag-1 autocorrelation is about N(0, 1/n).
    out.correlated = out.lag1 > 3.0 / std::sqrt(double(inOrder.size()));
    if (!out.correlated)
        return out;
    out.batches = chooseBatches(inOrder, out);
    const double t = sim::studentT975(int(out.batches) - 1);
    for (auto& p : distribution.percentiles) {
        const auto values = batchPercentiles(inOrder, out.batches, p.probability);
        double mean = 0.0;
        for (double v : values)
            mean += v;
        mean /= double(values.size());
        double ss = 0.0;
        for (double v : values)
            ss += (v - mean) * (v - mean);
        const double halfWidth =
            t * std::sqrt(ss / double(values.size() - 1)) / std::sqrt(double(values.size()));
        // Never narrower than the order-statistic interval; NaN ends stay unbounded.
        if (!std::isnan(p.ciLow))
            p.ciLow = std::min(p.ciLow, std::max(distribution.min, p.value - halfWidth));
        if (!std::isnan(p.ciHigh))
            p.ciHigh = std::max(p.ciHigh, p.value + halfWidth);
        p.coverage = kNaN; // no longer the exact order-statistic coverage
    }
    return out;
}

std::string dependenceNote(const SampleDependence& d)
{
    if (!d.correlated)
        return {};
    std::ostringstream out;
    out.precision(2);
    out << "latencies are autocorrelated in arrival order (lag-1 " << d.lag1
        << "): percentile intervals are widened to batch means over " << d.batches
        << " consecutive batches (order-statistic intervals assume independent requests)";
    if (!d.batchesIndependent)
        out << "; even these batches stay correlated (lag-1 of their p99s " << d.batchLag1
            << "), so the intervals may still be too narrow";
    return out.str();
}

} // namespace bs::analysis
