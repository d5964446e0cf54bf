#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace bs::sim {

/// The percentiles every latency summary reports: p50, p90, p95, p99, p99.9.
inline constexpr double kReportedQuantiles[] = {0.50, 0.90, 0.95, 0.99, 0.999};

/// Exact quantiles of non-negative finite values, by numpy's default method ('linear'): with n
/// values sorted as x[0..n-1], h = (n - 1) p, the result is x[floor h] + (h - floor h) *
/// (x[floor h + 1] - x[floor h]), interpolated exactly as numpy's _lerp does.
///
/// The values are the concatenation of `parts` (per-stream stores), which are neither copied
/// nor reordered. Order statistics are found by radix selection on the IEEE bit patterns
/// (which order non-negative doubles like integers): a pass for the range, a 4096-bucket
/// histogram pass, then only the buckets holding the wanted ranks are gathered and refined.
/// Cost: a few linear passes, about 3-5 ns per value for 10 million values. NaN when empty.
std::vector<double> exactQuantiles(std::span<const std::span<const double>> parts,
                                   std::span<const double> probabilities);

/// Convenience for one contiguous range.
std::vector<double> exactQuantiles(std::span<const double> values,
                                   std::span<const double> probabilities);

/// The order statistics (0-based ranks into the sorted values) of the concatenated parts.
/// `ranks` must be below the total count.
std::vector<double> orderStatistics(std::span<const std::span<const double>> parts,
                                    std::span<const std::uint64_t> ranks);

/// numpy's _lerp: a + (b - a) t, computed from b's side when t >= 0.5 for exact endpoints.
inline double numpyLerp(double a, double b, double t)
{
    const double diff = b - a;
    return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

} // namespace bs::sim
