#include "sim/simulator.h"

#include "sim/closedloopengine.h"
#include "sim/perserverengine.h"
#include "sim/replayloader.h"
#include "sim/replicationmetrics.h"
#include "sim/runlength.h"
#include "sim/sharedqueueengine.h"
#include "sim/sharingengine.h"
#include "sim/stability.h"
#include "util/threadpool.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <new>

namespace bs::sim {

namespace {

/// Latency stores alive at once (8 bytes per measured request each).
constexpr std::uint64_t kStoreBudgetBytes = std::uint64_t(4) << 30;
/// Per-request records (48 bytes each) are kept for at most this many requests.
constexpr std::uint64_t kMaxRecords = 10000000;

/// What every replication shares, read-only.
struct Prepared
{
    std::shared_ptr<const ServiceModel> service;
    std::vector<std::shared_ptr<const ReplayTimes>> replays; ///< Per stream; null if not replay.
    double idleW = kNaN;
    double busyW = kNaN;
    double windowS = 1.0;
    bool seriesLatencyPercentiles = true;
};

Status prepareReplays(const Scenario& scenario, const SimOptions& options, Progress& progress,
                      const CancelToken& cancel, Prepared& out)
{
    std::uint64_t finiteCapacity = 0;
    bool allFinite = true;
    for (std::size_t s = 0; s < scenario.streams.size(); ++s) {
        const auto& arrivals = scenario.streams[s].arrivals;
        if (arrivals.kind != ArrivalSpec::Kind::Replay) {
            out.replays.push_back(nullptr);
            allFinite = false;
            continue;
        }
        const std::string where = scenario.namedStreams
                                      ? "scenario.streams[" + std::to_string(s) + "].arrivals"
                                      : "scenario.arrivals";
        auto replay = prepareReplay(arrivals, where, options.baseDirectory, progress, cancel);
        if (!replay)
            return replay.error();
        allFinite = allFinite && !arrivals.loop;
        finiteCapacity += (*replay)->timesS.size();
        out.replays.push_back(*replay);
    }
    const std::uint64_t needed = scenario.warmupRequests + scenario.requests;
    if (allFinite && finiteCapacity < needed)
        return makeError(
            ErrorCode::Value,
            "scenario.requests: the replay holds " + std::to_string(finiteCapacity) +
                " requests but warmup_requests + requests = " + std::to_string(needed) +
                "; set \"loop\": true or ask for fewer requests");
    return {};
}

/// Raises the run to cover the traffic's slowest time scale (runlength.h) and says so.
void planRunLength(Scenario& scenario, const std::vector<const ReplayTimes*>& replays,
                   Result& result)
{
    const RunPlan plan = planRun(scenario, result.stability.offeredRatePerS, replays);
    scenario.requests = plan.requests;
    scenario.warmupRequests = plan.warmupRequests;
    result.coverage = plan.coverage;
    if (!plan.coverage.note.empty())
        result.warnings.push_back(plan.coverage.note);
}

/// Checks, builds the shared parts and plans the run; `scenario` gets the run's request counts.
Status prepare(Scenario& scenario, const SimOptions& options, Progress& progress,
               const CancelToken& cancel, Result& result, Prepared& out)
{
    auto service = makeServiceModel(scenario.service, scenario.policy.maxBatch, result.warnings);
    if (!service)
        return service.error();
    out.service = *service;
    if (auto status = prepareReplays(scenario, options, progress, cancel, out); !status)
        return status;
    std::vector<const ReplayTimes*> replays;
    for (const auto& r : out.replays)
        replays.push_back(r.get());
    result.stability = assessStability(scenario, *out.service, replays, result.warnings);
    planRunLength(scenario, replays, result);
    if (scenario.output.records && scenario.requests > kMaxRecords)
        return makeError(ErrorCode::Limit,
                         "scenario.output.records: per-request records are kept for at most " +
                             std::to_string(kMaxRecords) + " requests (48 bytes each), not " +
                             std::to_string(scenario.requests) + "; ask for fewer requests");
    if (scenario.power) {
        out.idleW = scenario.power->idleW;
        out.busyW = scenario.power->busyW;
    } else if (!std::isnan(out.service->idlePowerW())) {
        out.idleW = out.service->idlePowerW();
    }
    // About 200 windows over the expected measurement; the recorder doubles them if needed.
    out.seriesLatencyPercentiles = options.seriesLatencyPercentiles;
    out.windowS = scenario.output.windowS > 0.0
                      ? scenario.output.windowS
                      : double(scenario.requests) / result.stability.offeredRatePerS / 200.0;
    return {};
}

/// Shares progress between replications: counts are atomic; whoever holds the lock reports.
class ProgressShare
{
public:
    ProgressShare(Progress& progress, const CancelToken& cancel)
        : m_progress(progress)
        , m_cancel(cancel)
    {}
    bool tick(std::uint64_t requests)
    {
        const auto done = m_done.fetch_add(requests, std::memory_order_relaxed) + requests;
        if (std::unique_lock lock(m_mutex, std::try_to_lock); lock.owns_lock())
            m_progress.advanceTo(done);
        return !m_cancel.isCancelled();
    }

private:
    Progress& m_progress;
    const CancelToken& m_cancel;
    std::atomic<std::uint64_t> m_done{0};
    std::mutex m_mutex;
};

bool isClosedLoop(const Scenario& scenario)
{
    return scenario.streams.front().arrivals.kind == ArrivalSpec::Kind::ClosedLoop;
}

RecorderConfig recorderConfig(const Scenario& scenario, const Prepared& prepared, std::size_t index)
{
    RecorderConfig config;
    config.warmupRequests = scenario.warmupRequests;
    config.requests = scenario.requests;
    // With streams, the recorder's servers are the streams: device d's stream s is d·streams + s.
    config.servers = scenario.servers.count * scenario.servers.streams;
    config.streams = int(scenario.streams.size());
    config.maxBatch = scenario.policy.maxBatch;
    config.windowS = prepared.windowS;
    config.timeSeries = index == 0;
    config.records = index == 0 && scenario.output.records;
    config.idleW = prepared.idleW;
    config.busyW = prepared.busyW;
    return config;
}

/// Open-loop arrivals are generated ahead into a ring; closed-loop ones follow completions.
EngineOutcome runEngine(const Scenario& scenario, const Prepared& prepared, EngineSetup setup)
{
    if (isClosedLoop(scenario))
        return ClosedLoopEngine(setup).run();
    std::vector<std::unique_ptr<ArrivalProcess>> processes;
    for (std::size_t s = 0; s < scenario.streams.size(); ++s)
        processes.push_back(makeArrivalProcess(scenario.streams[s].arrivals,
                                               prepared.replays[s].get(), setup.seed, s));
    ArrivalRing ring(std::move(processes),
                     {scenario.warmupRequests, scenario.warmupRequests + scenario.requests - 1});
    setup.arrivals = &ring;
    return scenario.servers.sharesDevices() ? SharingEngine(setup).run()
           : scenario.servers.placement == ServerSpec::Placement::Shared
               ? SharedQueueEngine(setup).run()
               : PerServerEngine(setup).run();
}

ReplicationMetrics runReplication(const Scenario& scenario, const Prepared& prepared,
                                  std::size_t index, ProgressShare& share)
{
    const std::uint64_t seed = replicationSeed(scenario.seed, index);
    Recorder recorder(recorderConfig(scenario, prepared, index));
    EngineSetup setup{&scenario, prepared.service.get(),
                      seed,      nullptr,
                      &recorder, [&share](std::uint64_t n) { return share.tick(n); }};
    EngineOutcome outcome = runEngine(scenario, prepared, setup);
    ReplicationMetrics metrics;
    if (outcome.state == EngineOutcome::State::Done)
        metrics = summarizeReplication(recorder, scenario, prepared.seriesLatencyPercentiles);
    metrics.outcome = std::move(outcome);
    metrics.seed = seed;
    return metrics;
}

/// The first replication (in index order) that did not finish decides the outcome.
std::optional<Error> firstFailure(const std::vector<ReplicationMetrics>& reps, Result& result)
{
    for (const auto& r : reps) {
        switch (r.outcome.state) {
        case EngineOutcome::State::Done:
            continue;
        case EngineOutcome::State::Cancelled:
            return makeError(ErrorCode::Cancelled, "simulation cancelled");
        case EngineOutcome::State::NoEnd:
            return makeError(ErrorCode::Value, r.outcome.message);
        case EngineOutcome::State::Unstable:
            result.stability.stable = false;
            result.stability.reason = "scenario.max_queue_requests: " + r.outcome.message +
                                      "; the system cannot keep up with the offered load";
            return std::nullopt;
        }
    }
    return std::nullopt;
}

/// Overload the capacity check cannot see (an adaptive cap driven low, a service model slower
/// in practice than its sustained estimate) shows as a queue that grows all through the run.
/// Replication 0's queue depth is averaged per quarter of the measurement; four rising quarters,
/// the last over 4 times the first and over 1000 requests waiting, make the run unstable.
void checkQueueTrend(Result& result)
{
    const auto& series = result.timeSeries;
    std::vector<double> depths;
    for (std::size_t w = 0; w < series.queueDepthMean.size(); ++w) {
        if (series.batches[w] > 0)
            depths.push_back(series.queueDepthMean[w]);
    }
    if (depths.size() < 40)
        return;
    double quarter[4] = {0.0, 0.0, 0.0, 0.0};
    const std::size_t n = depths.size();
    for (std::size_t i = 0; i < n; ++i)
        quarter[i * 4 / n] += depths[i] / double((n + 3) / 4);
    const bool rising =
        quarter[0] < quarter[1] && quarter[1] < quarter[2] && quarter[2] < quarter[3];
    if (!rising || quarter[3] <= 1000.0 || quarter[3] <= 4.0 * quarter[0])
        return;
    std::string quarters;
    for (double q : quarter)
        quarters += (quarters.empty() ? "" : ", ") + std::to_string(std::lround(q));
    result.stability.stable = false;
    const bool adaptive = result.scenario.policy.kind == PolicySpec::Kind::Adaptive;
    result.stability.reason =
        (adaptive ? std::string("scenario.policy") : offeredLoadKey(result.scenario)) +
        ": the queue grew throughout the run (mean requests waiting in each quarter of "
        "replication 0: " +
        quarters + "); the servers do not keep up with the offered load under this policy";
}

} // namespace

Expected<Result> simulate(const Scenario& scenario, const SimOptions& options, Progress& progress,
                          const CancelToken& cancel)
{
    Result result;
    Prepared prepared;
    Scenario run = scenario;
    if (auto status = prepare(run, options, progress, cancel, result, prepared); !status)
        return status.error();
    result.scenario = run;
    for (std::size_t r = 0; r < std::size_t(run.replications); ++r)
        result.seeds.push_back(replicationSeed(run.seed, r));
    if (!result.stability.stable)
        return result;
    const std::size_t reps = std::size_t(run.replications);
    progress.setPhase("simulating", reps * (run.warmupRequests + run.requests));
    std::unique_ptr<ThreadPool> ownPool;
    ThreadPool* pool = options.pool;
    if (!pool) {
        const std::size_t threads =
            options.threads == 0 ? std::thread::hardware_concurrency() : options.threads;
        ownPool = std::make_unique<ThreadPool>(std::max<std::size_t>(1, std::min(threads, reps)));
        pool = ownPool.get();
    }
    ProgressShare share(progress, cancel);
    std::vector<ReplicationMetrics> metrics(reps);
    try {
        // Latency stores take 8 bytes per request; at most kStoreBudgetBytes of them are alive
        // at once, so long runs go in rounds (the result does not depend on it).
        const std::size_t round =
            std::size_t(std::max<std::uint64_t>(1, kStoreBudgetBytes / (8 * run.requests)));
        for (std::size_t first = 0; first < reps && !cancel.isCancelled(); first += round) {
            pool->parallelFor(
                std::min(round, reps - first),
                [&](std::size_t i) {
                    metrics[first + i] = runReplication(run, prepared, first + i, share);
                },
                cancel);
        }
    } catch (const std::bad_alloc&) {
        return makeError(ErrorCode::Limit, "not enough memory for " + std::to_string(run.requests) +
                                               " requests per replication; ask for fewer");
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal, std::string("simulation failed: ") + e.what());
    }
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "simulation cancelled");
    if (auto error = firstFailure(metrics, result))
        return *error;
    progress.finish();
    if (!result.stability.stable)
        return result;
    result.seeds.clear();
    reduceReplications(metrics, result);
    checkQueueTrend(result);
    return result;
}

} // namespace bs::sim
