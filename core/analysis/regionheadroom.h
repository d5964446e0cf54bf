#pragma once

#include "analysis/regionresult.h"
#include "util/canceltoken.h"
#include "util/expected.h"

namespace bs {
class ThreadPool;
}

namespace bs::analysis {

class RegionGrid;
class RegionEvaluator;

/// How much more load and how much burstier traffic a feasible cell survives before it leaves
/// the region (every constraint, the demand included):
/// - load: the largest multiplier on the cell's arrival rate, searched between 1 (the cell
///   itself) and the stability limit (rho = 1);
/// - burstiness: the arrivals become a gamma renewal process of the same rate whose gap cv
///   grows from the base cv (Poisson 1) - doubling until infeasible or spec.headroom
///   max_arrival_cv, then a bracketed search. Not for replays, MMPP or several streams (note).
/// Probes run their replications on `pool` (the searches are sequential).
/// Errors: only cancellation.
Expected<Headroom> findHeadroom(const RegionGrid& grid, const RegionEvaluator& evaluator,
                                const RegionCell& cell, ThreadPool* pool,
                                const CancelToken& cancel);

} // namespace bs::analysis
