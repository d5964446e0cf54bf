#pragma once

#include "analysis/distribution.h"
#include "data/sweeptable.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bs::analysis {

/// Whether one reported percentile of a sweep point can be claimed from its sample count.
struct SweepPercentileCheck
{
    double probability = 0.0;
    double valueS = kNaN; ///< As reported.
    std::uint64_t minimumSamples = 0;
    bool sufficient = false;
    /// The ranks the 95% order-statistic interval would use (the samples themselves are not in
    /// a sweep, so the interval's values are not known); 0 / n + 1 when unbounded.
    std::uint64_t lowerRank = 0;
    std::uint64_t upperRank = 0;
};

struct SweepPointConfidence
{
    std::size_t row = 0; ///< Index into SweepTable::points.
    int batchSize = 1;
    std::string series;
    bool sampleCountKnown = false;
    std::uint64_t sampleCount = 0;
    std::vector<SweepPercentileCheck> checks; ///< Only the percentiles the point reports.
};

struct SweepConfidence
{
    std::string name;
    std::size_t points = 0;
    std::size_t pointsWithCounts = 0;
    std::size_t insufficientClaims = 0; ///< Reported percentiles with too few samples.
    std::vector<SweepPointConfidence> rows;
    std::string rule;
};

/// Applies the tail-confidence rule (orderstatistics.h) to every reported percentile of every
/// sweep point whose sample count is known.
SweepConfidence sweepConfidence(const data::SweepTable& table);

} // namespace bs::analysis
