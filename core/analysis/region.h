#pragma once

#include "analysis/regionresult.h"
#include "analysis/regionspec.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace bs {
class ThreadPool;
}

namespace bs::analysis {

struct RegionOptions
{
    /// Threads for the cells; 0 = one per hardware thread. Results do not depend on it.
    std::size_t threads = 0;
    /// Run on this pool instead (the GUI shares one); `threads` is then ignored.
    ThreadPool* pool = nullptr;
    /// Relative replay files of the scenario resolve against this folder.
    std::string baseDirectory;
    /// Compute only the policies p with p % shardCount == shardIndex (scale-out; merge joins).
    std::size_t shardIndex = 0;
    std::size_t shardCount = 1;
};

/// Called once, on the computing thread, when the coarse pass is done: every cell of the
/// shard has analytic or short-run numbers (pending = true where refinement will follow), the
/// Pareto flags and the recommendation (without headroom) are those of the preview. The GUI
/// draws it at once; computeRegion carries on when the callback returns.
using RegionPreview = std::function<void(const RegionResult&)>;

/// The feasible operating region of `spec` (core/analysis/REGION.md):
///  1. coarse pass: every cell's capacity check and first short run, in parallel -> onPreview;
///  2. refinement: cells the short run did not decide go through the longer screening runs,
///     then the full simulation and, while a limit lies inside its 95% interval, the
///     replications that would settle it (up to max_replications);
///  3. capacity curve: per policy, the highest rate meeting the limits (bracketed search);
///  4. (single shard) Pareto front, recommendation for the objective and its headroom.
/// Cells run in parallel on the pool, each from the scenario seed, so the result is
/// bit-identical for any thread count, and a sharded run merged with mergeRegions equals a
/// single run. Progress phases: "screening cells", "refining cells", "capacity curves",
/// "headroom" (done/total in cells, policies or searches).
///
/// Errors: an invalid spec (key named), a replay file that cannot be read, a shard index not
/// below the count, cancellation. Unstable or unsimulatable cells are results, not errors.
Expected<RegionResult> computeRegion(const RegionSpec& spec, const RegionOptions& options = {},
                                     Progress& progress = Progress::null(),
                                     const CancelToken& cancel = CancelToken(),
                                     const RegionPreview& onPreview = {});

/// Joins the results of `--shard i/N` runs (stage "shard", every index 0..N-1 once, all from
/// the same spec) and finishes them (Pareto front, recommendation, headroom) exactly as a
/// single run would. options.baseDirectory, when set, replaces the shards' base directory;
/// the shard settings of options are ignored. Errors name the shard that does not fit.
Expected<RegionResult> mergeRegions(std::vector<RegionResult> shards,
                                    const RegionOptions& options = {},
                                    Progress& progress = Progress::null(),
                                    const CancelToken& cancel = CancelToken());

} // namespace bs::analysis
