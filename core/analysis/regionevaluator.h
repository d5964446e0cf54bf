#pragma once

#include "analysis/regionresult.h"
#include "analysis/regionspec.h"
#include "sim/scenario.h"
#include "util/canceltoken.h"
#include "util/expected.h"

#include <string>

namespace bs {
class ThreadPool;
}

namespace bs::analysis {

/// Judges one operating point against the constraints: the adaptive part of the region
/// analysis. Stateless apart from the spec; const methods, safe from any number of threads.
///
/// - screen(): the capacity check (rho >= 1 is unstable at once, "analytic"), else a
///   screening run of stage k (refinement.screen_*: screen_requests * 8^k requests). It
///   decides when every limit lies screen_half_widths half-widths of the run's interval away
///   (a violation at any load, "feasible" only below screen_max_rho). Undecided results come
///   back with pending = true.
/// - simulate(): the full scenario (its requests and replications); with `refine`, while some
///   limit still lies inside its 95% interval, again with the replications the interval's
///   1/sqrt(n) shrinkage says would settle it, up to max_replications - or not at all when
///   even max_replications would not (the cell is then marked not confident at once).
/// - evaluate(): the screening stages from `firstStage` while undecided, then simulate().
///
/// Errors: only cancellation. A scenario the simulator rejects gives a cell with status Error
/// and the reason in its note, so one bad corner never stops a grid.
class RegionEvaluator
{
public:
    RegionEvaluator(const RegionSpec& spec, std::string baseDirectory);

    /// How many screening stages are worth running before the full run of `scenario` (each
    /// costs less than half of it); 0 when screening is off.
    int stagesFor(const sim::Scenario& scenario) const;

    /// `withThroughput` = false ignores the demand (capacity searches).
    Expected<RegionCell> screen(const sim::Scenario& scenario, const CancelToken& cancel,
                                bool withThroughput = true, int stage = 0) const;
    /// `pool`: run the replications there (sequential callers); null = on this thread.
    Expected<RegionCell> simulate(const sim::Scenario& scenario, bool refine, ThreadPool* pool,
                                  const CancelToken& cancel, bool withThroughput = true) const;
    /// The screening stages while undecided, returning the last one's cell - pending, with its
    /// point-estimate verdict, when none decided - or, when no stage is cheaper than the full
    /// run (or screening is off), the full run without refinement. Searches narrow their
    /// bracket with it before settling its ends (capacity.h).
    Expected<RegionCell> estimate(const sim::Scenario& scenario, const CancelToken& cancel,
                                  bool withThroughput = true) const;
    /// Screening stages firstStage .. stagesFor() - 1 while undecided, then simulate().
    /// simulatedRequests counts every run.
    Expected<RegionCell> evaluate(const sim::Scenario& scenario, bool refine, ThreadPool* pool,
                                  const CancelToken& cancel, bool withThroughput = true,
                                  int firstStage = 0) const;

private:
    sim::Scenario stageScenario(const sim::Scenario& scenario, int stage) const;

    RegionConstraints m_constraints;
    RegionRefinement m_refinement;
    std::string m_baseDirectory;
};

} // namespace bs::analysis
