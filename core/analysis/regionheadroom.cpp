#include "analysis/regionheadroom.h"

#include "analysis/regionevaluator.h"
#include "analysis/regiongrid.h"
#include "analysis/regionsearch.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace bs::analysis {

namespace {

/// A probe that evaluates `make(x)` and counts the evaluations in `count`.
template <typename Make>
ProbeFunction prober(const RegionEvaluator& evaluator, ThreadPool* pool, const CancelToken& cancel,
                     int& count, Make make)
{
    return [&evaluator, pool, &cancel, &count, make](double x) -> Expected<BoundaryProbe> {
        ++count;
        auto cell = evaluator.evaluate(make(x), false, pool, cancel, true);
        if (!cell)
            return cell.error();
        return probeOf(*cell);
    };
}

Status loadHeadroom(const RegionGrid& grid, const ProbeFunction& probe, const RegionCell& cell,
                    Headroom& out)
{
    const auto& settings = grid.spec().headroom;
    const double rate = grid.cellRatePerS(cell.index);
    const double limit = cell.metrics.capacityRatePerS / rate;
    if (!(limit > 1.0) || !std::isfinite(limit)) {
        out.loadMultiplier = 1.0;
        out.maxRatePerS = rate;
        out.loadBinding = ConstraintKind::Stability;
        return {};
    }
    auto search =
        searchBoundary(1.0, probeOf(cell), limit, {false, sim::kNaN, ConstraintKind::Stability},
                       settings.relativeTolerance, settings.maxEvaluations, probe);
    if (!search)
        return search.error();
    out.loadMultiplier = search->feasibleX;
    out.maxRatePerS = search->feasibleX * rate;
    out.loadBinding = search->binding;
    out.loadConverged = search->converged;
    return {};
}

Status burstHeadroom(const RegionGrid& grid, const ProbeFunction& probe, const RegionCell& cell,
                     Headroom& out)
{
    const auto& settings = grid.spec().headroom;
    const double cv0 = grid.baseArrivalCv();
    out.baseArrivalCv = cv0;
    double lo = cv0;
    BoundaryProbe atLo = probeOf(cell);
    double x = std::min(cv0 < 0.5 ? 1.0 : 2.0 * cv0, settings.maxArrivalCv);
    int evaluations = 0;
    for (;;) {
        if (!(x > lo)) {
            // The base traffic is already at the search limit.
            out.maxArrivalCv = lo;
            out.note = "burstiness: the arrivals' cv is already at max_arrival_cv";
            return {};
        }
        auto p = probe(x);
        if (!p)
            return p.error();
        ++evaluations;
        if (!p->feasible) {
            auto search = searchBoundary(lo, atLo, x, *p, settings.relativeTolerance,
                                         std::max(0, settings.maxEvaluations - evaluations), probe);
            if (!search)
                return search.error();
            out.maxArrivalCv = search->feasibleX;
            out.burstBinding = search->binding;
            out.burstConverged = search->converged;
            return {};
        }
        lo = x;
        atLo = *p;
        if (x >= settings.maxArrivalCv || evaluations >= settings.maxEvaluations) {
            out.maxArrivalCv = x;
            std::ostringstream text;
            text << "burstiness: still feasible at arrival cv " << x
                 << ", the end of the search (headroom.max_arrival_cv)";
            out.note = text.str();
            return {};
        }
        x = std::min(2.0 * x, settings.maxArrivalCv);
    }
}

} // namespace

Expected<Headroom> findHeadroom(const RegionGrid& grid, const RegionEvaluator& evaluator,
                                const RegionCell& cell, ThreadPool* pool, const CancelToken& cancel)
{
    Headroom out;
    out.loadMultiplier = sim::kNaN;
    out.maxRatePerS = sim::kNaN;
    out.baseArrivalCv = sim::kNaN;
    out.maxArrivalCv = sim::kNaN;
    int evaluations = 0;
    const double rate = grid.cellRatePerS(cell.index);
    const auto loadProbe = prober(evaluator, pool, cancel, evaluations, [&](double m) {
        return grid.simulationScenario(cell.index, m * rate);
    });
    if (auto status = loadHeadroom(grid, loadProbe, cell, out); !status)
        return status.error();
    if (!grid.supportsBurstiness()) {
        out.note = "burstiness headroom needs one stream of Poisson, deterministic or gamma "
                   "arrivals";
    } else {
        const sim::Scenario base = grid.simulationScenario(cell.index);
        const auto burstProbe = prober(evaluator, pool, cancel, evaluations, [&](double cv) {
            return RegionGrid::withArrivalCv(base, cv);
        });
        if (auto status = burstHeadroom(grid, burstProbe, cell, out); !status)
            return status.error();
    }
    out.evaluations = evaluations;
    return out;
}

} // namespace bs::analysis
