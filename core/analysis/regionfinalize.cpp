#include "analysis/regionfinalize.h"

#include "analysis/pareto.h"
#include "analysis/regionevaluator.h"
#include "analysis/regiongrid.h"
#include "analysis/regionheadroom.h"

#include <array>
#include <cmath>
#include <limits>
#include <sstream>

namespace bs::analysis {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool hasMetrics(const RegionCell& c)
{
    return (c.status == CellStatus::Feasible || c.status == CellStatus::Infeasible) &&
           c.metrics.stable;
}

/// Sort key of a feasible cell for an objective; smaller is better. NaN energy sorts last.
/// Throughput ranks by the offered rate: a stable cell serves what it is offered, and cells at
/// the same rate differ in measured throughput only by noise (the end of the window), which
/// must not pick the policy - the lower p99 should.
std::array<double, 4> objectiveKey(const RegionCell& c, RegionObjective objective)
{
    const double throughput = std::isfinite(c.metrics.offeredRatePerS)
                                  ? -c.metrics.offeredRatePerS
                                  : -c.metrics.throughputPerS.value;
    const double p99 = c.metrics.p99S.value;
    const double energy = std::isnan(c.metrics.energyPerInferenceJ.value)
                              ? kInf
                              : c.metrics.energyPerInferenceJ.value;
    const double index = double(c.index);
    switch (objective) {
    case RegionObjective::MinEnergy:
        return {energy, throughput, p99, index};
    case RegionObjective::MinP99:
        return {p99, throughput, energy, index};
    case RegionObjective::MaxThroughput:
        break;
    }
    return {throughput, p99, energy, index};
}

std::string describe(const RegionCell& c, RegionObjective objective, std::size_t feasible)
{
    std::ostringstream out;
    out.precision(4);
    switch (objective) {
    case RegionObjective::MaxThroughput:
        if (std::isfinite(c.metrics.offeredRatePerS))
            out << "highest throughput (" << c.metrics.offeredRatePerS << " req/s offered, "
                << c.metrics.throughputPerS.value << " measured)";
        else
            out << "highest throughput (" << c.metrics.throughputPerS.value << " req/s)";
        break;
    case RegionObjective::MinEnergy:
        out << "lowest energy per inference (" << c.metrics.energyPerInferenceJ.value * 1000.0
            << " mJ)";
        break;
    case RegionObjective::MinP99:
        out << "lowest p99 latency (" << c.metrics.p99S.value * 1000.0 << " ms)";
        break;
    }
    out << " among " << feasible << " feasible cell(s)";
    return out.str();
}

} // namespace

void markPareto(RegionResult& result)
{
    bool energy = false;
    for (const auto& c : result.cells)
        energy = energy || (hasMetrics(c) && std::isfinite(c.metrics.energyPerInferenceJ.value));
    std::vector<std::vector<double>> points;
    for (auto& c : result.cells) {
        c.paretoOptimal = false;
        if (!hasMetrics(c)) {
            points.push_back({sim::kNaN});
            continue;
        }
        std::vector<double> p = {-c.metrics.throughputPerS.value, c.metrics.p99S.value};
        if (energy)
            p.push_back(c.metrics.energyPerInferenceJ.value);
        points.push_back(std::move(p));
    }
    result.paretoCells.clear();
    for (std::size_t i : paretoFront(points)) {
        result.cells[i].paretoOptimal = true;
        result.paretoCells.push_back(result.cells[i].index);
    }
}

std::optional<Recommendation> recommend(const RegionResult& result, RegionObjective objective)
{
    const RegionCell* best = nullptr;
    std::size_t feasible = 0;
    for (const auto& c : result.cells) {
        if (c.status != CellStatus::Feasible)
            continue;
        ++feasible;
        if (!best || objectiveKey(c, objective) < objectiveKey(*best, objective))
            best = &c;
    }
    if (!best)
        return std::nullopt;
    Recommendation r;
    r.objective = objective;
    r.cell = best->index;
    r.reason = describe(*best, objective, feasible);
    return r;
}

void summarizeResult(RegionResult& result)
{
    result.summary = summarize(result.cells);
    result.warnings.clear();
    const auto& s = result.summary;
    if (s.feasible == 0)
        result.warnings.push_back("no cell meets every constraint; nothing to recommend");
    if (s.notConfident > 0)
        result.warnings.push_back(
            std::to_string(s.notConfident) +
            " cell(s) keep a limit inside their 95% interval after refinement; their verdict "
            "is marked not confident (more requests or replications would settle it)");
    if (s.errors > 0)
        result.warnings.push_back(std::to_string(s.errors) +
                                  " cell(s) could not be simulated; their notes say why");
    for (const auto& p : result.capacity) {
        if (!p.note.empty())
            result.warnings.push_back("capacity of policy " + std::to_string(p.policy) + ": " +
                                      p.note);
    }
}

Status finalizeRegion(RegionResult& result, const RegionGrid& grid,
                      const RegionEvaluator& evaluator, ThreadPool& pool, Progress& progress,
                      const CancelToken& cancel)
{
    markPareto(result);
    result.recommendation = recommend(result, result.spec.objective);
    if (result.recommendation && result.spec.headroom.enabled) {
        progress.setPhase("headroom", 1);
        const RegionCell* cell = result.cell(result.recommendation->cell);
        auto headroom = findHeadroom(grid, evaluator, *cell, &pool, cancel);
        if (!headroom)
            return headroom.error();
        result.recommendation->headroom = *headroom;
        progress.advanceTo(1);
    }
    summarizeResult(result);
    return {};
}

} // namespace bs::analysis
