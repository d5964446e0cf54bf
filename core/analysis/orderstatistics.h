#pragma once

#include <cstdint>
#include <limits>

namespace bs::analysis {

/// The exact distribution-free confidence interval of a population percentile from n samples,
/// expressed as ranks of the sorted samples (Hahn & Meeker, "Statistical Intervals", 2.4).
///
/// With x(1) <= ... <= x(n) and B ~ Binomial(n, p), P(x(l) <= xi_p < x(u)) = F(u-1) - F(l-1),
/// where F is the binomial CDF. The interval is equal-tailed: l is the largest rank with
/// F(l-1) <= alpha/2, u the smallest with F(u-1) >= 1 - alpha/2, so the coverage is at least the
/// requested confidence. When no rank satisfies a side, that side is unbounded (lowerRank = 0,
/// or upperRank = n + 1): the samples cannot bound the percentile there.
struct OrderStatisticInterval
{
    std::uint64_t n = 0;
    double probability = 0.0; ///< The percentile as a fraction, e.g. 0.99.
    double confidence = 0.95;
    std::uint64_t lowerRank = 0; ///< 1-based; 0 means unbounded below.
    std::uint64_t upperRank = 0; ///< 1-based; n + 1 means unbounded above.
    /// The exact coverage F(u-1) - F(l-1) (>= confidence), computed with the unbounded sides.
    double coverage = std::numeric_limits<double>::quiet_NaN();

    bool boundedBelow() const { return lowerRank >= 1; }
    bool boundedAbove() const { return upperRank <= n; }
};

/// The interval for percentile `probability` (0 < p < 1) from n samples. Cost: O(sqrt(n)) terms
/// of the binomial around its mode (the mass further out is below 1e-17 and is left out).
OrderStatisticInterval orderStatisticInterval(std::uint64_t n, double probability,
                                              double confidence = 0.95);

/// The confidence of MLPerf's early-stopping floor, used for the "insufficient samples" flag.
inline constexpr double kSufficiencyConfidence = 0.99;

/// The fewest samples for which a percentile can be claimed at all, following MLPerf LoadGen's
/// early-stopping reasoning: with n samples of which none exceeds the reported value, the claim
/// "at least a fraction p of requests are below it" holds with confidence c only when p^n <= 1-c,
/// i.e. n >= ln(1-c)/ln(p). With c = 0.99: p50 7, p90 44, p95 90, p99 459, p99.9 4603 (LoadGen's
/// reference h_min(t=0, p99) is 459). Below this count the percentile is flagged insufficient:
/// "a p99 from 200 samples is not a p99". The floor also guarantees that the 95% interval above
/// is bounded above (p^n <= 0.01 < 0.025).
std::uint64_t minimumSamplesForPercentile(double probability,
                                          double confidence = kSufficiencyConfidence);

/// The binomial CDF P(B <= k) for B ~ Binomial(n, p), accurate to about 1e-12 absolute.
/// Exposed for tests.
double binomialCdf(std::uint64_t n, double p, std::uint64_t k);

} // namespace bs::analysis
