#pragma once

#include "sim/result.h"
#include "sim/scenario.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <cstddef>
#include <string>

namespace bs {
class ThreadPool;
}

namespace bs::sim {

struct SimOptions
{
    /// Threads for the replications; 0 = one per hardware thread. Results do not depend on it.
    std::size_t threads = 0;
    /// Run on this pool instead (the GUI shares one); `threads` is then ignored.
    ThreadPool* pool = nullptr;
    /// Relative replay files are resolved against this folder (the scenario file's folder).
    std::string baseDirectory;
    /// Latency percentiles per time-series window (replication 0). A caller that reads only the
    /// summary (the region analysis runs thousands of cells) turns them off: in a short run they
    /// cost about as much as the overall percentiles. Off, those series hold NaN.
    bool seriesLatencyPercentiles = true;
};

/// Runs a scenario: its replications in parallel (one seed each, derived from scenario.seed),
/// reduced in index order, so the Result is bit-identical for any thread count.
///
/// Errors: a service model or replay that cannot be built (file missing, timestamps out of
/// order), requests that can never be dispatched (a static batch without timeout over a replay
/// that ends), cancellation, memory exhaustion. An overloaded system is not an error: the
/// Result says stability.stable = false, why (naming the keys), and carries no latency metrics.
Expected<Result> simulate(const Scenario& scenario, const SimOptions& options = {},
                          Progress& progress = Progress::null(),
                          const CancelToken& cancel = CancelToken());

} // namespace bs::sim
