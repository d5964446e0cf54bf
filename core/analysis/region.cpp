// computeRegion and mergeRegions: the orchestration of the feasible-region analysis
// (core/analysis/REGION.md). The parts live next door: regiongrid (cells), regionevaluator
// (screening and refinement of one cell), capacity (per-policy searches), regionfinalize
// (Pareto front, recommendation, headroom).
#include "analysis/region.h"

#include "analysis/capacity.h"
#include "analysis/regionevaluator.h"
#include "analysis/regionfinalize.h"
#include "analysis/regiongrid.h"
#include "util/numbertext.h"
#include "util/threadpool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

namespace bs::analysis {

namespace {

/// The pool of the options, or one of our own.
class PoolChoice
{
public:
    explicit PoolChoice(const RegionOptions& options)
    {
        if (options.pool) {
            m_pool = options.pool;
            return;
        }
        m_own = std::make_unique<ThreadPool>(options.threads);
        m_pool = m_own.get();
    }
    ThreadPool& pool() { return *m_pool; }

private:
    std::unique_ptr<ThreadPool> m_own;
    ThreadPool* m_pool = nullptr;
};

/// Progress shared by the bodies of a parallelFor (Progress itself is single-threaded): the
/// count is atomic and whoever gets the lock reports.
class SharedProgress
{
public:
    SharedProgress(Progress& progress, std::string phase, std::uint64_t total)
        : m_progress(progress)
    {
        m_progress.setPhase(std::move(phase), total);
    }
    void tick()
    {
        const auto done = m_done.fetch_add(1, std::memory_order_relaxed) + 1;
        if (std::unique_lock lock(m_mutex, std::try_to_lock); lock.owns_lock()) {
            m_reported = std::max(m_reported, done); // another thread may have counted more
            m_progress.advanceTo(m_reported);
        }
    }

private:
    Progress& m_progress;
    std::atomic<std::uint64_t> m_done{0};
    std::uint64_t m_reported = 0; ///< Guarded by m_mutex.
    std::mutex m_mutex;
};

/// The first error in index order (so errors do not depend on the threads), else cancellation.
Status firstError(const std::vector<std::optional<Error>>& errors, const CancelToken& cancel)
{
    for (const auto& e : errors) {
        if (e)
            return *e;
    }
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "region analysis cancelled");
    return {};
}

/// Runs body(i) for i < n on the pool; each body returns a Status (only cancellation fails).
/// The first failure in index order is returned, so errors do not depend on the threads.
template <typename Body>
Status parallelStatus(ThreadPool& pool, std::size_t n, const CancelToken& cancel, Body body)
{
    std::vector<std::optional<Error>> errors(n);
    pool.parallelFor(
        n,
        [&](std::size_t i) {
            if (auto status = body(i); !status)
                errors[i] = status.error();
        },
        cancel);
    return firstError(errors, cancel);
}

/// The cells and policies of shard `index` of `count`: policy p belongs to shard p % count.
struct ShardPart
{
    std::vector<std::size_t> cells; ///< Ascending.
    std::vector<std::size_t> policies;
};

ShardPart shardPart(const RegionGrid& grid, std::size_t index, std::size_t count)
{
    ShardPart out;
    for (std::size_t p = index; p < grid.policyCount(); p += count)
        out.policies.push_back(p);
    for (std::size_t c = 0; c < grid.cellCount(); ++c) {
        if (grid.policyOf(c) % count == index)
            out.cells.push_back(c);
    }
    return out;
}

/// Coarse pass of one cell: its capacity check and first screening run, or - when no
/// screening run is cheaper than the cell's own run - that run in full (without refinement).
Expected<RegionCell> coarseCell(const RegionGrid& grid, const RegionEvaluator& evaluator,
                                std::size_t index, const CancelToken& cancel)
{
    const auto& refinement = grid.spec().refinement;
    const sim::Scenario scenario = grid.simulationScenario(index);
    const bool screened = evaluator.stagesFor(scenario) > 0;
    auto cell = screened ? evaluator.screen(scenario, cancel)
                         : evaluator.simulate(scenario, false, nullptr, cancel);
    if (!cell)
        return cell;
    cell->index = index;
    cell->axisIndex = grid.axisIndex(index);
    const bool analytic = cell->method == CellMethod::Analytic;
    if (cell->status == CellStatus::Error || analytic)
        cell->pending = false;
    else if (screened)
        // An undecided short run is refined; with screening off every one is (it is only the
        // preview of the full run).
        cell->pending = cell->pending || !refinement.screen;
    else
        cell->pending = !cell->confident && scenario.replications < refinement.maxReplications;
    return cell;
}

/// Refines a pending cell: the later screening stages and then the full run after a short
/// run; the full run with more replications after a full run (it is cheap: no screening run
/// was cheaper).
Expected<RegionCell> refinedCell(const RegionGrid& grid, const RegionEvaluator& evaluator,
                                 const RegionCell& coarse, const CancelToken& cancel)
{
    const sim::Scenario scenario = grid.simulationScenario(coarse.index);
    auto refined = coarse.method == CellMethod::ShortRun
                       ? evaluator.evaluate(scenario, true, nullptr, cancel, true, 1)
                       : evaluator.simulate(scenario, true, nullptr, cancel, true);
    if (!refined)
        return refined;
    refined->index = coarse.index;
    refined->axisIndex = coarse.axisIndex;
    refined->simulatedRequests += coarse.simulatedRequests;
    return refined;
}

Status screenCells(const RegionGrid& grid, const RegionEvaluator& evaluator,
                   const std::vector<std::size_t>& cells, ThreadPool& pool, Progress& progress,
                   const CancelToken& cancel, std::vector<RegionCell>& out)
{
    out.assign(cells.size(), RegionCell());
    SharedProgress shared(progress, "screening cells", cells.size());
    return parallelStatus(pool, cells.size(), cancel, [&](std::size_t i) -> Status {
        auto cell = coarseCell(grid, evaluator, cells[i], cancel);
        if (!cell)
            return cell.error();
        out[i] = std::move(*cell);
        shared.tick();
        return {};
    });
}

/// Refinement order: cells nearest a limit first (they need the most replications), so the
/// long ones do not start last; the order only affects timing, never the result.
std::vector<std::size_t> refinementOrder(const std::vector<RegionCell>& cells)
{
    std::vector<std::size_t> order;
    std::vector<double> closeness;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (!cells[i].pending)
            continue;
        order.push_back(i);
        double nearest = INFINITY;
        for (const auto& check : cells[i].checks) {
            if (std::isfinite(check.margin))
                nearest = std::min(nearest, std::abs(check.margin));
        }
        closeness.push_back(nearest);
    }
    std::vector<std::size_t> byCloseness(order.size());
    for (std::size_t i = 0; i < byCloseness.size(); ++i)
        byCloseness[i] = i;
    std::stable_sort(byCloseness.begin(), byCloseness.end(),
                     [&](std::size_t a, std::size_t b) { return closeness[a] < closeness[b]; });
    std::vector<std::size_t> out;
    for (std::size_t i : byCloseness)
        out.push_back(order[i]);
    return out;
}

/// The work after the coarse pass: refinements (nearest a limit first), then one capacity search
/// per policy. A search reads its policy's refined cells, so it becomes ready when the last of
/// them is refined; a thread takes the first ready item. Without a barrier between the two
/// kinds, no core idles while the other finishes the last long refinement. The order only
/// affects timing: every item writes its own slot, so the result never depends on it.
class RefineThenSearch
{
public:
    RefineThenSearch(const RegionGrid& grid, const std::vector<RegionCell>& cells,
                     std::vector<std::size_t> refinements, const std::vector<std::size_t>& policies)
        : m_refinements(std::move(refinements))
        , m_searches(policies.size())
        , m_waitingCells(policies.size(), 0)
        , m_taken(policies.size(), false)
    {
        std::map<std::size_t, std::size_t> searchOfPolicy;
        for (std::size_t k = 0; k < policies.size(); ++k)
            searchOfPolicy[policies[k]] = k;
        for (std::size_t cell : m_refinements) {
            const auto it = searchOfPolicy.find(grid.policyOf(cells[cell].index));
            m_searchOfRefinement.push_back(it == searchOfPolicy.end() ? kNone : it->second);
            if (it != searchOfPolicy.end())
                ++m_waitingCells[it->second];
        }
    }

    std::size_t items() const { return m_refinements.size() + m_searches; }
    bool isRefinement(std::size_t item) const { return item < m_refinements.size(); }
    std::size_t cellOf(std::size_t item) const { return m_refinements[item]; }
    std::size_t searchOf(std::size_t item) const { return item - m_refinements.size(); }

    /// The next item, waiting while only searches whose cells are still being refined remain;
    /// nothing once every item is taken or the work is cancelled.
    std::optional<std::size_t> take(const CancelToken& cancel)
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            if (cancel.isCancelled())
                return std::nullopt;
            if (m_nextRefinement < m_refinements.size())
                return m_nextRefinement++;
            bool anyLeft = false;
            for (std::size_t k = 0; k < m_searches; ++k) {
                if (m_taken[k])
                    continue;
                anyLeft = true;
                if (m_waitingCells[k] == 0) {
                    m_taken[k] = true;
                    return m_refinements.size() + k;
                }
            }
            if (!anyLeft)
                return std::nullopt;
            // A refinement in progress elsewhere will finish (or see the cancel) and wake us.
            m_refined.wait_for(lock, std::chrono::milliseconds(20));
        }
    }

    /// Called after every item, done or failed, so no search waits for ever.
    void finished(std::size_t item)
    {
        if (!isRefinement(item))
            return;
        {
            std::lock_guard lock(m_mutex);
            if (const std::size_t k = m_searchOfRefinement[item]; k != kNone)
                --m_waitingCells[k];
        }
        m_refined.notify_all();
    }

private:
    static constexpr std::size_t kNone = SIZE_MAX;
    std::vector<std::size_t> m_refinements; ///< Cell positions, in refinement order.
    std::vector<std::size_t> m_searchOfRefinement;
    std::size_t m_searches;
    std::mutex m_mutex;
    std::condition_variable m_refined;
    std::size_t m_nextRefinement = 0;        ///< Guarded by m_mutex.
    std::vector<std::size_t> m_waitingCells; ///< Per search; guarded by m_mutex.
    std::vector<bool> m_taken;               ///< Per search; guarded by m_mutex.
};

/// Refines the pending cells and runs the capacity search of every policy of the shard (when
/// the spec asks for capacity curves).
Status refineAndSearch(const RegionGrid& grid, const RegionEvaluator& evaluator,
                       const std::vector<std::size_t>& policies, ThreadPool& pool,
                       Progress& progress, const CancelToken& cancel,
                       std::vector<RegionCell>& cells, RegionResult& result)
{
    const bool capacity = grid.spec().capacity.enabled;
    const std::vector<std::size_t> searched = capacity ? policies : std::vector<std::size_t>();
    RefineThenSearch work(grid, cells, refinementOrder(cells), searched);
    result.capacity.assign(searched.size(), CapacityPoint());
    SharedProgress shared(
        progress, capacity ? "refining cells and capacity curves" : "refining cells", work.items());
    // Each search's cells, looked up before any refinement writes to the vector.
    std::vector<std::vector<const RegionCell*>> policyCells;
    for (std::size_t policy : searched) {
        auto& pointers = policyCells.emplace_back();
        for (std::size_t c : grid.cellsOfPolicy(policy)) {
            const auto at = std::lower_bound(
                cells.begin(), cells.end(), c,
                [](const RegionCell& cell, std::size_t index) { return cell.index < index; });
            pointers.push_back(at != cells.end() && at->index == c ? &*at : nullptr);
        }
    }
    std::vector<std::optional<Error>> errors(work.items());
    const auto runItem = [&](std::size_t item) -> Status {
        if (work.isRefinement(item)) {
            RegionCell& cell = cells[work.cellOf(item)];
            auto refined = refinedCell(grid, evaluator, cell, cancel);
            if (!refined)
                return refined.error();
            cell = std::move(*refined);
            return {};
        }
        const std::size_t k = work.searchOf(item);
        auto point = findCapacity(grid, evaluator, searched[k], policyCells[k], cancel);
        if (!point)
            return point.error();
        result.capacity[k] = std::move(*point);
        return {};
    };
    pool.parallelFor(
        work.items(),
        [&](std::size_t) {
            const auto item = work.take(cancel);
            if (!item)
                return;
            // Marked finished even when it throws (out of memory): a search waiting for this
            // refinement would otherwise wait for ever; parallelFor passes the exception on.
            struct FinishOnExit
            {
                RefineThenSearch& work;
                std::size_t item;
                ~FinishOnExit() { work.finished(item); }
            } finishOnExit{work, *item};
            if (auto status = runItem(*item); !status)
                errors[*item] = status.error();
            shared.tick();
        },
        cancel);
    return firstError(errors, cancel);
}

/// The preview after the coarse pass: pending cells carry short-run numbers. It recommends
/// nothing: a recommendation is only made on full runs (regionconfirm.h).
RegionResult previewOf(const RegionResult& base, const std::vector<RegionCell>& cells)
{
    RegionResult preview = base;
    preview.stage = RegionStage::Preview;
    preview.cells = cells;
    markPareto(preview);
    summarizeResult(preview);
    return preview;
}

Error shardError(std::size_t position, const RegionResult& shard, const std::string& message)
{
    return makeError(ErrorCode::Value, "merge: shards[" + std::to_string(position) + "] (shard " +
                                           std::to_string(shard.shardIndex) + "/" +
                                           std::to_string(shard.shardCount) + "): " + message);
}

/// Every shard is a stage-"shard" result of the same spec and shard count, each index once.
Status checkShardSet(const std::vector<RegionResult>& shards)
{
    if (shards.empty())
        return makeError(ErrorCode::Usage, "merge: no shard results given");
    const RegionResult& first = shards.front();
    std::vector<bool> seen(first.shardCount, false);
    for (std::size_t i = 0; i < shards.size(); ++i) {
        const RegionResult& s = shards[i];
        if (s.stage != RegionStage::Shard)
            return shardError(i, s,
                              std::string("its stage is '") + regionStageName(s.stage) +
                                  "'; merge joins the results of --shard runs");
        if (s.shardCount != first.shardCount || s.shardIndex >= s.shardCount)
            return shardError(i, s,
                              "it is one of " + std::to_string(s.shardCount) +
                                  " shards, shards[0] one of " + std::to_string(first.shardCount));
        if (!(s.spec == first.spec) || s.cellCount != first.cellCount)
            return shardError(i, s, "it was computed from a different region spec than shards[0]");
        if (seen[s.shardIndex])
            return shardError(i, s, "this shard index is given twice");
        seen[s.shardIndex] = true;
    }
    std::string missing;
    for (std::size_t k = 0; k < seen.size(); ++k) {
        if (!seen[k])
            missing += (missing.empty() ? "" : ", ") + std::to_string(k);
    }
    if (!missing.empty())
        return makeError(ErrorCode::Value,
                         "merge: shard(s) " + missing + " of " + std::to_string(first.shardCount) +
                             " are missing; every index 0.." +
                             std::to_string(first.shardCount - 1) + " must be given once");
    return {};
}

/// A cell's checks and status must be what its own metrics give under the spec's limits. A
/// shard is a file people copy between machines: an edited or corrupted one (a p99 of 1e300 s
/// still marked "satisfied") must not turn into a recommendation. The JSON round trip is exact,
/// so an honest shard agrees to the last bit.
std::optional<std::string> verdictDisagreement(const RegionConstraints& constraints,
                                               const RegionCell& cell)
{
    if (cell.status == CellStatus::Error)
        return std::nullopt;
    bool withThroughput = false;
    for (const auto& check : cell.checks)
        withThroughput = withThroughput || check.kind == ConstraintKind::Throughput;
    const auto verdict = checkConstraints(constraints, cell.metrics, 1.0, withThroughput);
    const auto cellName = "cell " + std::to_string(cell.index);
    if (verdict.checks.size() != cell.checks.size())
        return cellName + ": it holds " + std::to_string(cell.checks.size()) +
               " constraint check(s), its metrics and the spec give " +
               std::to_string(verdict.checks.size());
    for (std::size_t i = 0; i < verdict.checks.size(); ++i) {
        const auto& expected = verdict.checks[i];
        const auto& stored = cell.checks[i];
        // `decided` depends on the stage's interval rule (short run or full run): not rechecked.
        const bool agrees = expected.kind == stored.kind &&
                            expected.satisfied == stored.satisfied &&
                            !(expected.value != stored.value) && !(expected.limit != stored.limit);
        if (!agrees)
            return cellName + ": its " + constraintName(stored.kind) + " check (value " +
                   significant(stored.value, 4) + ", limit " + significant(stored.limit, 4) +
                   (stored.satisfied ? ", met" : ", missed") +
                   ") is not what its metrics give under the spec's limits";
    }
    const CellStatus expectedStatus = !cell.metrics.stable ? CellStatus::Unstable
                                      : verdict.feasible   ? CellStatus::Feasible
                                                           : CellStatus::Infeasible;
    if (cell.status != expectedStatus || cell.binding != verdict.binding)
        return cellName + ": its status '" + cellStatusName(cell.status) + "' (binding '" +
               constraintName(cell.binding) + "') is not what its checks give ('" +
               cellStatusName(expectedStatus) + "', binding '" + constraintName(verdict.binding) +
               "')";
    return std::nullopt;
}

/// A shard holds exactly the cells and capacity points of its policies.
Status checkShardContents(const RegionGrid& grid, std::size_t position, const RegionResult& s)
{
    const ShardPart part = shardPart(grid, s.shardIndex, s.shardCount);
    std::vector<std::size_t> cells;
    for (const auto& c : s.cells)
        cells.push_back(c.index);
    if (cells != part.cells)
        return shardError(position, s,
                          "its cells are not those of its policies (" +
                              std::to_string(s.cells.size()) + " cells, expected " +
                              std::to_string(part.cells.size()) + ")");
    std::vector<std::size_t> policies;
    for (const auto& p : s.capacity)
        policies.push_back(p.policy);
    const bool capacity = grid.spec().capacity.enabled;
    if (policies != (capacity ? part.policies : std::vector<std::size_t>()))
        return shardError(position, s, "its capacity curve points are not those of its policies");
    for (const auto& cell : s.cells) {
        if (const auto why = verdictDisagreement(grid.spec().constraints, cell))
            return shardError(position, s, *why + " (edited, or written by another version)");
    }
    return {};
}

} // namespace

Expected<RegionResult> computeRegion(const RegionSpec& spec, const RegionOptions& options,
                                     Progress& progress, const CancelToken& cancel,
                                     const RegionPreview& onPreview)
{
    if (options.shardCount < 1 || options.shardIndex >= options.shardCount)
        return makeError(ErrorCode::Usage, "shard " + std::to_string(options.shardIndex) + "/" +
                                               std::to_string(options.shardCount) +
                                               ": the index must be below the count");
    auto grid = RegionGrid::create(spec, options.baseDirectory, progress, cancel);
    if (!grid)
        return grid.error();
    const RegionEvaluator evaluator(grid->spec(), options.baseDirectory);
    PoolChoice pool(options);
    const ShardPart part = shardPart(*grid, options.shardIndex, options.shardCount);

    RegionResult result;
    result.spec = grid->spec();
    result.baseDirectory = options.baseDirectory;
    result.shardIndex = options.shardIndex;
    result.shardCount = options.shardCount;
    result.cellCount = grid->cellCount();
    std::vector<RegionCell> cells;
    if (auto status =
            screenCells(*grid, evaluator, part.cells, pool.pool(), progress, cancel, cells);
        !status)
        return status.error();
    if (onPreview)
        onPreview(previewOf(result, cells));
    if (auto status = refineAndSearch(*grid, evaluator, part.policies, pool.pool(), progress,
                                      cancel, cells, result);
        !status)
        return status.error();
    result.cells = std::move(cells);
    if (options.shardCount > 1) {
        result.stage = RegionStage::Shard;
        summarizeResult(result);
        progress.finish();
        return result;
    }
    result.stage = RegionStage::Complete;
    if (auto status = finalizeRegion(result, *grid, evaluator, pool.pool(), progress, cancel);
        !status)
        return status.error();
    progress.finish();
    return result;
}

Expected<RegionResult> mergeRegions(std::vector<RegionResult> shards, const RegionOptions& options,
                                    Progress& progress, const CancelToken& cancel)
{
    if (auto status = checkShardSet(shards); !status)
        return status.error();
    const std::string baseDirectory =
        options.baseDirectory.empty() ? shards.front().baseDirectory : options.baseDirectory;
    auto grid = RegionGrid::create(shards.front().spec, baseDirectory, progress, cancel);
    if (!grid)
        return grid.error();
    RegionResult result;
    result.spec = grid->spec();
    result.baseDirectory = baseDirectory;
    result.stage = RegionStage::Complete;
    result.cellCount = grid->cellCount();
    for (std::size_t i = 0; i < shards.size(); ++i) {
        if (auto status = checkShardContents(*grid, i, shards[i]); !status)
            return status.error();
        for (auto& c : shards[i].cells)
            result.cells.push_back(std::move(c));
        for (auto& p : shards[i].capacity)
            result.capacity.push_back(std::move(p));
    }
    std::sort(result.cells.begin(), result.cells.end(),
              [](const RegionCell& a, const RegionCell& b) { return a.index < b.index; });
    std::sort(result.capacity.begin(), result.capacity.end(),
              [](const CapacityPoint& a, const CapacityPoint& b) { return a.policy < b.policy; });
    for (auto& c : result.cells)
        c.pending = false;
    const RegionEvaluator evaluator(grid->spec(), baseDirectory);
    PoolChoice pool(options);
    if (auto status = finalizeRegion(result, *grid, evaluator, pool.pool(), progress, cancel);
        !status)
        return status.error();
    progress.finish();
    return result;
}

} // namespace bs::analysis
