#pragma once

#include "sim/scenario.h"

#include <string>
#include <vector>

namespace bs::sim {

/// y at `batch` by linear interpolation in a table (x increasing): below its first size the first
/// value; beyond its last the last value, or the line through the last two points when
/// `extendLastSegment` (a single point stays flat).
double interpolateInTable(const std::vector<double>& x, const std::vector<double>& y, double batch,
                          bool extendLastSegment);

/// The standard normal quantile of a percentile a `table` service may state (50, 90, 95, 99).
double normalQuantileOfPercentile(int percentile);

/// One measured quantile of a batch's service time: P(S <= valueS) = percentile / 100.
struct ServiceQuantile
{
    int percentile = 50;
    double valueS = 0.0;
};

/// The lognormal sigma whose distribution has mean `meanS` and comes closest, in log space, to
/// the measured quantiles (least squares over sigma in [0, 3]; 0 when the quantiles say no
/// spread). A lognormal with mean m has q_p = m * exp(-sigma^2 / 2 + z_p * sigma).
double lognormalSigmaFromQuantiles(double meanS, const std::vector<ServiceQuantile>& quantiles);

/// What a table service's percentiles say about the spread of each measured row.
struct TableSpreadFit
{
    std::vector<double> sigmaPerRow; ///< Same order as ServiceSpec::tableBatch.
    /// Largest |fitted quantile / measured quantile - 1| over every row and percentile.
    double worstQuantileError = 0.0;
    int worstBatch = 0;
    int worstPercentile = 0;
};

/// Fits every row of a table service that states percentiles (empty when it states none).
TableSpreadFit fitTableSpread(const ServiceSpec& service);

/// The lognormal sigma of each batch size 1..maxBatch ([0] unused): linear interpolation of the
/// fitted rows in batch size, flat beyond the table's ends. Empty when the table states no
/// percentiles. Notes on the fit go to `warnings`.
std::vector<double> tableSigmas(const ServiceSpec& service, int maxBatch,
                                std::vector<std::string>& warnings);

} // namespace bs::sim
