#include "sim/perserverengine.h"

#include <algorithm>
#include <limits>

namespace bs::sim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
} // namespace

PerServerEngine::PerServerEngine(const EngineSetup& setup)
    : m_setup(setup)
    , m_serviceRng(setup.seed, kServiceStream)
    , m_placementRng(setup.seed, kPlacementStream)
{
    const auto& policy = setup.scenario->policy;
    const auto count = std::size_t(setup.scenario->servers.count);
    for (std::size_t s = 0; s < count; ++s)
        m_queues.push_back(Queue{{},
                                 0.0,
                                 Batcher(policy),
                                 AdaptiveController(policy),
                                 setup.service->makeServerState()});
    m_freeS.assign(count, 0.0);
    m_inService.assign(count, 0);
    m_queued.assign(count, 0);
    m_candidateS.assign(count, kInf);
    m_dirty.assign(count, 1);
}

double PerServerEngine::candidate(int server)
{
    const auto s = std::size_t(server);
    if (!m_dirty[s])
        return m_candidateS[s];
    m_dirty[s] = 0;
    Queue& queue = m_queues[s];
    if (queue.waiting.empty())
        return m_candidateS[s] = kInf;
    const double freeS = std::max(m_freeS[s], queue.lastDecisionS);
    if (m_setup.scenario->policy.kind == PolicySpec::Kind::Adaptive &&
        queue.controller.advanceTo(freeS))
        queue.batcher.setCap(queue.controller.cap());
    const double deadline = queue.waiting.front().arrivalS + queue.batcher.maxDelayS();
    const auto trigger = std::size_t(queue.batcher.triggerCount());
    // Fewer than `trigger` waiting: the trigger arrival is in the future (>= the next arrival),
    // so only the deadline can make a decision before then.
    const double triggerS =
        queue.waiting.size() >= trigger ? queue.waiting[trigger - 1].arrivalS : kInf;
    return m_candidateS[s] = std::max(freeS, std::min(triggerS, deadline));
}

void PerServerEngine::dispatchBefore(double t)
{
    for (;;) {
        int best = -1;
        double bestS = kInf;
        for (int s = 0; s < int(m_queues.size()); ++s) {
            const double c = m_dirty[std::size_t(s)] ? candidate(s) : m_candidateS[std::size_t(s)];
            if (c < bestS) {
                best = s;
                bestS = c;
            }
        }
        if (best < 0 || !(bestS < t))
            return;
        dispatch(best, bestS);
    }
}

void PerServerEngine::dispatch(int server, double d)
{
    const Scenario& scenario = *m_setup.scenario;
    Queue& queue = m_queues[std::size_t(server)];
    std::uint64_t waiting = 0;
    while (waiting < queue.waiting.size() && queue.waiting[waiting].arrivalS <= d)
        ++waiting;
    const double deadline = queue.waiting.front().arrivalS + queue.batcher.maxDelayS();
    const int size = queue.batcher.batchSize(waiting, d >= deadline);
    const BatchService cost = m_setup.service->serve(size, queue.state.get(), d, m_serviceRng);
    const double end = d + cost.serviceS;
    const std::uint64_t first = scenario.warmupRequests;
    const std::uint64_t endMeasured = first + scenario.requests;
    int measured = 0;
    for (int i = 0; i < size; ++i) {
        const auto index = queue.waiting[std::size_t(i)].index;
        measured += index >= first && index < endMeasured ? 1 : 0;
    }
    Recorder& recorder = *m_setup.recorder;
    recorder.onBatch({server, d, end, size, measured, waiting, queue.batcher.cap(), cost.energyJ,
                      cost.temperatureC},
                     m_setup.arrivals->markTime(0), m_setup.arrivals->markTime(1));
    m_batchLatencies.clear();
    for (int i = 0; i < size; ++i) {
        const Waiting& w = queue.waiting.front();
        m_batchLatencies.push_back(end - w.arrivalS);
        if (w.index >= first && w.index < endMeasured) {
            recorder.addMeasured(w.stream, end - w.arrivalS, d - w.arrivalS);
            if (recorder.wantsRecords())
                recorder.addRecord({w.index, w.stream, std::uint32_t(server), std::uint32_t(size),
                                    w.arrivalS, d, end});
        }
        queue.waiting.pop_front();
    }
    if (scenario.policy.kind == PolicySpec::Kind::Adaptive)
        queue.controller.onBatch(end, m_batchLatencies.data(), size);
    m_measuredDone += std::uint64_t(measured);
    m_freeS[std::size_t(server)] = end;
    m_inService[std::size_t(server)] = std::uint32_t(size);
    m_queued[std::size_t(server)] -= std::uint64_t(size);
    m_dirty[std::size_t(server)] = 1;
    queue.lastDecisionS = d;
}

int PerServerEngine::place(std::uint64_t index, double t)
{
    const auto count = m_queues.size();
    switch (m_setup.scenario->servers.placement) {
    case ServerSpec::Placement::RoundRobin:
        return int(index % count);
    case ServerSpec::Placement::Random:
        return int(std::min<std::size_t>(count - 1,
                                         std::size_t(m_placementRng.uniform() * double(count))));
    case ServerSpec::Placement::LeastLoaded:
    case ServerSpec::Placement::Shared: {
        std::size_t best = 0;
        std::uint64_t bestLoad = ~std::uint64_t(0);
        for (std::size_t s = 0; s < count; ++s) {
            const std::uint64_t load =
                m_queued[s] + (m_freeS[s] > t ? std::uint64_t(m_inService[s]) : 0);
            if (load < bestLoad) {
                best = s;
                bestLoad = load;
            }
        }
        return int(best);
    }
    }
    return 0;
}

EngineOutcome PerServerEngine::run()
{
    const Scenario& scenario = *m_setup.scenario;
    ArrivalRing& ring = *m_setup.arrivals;
    std::uint64_t index = 0;
    std::uint64_t lastTick = 0;
    while (m_measuredDone < scenario.requests) {
        const double t = ring.time(index);
        dispatchBefore(t);
        if (m_measuredDone >= scenario.requests)
            break;
        if (!(t < kInf))
            return {EngineOutcome::State::NoEnd,
                    "scenario.policy: some requests can never be dispatched: the replay has no "
                    "more arrivals to fill a batch of " +
                        std::to_string(scenario.policy.maxBatch) +
                        " and there is no timeout (set timeout_ms, or loop the replay)"};
        const int server = place(index, t);
        Queue& queue = m_queues[std::size_t(server)];
        queue.waiting.push_back({t, index, ring.stream(index)});
        ++m_queued[std::size_t(server)];
        m_dirty[std::size_t(server)] = 1;
        if (queue.waiting.size() > scenario.maxQueueRequests)
            return {EngineOutcome::State::Unstable,
                    "the queue of server " + std::to_string(server) +
                        " grew past max_queue_requests (" +
                        std::to_string(scenario.maxQueueRequests) +
                        " waiting) at t = " + std::to_string(t) + " s"};
        ring.release(++index);
        if (index - lastTick >= kTickRequests) {
            if (!m_setup.tick(index - lastTick))
                return {EngineOutcome::State::Cancelled, {}};
            lastTick = index;
        }
    }
    m_setup.recorder->finish(ring.markTime(0), ring.markTime(1));
    return {};
}

} // namespace bs::sim
