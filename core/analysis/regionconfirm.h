#pragma once

#include "analysis/regionresult.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

namespace bs {
class ThreadPool;
}

namespace bs::analysis {

class RegionGrid;
class RegionEvaluator;

/// Makes what the user is told rest on full-length runs (REGION.md, "Confirmation"):
/// 1. every feasible cell decided by a short run that lies near the boundary - a limit within
///    refinement.confirm_margin, or a grid neighbour (one step along any axis) not feasible -
///    is simulated in full (with refinement), in rounds until no such cell is left;
/// 2. the recommendation (recommend()) is then made, and it and the cells it was chosen among
///    are simulated in full when a short run decided them, until it rests on full runs.
/// Cells keep their index; their method becomes "simulated". Sets result.recommendation.
/// Deterministic for any thread count (each cell is simulated alone, with its own seed).
/// Errors: only cancellation.
Status confirmAndRecommend(RegionResult& result, const RegionGrid& grid,
                           const RegionEvaluator& evaluator, ThreadPool& pool, Progress& progress,
                           const CancelToken& cancel);

} // namespace bs::analysis
