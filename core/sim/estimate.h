#pragma once

#include "sim/result.h"

#include <span>

namespace bs::sim {

/// The mean of per-replication values and its 95% confidence interval, mean +- t(0.975, n-1)
/// * s / sqrt(n). NaN when a value is NaN (the metric does not exist); the interval is NaN for
/// a single value.
Estimate estimateOf(std::span<const double> values);

/// How an estimate stands against an upper limit (an SLA): met when its whole 95% interval
/// lies at or below it, missed when the whole interval lies above, undecided when the interval
/// holds it (more simulation would tell), unknown without a value. Without an interval (one
/// replication) the point estimate decides.
enum class LimitVerdict
{
    Met,
    Missed,
    Undecided,
    Unknown,
};
LimitVerdict judgeUpperLimit(const Estimate& estimate, double limit);

/// The 0.975 quantile of Student's t distribution with `df` degrees of freedom (exact table up
/// to 30, a Cornish-Fisher expansion beyond, accurate to 1e-4).
double studentT975(int df);

/// Jain's fairness index (sum x)^2 / (n sum x^2): 1 when all x are equal, 1/n when one takes
/// everything. NaN for fewer than 2 values or when all are 0.
double jainIndex(std::span<const double> values);

} // namespace bs::sim
