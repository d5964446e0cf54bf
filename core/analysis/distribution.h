#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace bs::analysis {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The percentiles every distribution reports: p50, p90, p95, p99, p99.9.
inline constexpr double kReportedPercentiles[] = {0.50, 0.90, 0.95, 0.99, 0.999};

/// One percentile of a sample with its exact order-statistic 95% interval and the
/// "insufficient samples" flag (see orderstatistics.h for both rules).
struct PercentileEstimate
{
    double probability = 0.0;         ///< e.g. 0.99.
    double value = kNaN;              ///< numpy's default ('linear') estimate; NaN without samples.
    double ciLow = kNaN;              ///< x(lowerRank); NaN when the interval is unbounded below.
    double ciHigh = kNaN;             ///< x(upperRank); NaN when the interval is unbounded above.
    std::uint64_t lowerRank = 0;      ///< 1-based rank of ciLow; 0 = unbounded.
    std::uint64_t upperRank = 0;      ///< 1-based rank of ciHigh; n + 1 = unbounded.
    double coverage = kNaN;           ///< Exact coverage of [ciLow, ciHigh] (>= 0.95).
    std::uint64_t minimumSamples = 0; ///< MLPerf early-stopping floor for this percentile.
    bool sufficient = false;          ///< n >= minimumSamples.
};

/// A summary of a non-empty or empty sample (seconds for latencies; any unit otherwise):
/// exact percentiles with intervals and a CDF decimated for drawing.
struct Distribution
{
    std::uint64_t count = 0;
    double mean = kNaN;
    double min = kNaN;
    double max = kNaN;
    std::vector<PercentileEstimate> percentiles; ///< One per kReportedPercentiles entry.
    /// The empirical CDF as sorted (value, probability) pairs: P(X <= cdfValue[i]) =
    /// cdfProbability[i]. Every sample when there are at most `cdfPoints`; otherwise ranks
    /// spaced evenly in probability and, for the tail, evenly in log(1 - p), always with the
    /// minimum and the maximum.
    std::vector<double> cdfValue;
    std::vector<double> cdfProbability;

    /// The estimate for probability p (one of kReportedPercentiles), or nullptr.
    const PercentileEstimate* at(double probability) const;
};

/// numpy's default quantile of sorted values: h = (n-1) p, x[floor h] + (h - floor h) *
/// (x[floor h + 1] - x[floor h]). NaN when empty.
double quantileOfSorted(std::span<const double> sorted, double probability);

/// The percentile with its interval from sorted values.
PercentileEstimate percentileOfSorted(std::span<const double> sorted, double probability);

/// Summarises sorted values: mean, min, max, kReportedPercentiles with intervals, CDF.
Distribution describeSorted(std::span<const double> sorted, std::size_t cdfPoints = 512);

/// The kReportedPercentiles (with intervals) of unsorted values, reordering them in place with
/// std::nth_element (linear time); used for windows and streams where sorting every group
/// would cost n log n.
std::vector<PercentileEstimate> percentilesBySelection(std::span<double> values);

} // namespace bs::analysis
