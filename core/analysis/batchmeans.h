#pragma once

#include "analysis/distribution.h"

#include <cstddef>
#include <span>
#include <string>

namespace bs::analysis {

/// How dependent a measured sample is in time, and what that does to a percentile's interval.
/// The order-statistic interval (orderstatistics.h) assumes independent requests; requests of a
/// bursty trace are not (one burst makes many slow requests in a row), so that interval is too
/// narrow. The batch-means interval splits the sample, in arrival order, into k contiguous
/// batches (10, each long against the correlation time of any trace spanning many of them),
/// and takes the Student-t interval of the k batch percentiles around the
/// whole-sample percentile.
struct SampleDependence
{
    bool assessed = false;           ///< Enough samples (at least 10 batches of 100).
    double lag1 = kNaN;              ///< Lag-1 autocorrelation of the values in arrival order.
    bool correlated = false;         ///< lag1 above 3 standard errors of an independent sample.
    std::size_t batches = 0;         ///< Batches used (the most that are uncorrelated, >= 10).
    double batchLag1 = kNaN;         ///< Lag-1 autocorrelation of the batch p99s.
    bool batchesIndependent = false; ///< batchLag1 within 2 / sqrt(batches).
};

/// The lag-1 autocorrelation of `values` (NaN for fewer than 3 or a constant sample).
double lag1Autocorrelation(std::span<const double> values);

/// Assesses `inOrder` (values in arrival order) and, when it is correlated, widens every
/// percentile of `distribution` to at least its batch-means interval (95%, Student t over the
/// batches). Returns what it found; `distribution` is unchanged for an independent sample.
SampleDependence widenForDependence(std::span<const double> inOrder, Distribution& distribution);

/// The method the widened intervals state, for notes: "batch means over 20 batches (lag-1
/// autocorrelation 0.87; order-statistic intervals assume independent requests)".
std::string dependenceNote(const SampleDependence& dependence);

} // namespace bs::analysis
