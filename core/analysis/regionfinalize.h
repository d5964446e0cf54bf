#pragma once

#include "analysis/regionresult.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <optional>
#include <string>

namespace bs {
class ThreadPool;
}

namespace bs::analysis {

class RegionGrid;
class RegionEvaluator;

/// Marks the Pareto-optimal cells (paretoOptimal, result.paretoCells) among the stable cells
/// with metrics: throughput up, p99 down and - when the scenario has power information -
/// energy per inference down.
void markPareto(RegionResult& result);

/// The feasible cell that best meets `objective`, with a one-line reason; nothing without
/// feasible cells. Cells whose objective metric the simulation cannot separate from the best
/// (difference within the combined 95% half-widths; an offered rate is exact) are
/// indistinguishable: among them the choice goes by lower p99, then lower energy per inference
/// (min-p99: lower energy, then more throughput), and they are listed in the recommendation.
std::optional<Recommendation> recommend(const RegionResult& result, RegionObjective objective);

/// The warnings and summary of a result from its cells.
void summarizeResult(RegionResult& result);

/// What a single run or a merge does last: confirmation of boundary cells and of the
/// recommendation by full runs (regionconfirm.h), Pareto front, recommendation, its headroom
/// (spec.headroom.enabled) on `pool`, warnings and summary. Errors: only cancellation.
Status finalizeRegion(RegionResult& result, const RegionGrid& grid,
                      const RegionEvaluator& evaluator, ThreadPool& pool, Progress& progress,
                      const CancelToken& cancel);

} // namespace bs::analysis
