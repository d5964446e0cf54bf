#include "analysis/regionfinalize.h"

#include "analysis/pareto.h"
#include "analysis/regionconfirm.h"
#include "analysis/regionevaluator.h"
#include "analysis/regiongrid.h"
#include "analysis/regionheadroom.h"

#include <cmath>

namespace bs::analysis {

namespace {

bool hasMetrics(const RegionCell& c)
{
    return (c.status == CellStatus::Feasible || c.status == CellStatus::Infeasible) &&
           c.metrics.stable;
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
    if (auto status = confirmAndRecommend(result, grid, evaluator, pool, progress, cancel); !status)
        return status;
    markPareto(result);
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
