#pragma once

#include "analysis/regionresult.h"
#include "util/canceltoken.h"
#include "util/expected.h"

#include <vector>

namespace bs::analysis {

class RegionGrid;
class RegionEvaluator;

/// The capacity curve point of one policy: the highest arrival rate at which it meets every
/// limit except the demand (p99 SLA, power, temperature, energy), found by a bracketed search
/// on the rate (regionsearch.h).
///
/// The bracket comes from the policy's grid cells (`cells`, one per rate, by increasing rate,
/// already evaluated): the highest feasible rate below the first infeasible one; without an
/// infeasible cell the upper end is the stability limit (rho = 1, infeasible by definition);
/// without a feasible one the rate is halved (at most 8 times) until one is. The search then
/// narrows the bracket with cheap probes (RegionEvaluator::estimate: the screening runs, their
/// point estimate when they do not decide), settles both ends of the narrow bracket (the full
/// run where the screening runs could not decide), and where a settled verdict disagrees
/// searches the settled bracket again with settled probes, so both ends of the reported
/// bracket carry verdicts as sound as the grid cells'. At most capacity.max_evaluations probes
/// in all; every probe runs on this thread (no replication doubling), so policies can be
/// searched in parallel. Errors: only cancellation.
Expected<CapacityPoint> findCapacity(const RegionGrid& grid, const RegionEvaluator& evaluator,
                                     std::size_t policy,
                                     const std::vector<const RegionCell*>& cells,
                                     const CancelToken& cancel);

} // namespace bs::analysis
