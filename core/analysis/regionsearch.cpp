#include "analysis/regionsearch.h"

#include <algorithm>
#include <cmath>

namespace bs::analysis {

namespace {

bool narrowEnough(double lo, double hi, double tolerance)
{
    return hi - lo <= tolerance * std::abs(hi);
}

/// The margin m = (L - v) / L of an upper limit as L / v - 1, which is linear in x when the
/// value grows like 1 / (x_max - x) - as a queue's latency does towards saturation - so the
/// interpolated point lands near the root at once. Monotone in m; margins >= 1 (a lower
/// limit far exceeded) are kept as they are.
double interpolationMargin(double m)
{
    return m < 1.0 ? m / (1.0 - m) : m;
}

} // namespace

BoundaryProbe probeOf(const ConstraintVerdict& verdict, bool stable)
{
    BoundaryProbe p;
    p.feasible = stable && verdict.feasible;
    p.margin = stable ? minimumMargin(verdict) : sim::kNaN;
    p.binding = verdict.binding;
    return p;
}

BoundaryProbe probeOf(const RegionCell& cell)
{
    if (cell.status == CellStatus::Error)
        return {false, sim::kNaN, ConstraintKind::None};
    ConstraintVerdict verdict;
    verdict.checks = cell.checks;
    verdict.binding = cell.binding;
    verdict.feasible = cell.status == CellStatus::Feasible;
    return probeOf(verdict, cell.metrics.stable);
}

Expected<BoundarySearch> searchBoundary(double lo, const BoundaryProbe& atLo, double hi,
                                        const BoundaryProbe& atHi, double relativeTolerance,
                                        int maxEvaluations, const ProbeFunction& probe)
{
    BoundarySearch out;
    out.binding = atHi.binding;
    // Interpolation weights of the ends (NaN: unknown, bisect).
    double gLo = interpolationMargin(atLo.margin);
    double gHi = interpolationMargin(atHi.margin);
    int sameSide = 0; // > 0: lo moved last; < 0: hi moved last (Illinois bookkeeping)
    while (!narrowEnough(lo, hi, relativeTolerance) && out.evaluations < maxEvaluations) {
        const double width = hi - lo;
        double x = 0.5 * (lo + hi);
        if (std::isfinite(gLo) && std::isfinite(gHi) && gLo > gHi) {
            x = lo + width * gLo / (gLo - gHi);
            x = std::clamp(x, lo + 0.1 * width, hi - 0.1 * width);
        }
        auto p = probe(x);
        if (!p)
            return p.error();
        ++out.evaluations;
        if (p->feasible) {
            lo = x;
            gLo = interpolationMargin(p->margin);
            // Illinois: when the same end moves twice, halve the other end's weight.
            if (sameSide > 0)
                gHi *= 0.5;
            sameSide = 1;
        } else {
            hi = x;
            gHi = interpolationMargin(p->margin);
            out.binding = p->binding;
            if (sameSide < 0)
                gLo *= 0.5;
            sameSide = -1;
        }
    }
    out.feasibleX = lo;
    out.infeasibleX = hi;
    out.converged = narrowEnough(lo, hi, relativeTolerance);
    return out;
}

} // namespace bs::analysis
