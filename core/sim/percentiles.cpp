#include "sim/percentiles.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace bs::sim {

namespace {

using Bits = std::uint64_t;
using Parts = std::span<const std::span<const double>>;

constexpr int kBucketBits = 12;
constexpr std::uint64_t kSelectBelow = 2048;

Bits bitsOf(double v)
{
    return std::bit_cast<Bits>(v);
}

/// A wanted order statistic: its rank among the values currently in range, and where it goes.
struct Want
{
    std::uint64_t rank;
    double* out;
};

void selectInRange(Parts parts, Bits lo, Bits hi, std::uint64_t count, std::vector<Want> wants);

/// Copies the values with bits in [lo, hi] into one vector.
std::vector<double> gather(Parts parts, Bits lo, Bits hi, std::uint64_t count)
{
    std::vector<double> out;
    out.reserve(count);
    const Bits width = hi - lo;
    for (const auto& part : parts) {
        for (double v : part) {
            if (bitsOf(v) - lo <= width)
                out.push_back(v);
        }
    }
    return out;
}

/// Few values left: gather them and select each wanted rank with nth_element, in rank order, each
/// on what lies above the previous one (a few linear passes instead of a sort: the quantiles of a
/// short run or a time-series window are mostly this step).
void gatherAndSelect(Parts parts, Bits lo, Bits hi, std::uint64_t count, std::vector<Want> wants)
{
    auto values = gather(parts, lo, hi, count);
    std::sort(wants.begin(), wants.end(),
              [](const Want& a, const Want& b) { return a.rank < b.rank; });
    auto unplaced = values.begin();
    for (const auto& want : wants) {
        const auto nth = values.begin() + std::ptrdiff_t(want.rank);
        if (nth >= unplaced) {
            std::nth_element(unplaced, nth, values.end());
            unplaced = nth + 1;
        }
        *want.out = *nth;
    }
}

/// One histogram level: buckets of 2^shift bit patterns over [lo, hi]; recurses into the
/// buckets holding wanted ranks (gathering small buckets, filtering in place for big ones).
void refine(Parts parts, Bits lo, Bits hi, std::vector<Want> wants)
{
    const Bits width = hi - lo;
    const int shift = std::max(0, int(std::bit_width(width)) - kBucketBits);
    std::vector<std::uint64_t> buckets(std::size_t(width >> shift) + 1, 0);
    for (const auto& part : parts) {
        for (double v : part) {
            const Bits offset = bitsOf(v) - lo;
            if (offset <= width)
                ++buckets[offset >> shift];
        }
    }
    std::sort(wants.begin(), wants.end(),
              [](const Want& a, const Want& b) { return a.rank < b.rank; });
    std::size_t w = 0;
    std::uint64_t before = 0;
    for (std::size_t b = 0; b < buckets.size() && w < wants.size(); ++b) {
        std::vector<Want> inBucket;
        while (w < wants.size() && wants[w].rank < before + buckets[b])
            inBucket.push_back({wants[w].rank - before, wants[w++].out});
        if (!inBucket.empty()) {
            const Bits bucketLo = lo + (Bits(b) << shift);
            const Bits bucketHi = std::min(hi, bucketLo + ((Bits(1) << shift) - 1));
            selectInRange(parts, bucketLo, bucketHi, buckets[b], std::move(inBucket));
        }
        before += buckets[b];
    }
}

void selectInRange(Parts parts, Bits lo, Bits hi, std::uint64_t count, std::vector<Want> wants)
{
    if (lo == hi) {
        for (const auto& want : wants)
            *want.out = std::bit_cast<double>(lo);
        return;
    }
    if (count <= kSelectBelow)
        return gatherAndSelect(parts, lo, hi, count, std::move(wants));
    std::uint64_t total = 0;
    for (const auto& part : parts)
        total += part.size();
    // A bucket much smaller than the input is copied once, so deeper levels scan only it.
    if (count * 8 < total) {
        const auto values = gather(parts, lo, hi, count);
        const std::span<const double> one(values);
        return refine(Parts(&one, 1), lo, hi, std::move(wants));
    }
    refine(parts, lo, hi, std::move(wants));
}

} // namespace

std::vector<double> orderStatistics(std::span<const std::span<const double>> parts,
                                    std::span<const std::uint64_t> ranks)
{
    std::vector<double> out(ranks.size(), std::numeric_limits<double>::quiet_NaN());
    std::uint64_t count = 0;
    Bits lo = ~Bits(0);
    Bits hi = 0;
    for (const auto& part : parts) {
        count += part.size();
        for (double v : part) {
            lo = std::min(lo, bitsOf(v));
            hi = std::max(hi, bitsOf(v));
        }
    }
    if (count == 0 || ranks.empty())
        return out;
    std::vector<Want> wants;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        wants.push_back({ranks[i], &out[i]});
    selectInRange(parts, lo, hi, count, std::move(wants));
    return out;
}

std::vector<double> exactQuantiles(std::span<const std::span<const double>> parts,
                                   std::span<const double> probabilities)
{
    std::uint64_t n = 0;
    for (const auto& part : parts)
        n += part.size();
    std::vector<double> out(probabilities.size(), std::numeric_limits<double>::quiet_NaN());
    if (n == 0)
        return out;
    std::vector<std::uint64_t> ranks;
    std::vector<double> gammas;
    for (double p : probabilities) {
        const double h = double(n - 1) * p;
        const auto k = std::uint64_t(std::floor(h));
        ranks.push_back(k);
        ranks.push_back(std::min(k + 1, n - 1));
        gammas.push_back(h - double(k));
    }
    const auto stats = orderStatistics(parts, ranks);
    for (std::size_t i = 0; i < probabilities.size(); ++i)
        out[i] = numpyLerp(stats[2 * i], stats[2 * i + 1], gammas[i]);
    return out;
}

std::vector<double> exactQuantiles(std::span<const double> values,
                                   std::span<const double> probabilities)
{
    return exactQuantiles(std::span<const std::span<const double>>(&values, 1), probabilities);
}

} // namespace bs::sim
