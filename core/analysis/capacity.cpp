#include "analysis/capacity.h"

#include "analysis/regionevaluator.h"
#include "analysis/regiongrid.h"
#include "analysis/regionsearch.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace bs::analysis {

namespace {

constexpr int kMaxHalvings = 8;

std::string rateText(double v)
{
    std::ostringstream out;
    out.precision(4);
    out << v;
    return out.str();
}

struct RatePoint
{
    double ratePerS = 0.0;
    BoundaryProbe probe;
};

/// The grid cells of the policy as (rate, probe without the demand), skipping error cells.
std::vector<RatePoint> gridPoints(const RegionGrid& grid,
                                  const std::vector<const RegionCell*>& cells,
                                  double& stabilityLimit)
{
    std::vector<RatePoint> points;
    for (const RegionCell* cell : cells) {
        if (!cell || cell->status == CellStatus::Error)
            continue;
        const auto verdict = checkConstraints(grid.spec().constraints, cell->metrics, 1.0, false);
        points.push_back({grid.cellRatePerS(cell->index), probeOf(verdict, cell->metrics.stable)});
        if (std::isnan(stabilityLimit) && std::isfinite(cell->metrics.capacityRatePerS))
            stabilityLimit = cell->metrics.capacityRatePerS;
    }
    return points;
}

/// One policy's search: cheap probes narrow the bracket, settled probes confirm its ends.
class CapacitySearch
{
public:
    CapacitySearch(const RegionGrid& grid, const RegionEvaluator& evaluator, std::size_t firstCell,
                   const CancelToken& cancel)
        : m_grid(grid)
        , m_evaluator(evaluator)
        , m_firstCell(firstCell)
        , m_cancel(cancel)
    {}

    int evaluations() const { return m_evaluations; }
    std::uint64_t simulatedRequests() const { return m_simulatedRequests; }

    /// A point whose verdict more simulation would not change (grid cells, rho >= 1).
    void addSettled(const RatePoint& p) { m_settled[p.ratePerS] = p.probe; }

    /// The verdict of the cheapest runs that decide, or the point estimate of the longest
    /// screening run when none does (RegionEvaluator::estimate).
    Expected<BoundaryProbe> cheap(double rate)
    {
        ++m_evaluations;
        auto cell = m_evaluator.estimate(scenarioAt(rate), m_cancel, false);
        if (!cell)
            return cell.error();
        m_simulatedRequests += cell->simulatedRequests;
        const BoundaryProbe probe = probeOf(*cell);
        if (cell->pending)
            m_pending.insert(rate);
        else
            m_settled[rate] = probe;
        return probe;
    }

    /// A settled verdict: as known, or the full run (after the screening runs, when the cheap
    /// probe has not run them already).
    Expected<BoundaryProbe> settled(double rate)
    {
        if (const auto it = m_settled.find(rate); it != m_settled.end())
            return it->second;
        ++m_evaluations;
        const sim::Scenario scenario = scenarioAt(rate);
        auto cell = m_pending.contains(rate)
                        ? m_evaluator.simulate(scenario, false, nullptr, m_cancel, false)
                        : m_evaluator.evaluate(scenario, false, nullptr, m_cancel, false);
        if (!cell)
            return cell.error();
        m_simulatedRequests += cell->simulatedRequests;
        m_settled[rate] = probeOf(*cell);
        return m_settled[rate];
    }

private:
    sim::Scenario scenarioAt(double rate) const
    {
        return m_grid.simulationScenario(m_firstCell, rate);
    }

    const RegionGrid& m_grid;
    const RegionEvaluator& m_evaluator;
    std::size_t m_firstCell;
    const CancelToken& m_cancel;
    int m_evaluations = 0;
    std::uint64_t m_simulatedRequests = 0;
    std::map<double, BoundaryProbe> m_settled;
    std::set<double> m_pending;
};

/// Narrows [lo, hi] (lo settled feasible, hi infeasible) with cheap probes and settles the
/// feasible end it finds. When the settled verdict disagrees (screening runs start from an
/// empty queue and tend to be optimistic), [lo, that rate] is searched again with settled
/// probes only. The infeasible end may keep a cheap verdict: a limit that even an optimistic
/// screening run sees violated is violated (the rule screening uses to decide violations).
/// Each phase has capacity.max_evaluations probes.
Expected<BoundarySearch> narrow(CapacitySearch& search, const RatePoint& lo, const RatePoint& hi,
                                const RegionSearch& settings)
{
    const ProbeFunction cheap = [&](double x) { return search.cheap(x); };
    const ProbeFunction settled = [&](double x) { return search.settled(x); };
    auto found = searchBoundary(lo.ratePerS, lo.probe, hi.ratePerS, hi.probe,
                                settings.relativeTolerance, settings.maxEvaluations, cheap);
    if (!found || found->feasibleX == lo.ratePerS)
        return found;
    auto end = search.settled(found->feasibleX);
    if (!end)
        return end.error();
    if (end->feasible)
        return found;
    return searchBoundary(lo.ratePerS, lo.probe, found->feasibleX, *end, settings.relativeTolerance,
                          settings.maxEvaluations - 1, settled);
}

} // namespace

Expected<CapacityPoint> findCapacity(const RegionGrid& grid, const RegionEvaluator& evaluator,
                                     std::size_t policy,
                                     const std::vector<const RegionCell*>& cells,
                                     const CancelToken& cancel)
{
    const auto& settings = grid.spec().capacity;
    const std::size_t firstCell = grid.cellsOfPolicy(policy).front();
    CapacityPoint out;
    out.policy = policy;
    out.axisIndex = grid.axisIndex(firstCell);
    out.stabilityLimitPerS = sim::kNaN;
    const auto points = gridPoints(grid, cells, out.stabilityLimitPerS);
    if (points.empty()) {
        out.note = "no cell of this policy could be simulated";
        return out;
    }
    CapacitySearch search(grid, evaluator, firstCell, cancel);
    for (const auto& p : points)
        search.addSettled(p);
    const auto bad = std::find_if(points.begin(), points.end(),
                                  [](const RatePoint& p) { return !p.probe.feasible; });
    if (bad != points.end() &&
        std::any_of(bad, points.end(), [](const RatePoint& p) { return p.probe.feasible; }))
        out.note = "feasible again above " + rateText(bad->ratePerS) +
                   " req/s: a limit is not monotone in the rate (e.g. energy per inference at "
                   "light load); the capacity is the first crossing";
    RatePoint lo;
    RatePoint hi;
    bool haveLo = bad != points.begin();
    if (haveLo)
        lo = *(bad - 1);
    hi = bad != points.end()
             ? *bad
             : RatePoint{out.stabilityLimitPerS, {false, sim::kNaN, ConstraintKind::Stability}};
    if (!(hi.ratePerS > 0.0) || !std::isfinite(hi.ratePerS)) {
        out.note = "no stability limit is known for this policy";
        return out;
    }
    search.addSettled(hi);
    for (int i = 0; !haveLo && i < kMaxHalvings; ++i) {
        // Halving towards a feasible rate: each point settled, so the bracket is sound.
        const double rate = 0.5 * hi.ratePerS;
        auto p = search.settled(rate);
        if (!p)
            return p.error();
        (p->feasible ? lo : hi) = RatePoint{rate, *p};
        haveLo = p->feasible;
    }
    if (!haveLo) {
        out.infeasibleRatePerS = hi.ratePerS;
        out.binding = hi.probe.binding;
        out.evaluations = search.evaluations();
        out.simulatedRequests = search.simulatedRequests();
        out.note = "meets the limits at no rate down to " + rateText(hi.ratePerS) + " req/s";
        return out;
    }
    auto found = narrow(search, lo, hi, settings);
    if (!found)
        return found.error();
    out.maxRatePerS = found->feasibleX;
    out.infeasibleRatePerS = found->infeasibleX;
    out.binding = found->binding;
    out.converged = found->feasibleX > 0.0 && found->infeasibleX - found->feasibleX <=
                                                  settings.relativeTolerance * found->infeasibleX;
    out.evaluations = search.evaluations();
    out.simulatedRequests = search.simulatedRequests();
    return out;
}

} // namespace bs::analysis
