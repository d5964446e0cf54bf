#pragma once

#include "analysis/regionconstraints.h"
#include "analysis/regionresult.h"
#include "util/expected.h"

#include <functional>

namespace bs::analysis {

/// What a search learns at one point x (a rate, a multiplier, an arrival cv).
struct BoundaryProbe
{
    bool feasible = false;
    /// The smallest relative margin (>= 0 when feasible); NaN when unstable or unknown.
    double margin = 0.0;
    ConstraintKind binding = ConstraintKind::None;
};

/// Where the feasibility boundary lies between two points.
struct BoundarySearch
{
    double feasibleX = 0.0;                        ///< The largest x found feasible.
    double infeasibleX = 0.0;                      ///< The smallest x found infeasible.
    ConstraintKind binding = ConstraintKind::None; ///< What fails at infeasibleX.
    int evaluations = 0;
    bool converged = false; ///< infeasibleX - feasibleX <= relativeTolerance * infeasibleX.
};

using ProbeFunction = std::function<Expected<BoundaryProbe>(double x)>;

/// Narrows [lo, hi] (feasible at lo, infeasible at hi, lo < hi) to the boundary, assuming
/// feasibility is lost once as x grows. Each step is a bisection, or - when both ends have a
/// margin - the regula falsi point of the margins (Illinois variant, kept inside the middle 80%
/// of the bracket), which needs far fewer simulations on smooth margins such as p99(rate)
/// under common random numbers. The margins are interpolated as L / v - 1 (linear in x when
/// v grows like 1 / (x_max - x), as latency towards saturation). Stops at the tolerance or
/// after maxEvaluations probes.
Expected<BoundarySearch> searchBoundary(double lo, const BoundaryProbe& atLo, double hi,
                                        const BoundaryProbe& atHi, double relativeTolerance,
                                        int maxEvaluations, const ProbeFunction& probe);

/// The probe of a verdict (margin NaN when unstable).
BoundaryProbe probeOf(const ConstraintVerdict& verdict, bool stable);
/// The probe of an evaluated cell (an error cell is infeasible with no margin).
BoundaryProbe probeOf(const RegionCell& cell);

} // namespace bs::analysis
