// confirmAndRecommend(): no feasible verdict near the boundary and no recommendation rests on a
// short run (REGION.md, "Confirmation").
#include "analysis/regionconfirm.h"

#include "analysis/regionevaluator.h"
#include "analysis/regionfinalize.h"
#include "analysis/regiongrid.h"
#include "util/threadpool.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace bs::analysis {

namespace {

/// Rounds of boundary confirmation at most: each round's overturned cells make their
/// neighbours boundary cells of the next; a grid needs as many rounds as the boundary moves.
constexpr int kMaxBoundaryRounds = 8;

bool decidedByShortRun(const RegionCell& c)
{
    return c.status == CellStatus::Feasible && c.method == CellMethod::ShortRun;
}

bool nearLimit(const RegionCell& c, double confirmMargin)
{
    for (const auto& check : c.checks) {
        if (std::isfinite(check.margin) && check.margin < confirmMargin)
            return true;
    }
    return false;
}

/// A grid neighbour (one step along one axis) that is not feasible.
bool nextToBoundary(const RegionResult& result, const RegionGrid& grid, const RegionCell& c)
{
    std::vector<std::size_t> at = c.axisIndex;
    for (std::size_t a = 0; a < at.size(); ++a) {
        const std::size_t own = at[a];
        for (int step : {-1, 1}) {
            if ((step < 0 && own == 0) || own + step >= grid.spec().axes[a].size())
                continue;
            at[a] = own + step;
            const RegionCell* neighbour = result.cell(grid.cellAt(at));
            at[a] = own;
            if (neighbour && neighbour->status != CellStatus::Feasible)
                return true;
        }
    }
    return false;
}

/// Runs the full (refined) simulation of each listed cell in parallel and puts it in place.
Status confirm(RegionResult& result, const RegionGrid& grid, const RegionEvaluator& evaluator,
               const std::vector<std::size_t>& positions, ThreadPool& pool,
               const CancelToken& cancel)
{
    std::vector<std::optional<Expected<RegionCell>>> confirmed(positions.size());
    pool.parallelFor(
        positions.size(),
        [&](std::size_t i) {
            const RegionCell& old = result.cells[positions[i]];
            confirmed[i] =
                evaluator.simulate(grid.simulationScenario(old.index), true, nullptr, cancel);
        },
        cancel);
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "region analysis cancelled");
    for (std::size_t i = 0; i < positions.size(); ++i) {
        if (!*confirmed[i])
            return confirmed[i]->error();
        RegionCell& cell = result.cells[positions[i]];
        RegionCell full = std::move(**confirmed[i]);
        full.index = cell.index;
        full.axisIndex = cell.axisIndex;
        full.simulatedRequests += cell.simulatedRequests;
        full.paretoOptimal = cell.paretoOptimal;
        cell = std::move(full);
    }
    return {};
}

std::vector<std::size_t> boundaryCells(const RegionResult& result, const RegionGrid& grid)
{
    const double margin = grid.spec().refinement.confirmMargin;
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < result.cells.size(); ++i) {
        const RegionCell& c = result.cells[i];
        if (decidedByShortRun(c) && (nearLimit(c, margin) || nextToBoundary(result, grid, c)))
            out.push_back(i);
    }
    return out;
}

std::size_t positionOf(const RegionResult& result, std::size_t cellIndex)
{
    for (std::size_t i = 0; i < result.cells.size(); ++i) {
        if (result.cells[i].index == cellIndex)
            return i;
    }
    return result.cells.size();
}

} // namespace

Status confirmAndRecommend(RegionResult& result, const RegionGrid& grid,
                           const RegionEvaluator& evaluator, ThreadPool& pool, Progress& progress,
                           const CancelToken& cancel)
{
    progress.setPhase("confirming boundary cells", 0);
    for (int round = 0; round < kMaxBoundaryRounds; ++round) {
        const auto cells = boundaryCells(result, grid);
        if (cells.empty())
            break;
        if (auto status = confirm(result, grid, evaluator, cells, pool, cancel); !status)
            return status;
    }
    // The recommendation: confirmed in full; when the full run overturns it, the next best.
    for (;;) {
        result.recommendation = recommend(result, result.spec.objective);
        if (!result.recommendation)
            return {};
        // The cells it was chosen among are compared on full runs too.
        std::vector<std::size_t> shortRuns;
        auto candidates = result.recommendation->indistinguishableCells;
        candidates.push_back(result.recommendation->cell);
        for (std::size_t index : candidates) {
            const std::size_t at = positionOf(result, index);
            if (at < result.cells.size() && decidedByShortRun(result.cells[at]) &&
                std::find(shortRuns.begin(), shortRuns.end(), at) == shortRuns.end())
                shortRuns.push_back(at);
        }
        if (shortRuns.empty())
            return {};
        if (auto status = confirm(result, grid, evaluator, shortRuns, pool, cancel); !status)
            return status;
    }
}

} // namespace bs::analysis
