#pragma once

#include "analysis/distribution.h"
#include "data/sweeptable.h"
#include "sim/result.h"

#include <span>
#include <string>
#include <vector>

namespace bs::playbook {

/// A value with its 95% interval (NaN bounds when unknown), in whatever unit the caller uses.
struct Interval
{
    double value = analysis::kNaN;
    double low = analysis::kNaN;
    double high = analysis::kNaN;

    bool known() const;
    bool hasInterval() const;
    Interval scaled(double factor) const; ///< All three times factor (unit change).
};

/// Candidate minus baseline, with an approximate 95% interval of the difference and whether it
/// counts as a divergence.
struct Delta
{
    double baseline = analysis::kNaN;
    double candidate = analysis::kNaN;
    double delta = analysis::kNaN;    ///< candidate − baseline.
    double relative = analysis::kNaN; ///< delta / |baseline|.
    double ciLow = analysis::kNaN;
    double ciHigh = analysis::kNaN;
    bool intervalKnown = false;
    /// Interval known: it excludes 0 and |relative| ≥ the practical threshold. Interval unknown:
    /// |relative| ≥ twice the practical threshold (a stated, weaker rule).
    bool significant = false;
    int sign = 0; ///< +1 / −1 when significant, else 0.
};

/// The difference of two independent estimates. Its interval adds the two half-widths in
/// quadrature on each side (normal approximation of independent errors):
/// [d − √((c−c_lo)² + (b_hi−b)²), d + √((c_hi−c)² + (b−b_lo)²)].
Delta compare(const Interval& baseline, const Interval& candidate, double practicalDelta);

/// Whether a divergence holds across slices rather than being a transient spike.
struct Persistence
{
    bool testable = false; ///< At least two comparable slices.
    bool persistent = false;
    int slices = 0;                    ///< Comparable slices.
    int significant = 0;               ///< Slices that diverge in the dominant direction.
    int direction = 0;                 ///< +1 / −1 (dominant sign of significant slices), 0 none.
    std::string firstLabel, lastLabel; ///< The run (batches) or span (windows) that diverges.
    std::string text;                  ///< "batch 16–256 (5 of 9)", "14 of 20 windows".
};

/// Across batch sizes (ordered): persistent when at least two consecutive batch sizes diverge
/// in the same direction (a mechanism such as throttling appears only above some batch size,
/// so a majority is not required; a single batch size is a spike).
Persistence persistenceAcrossBatches(std::span<const Delta> deltas,
                                     std::span<const std::string> labels);
/// Across time windows (repetitions of the same condition): persistent when at least two
/// windows and at least half of the comparable windows diverge in the same direction.
Persistence persistenceAcrossWindows(std::span<const Delta> deltas,
                                     std::span<const std::string> labels);

/// p99 of a sweep point in seconds, with an interval: the exact order-statistic ranks for the
/// point's sample count (analysis/orderstatistics.h) turned into values by interpolating the
/// reported percentiles linearly in −ln(1 − p) (exponential-like tails are straight there).
/// Without a sample count or with fewer than two reported percentiles the interval is unknown.
Interval sweepPercentile(const data::SweepPoint& point, double probability);
/// Throughput of a sweep point (inferences/s) with a counting interval ±1.96/√N (N the
/// point's sample count; unknown without it).
Interval sweepThroughput(const data::SweepPoint& point);
/// Energy per inference (J) with the same relative counting interval as the throughput.
Interval sweepEnergyPerInference(const data::SweepPoint& point);

/// A simulator estimate (replications, Student t) as an interval.
Interval fromEstimate(const sim::Estimate& estimate);
/// An order-statistic percentile estimate as an interval.
Interval fromPercentile(const analysis::PercentileEstimate& estimate);
/// Mean with its Student-t 95% interval (value only for n = 1; unknown for n = 0).
Interval meanInterval(std::span<const double> values);

/// Rows of two sweeps with the same batch size, in increasing batch order (the first row of a
/// batch size in each table).
struct BatchPair
{
    int batch = 1;
    const data::SweepPoint* baseline = nullptr;
    const data::SweepPoint* candidate = nullptr;
};
std::vector<BatchPair> pairByBatch(const data::SweepTable& baseline,
                                   const data::SweepTable& candidate);

} // namespace bs::playbook
