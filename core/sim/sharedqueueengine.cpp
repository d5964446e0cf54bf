#include "sim/sharedqueueengine.h"

#include <algorithm>
#include <limits>

namespace bs::sim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

std::string noEndMessage(const PolicySpec& policy, std::uint64_t waiting)
{
    return "scenario.policy: " + std::to_string(waiting) +
           " request(s) can never be dispatched: the replay has no more arrivals to fill a batch "
           "of " +
           std::to_string(policy.maxBatch) +
           " and there is no timeout (set timeout_ms, or loop the replay)";
}
} // namespace

SharedQueueEngine::SharedQueueEngine(const EngineSetup& setup)
    : m_setup(setup)
    , m_batcher(setup.scenario->policy)
    , m_controller(setup.scenario->policy)
    , m_serviceRng(setup.seed, kServiceStream)
    , m_freeS(std::size_t(setup.scenario->servers.count), 0.0)
{
    for (int s = 0; s < setup.scenario->servers.count; ++s)
        m_states.push_back(setup.service->makeServerState());
}

EngineOutcome SharedQueueEngine::run()
{
    const bool streams = m_setup.scenario->streams.size() > 1;
    const bool records = m_setup.recorder->wantsRecords();
    const bool adaptive = m_setup.scenario->policy.kind == PolicySpec::Kind::Adaptive;
    if (adaptive)
        return streams ? (records ? loop<true, true, true>() : loop<true, false, true>())
                       : (records ? loop<false, true, true>() : loop<false, false, true>());
    return streams ? (records ? loop<true, true, false>() : loop<true, false, false>())
                   : (records ? loop<false, true, false>() : loop<false, false, false>());
}

int SharedQueueEngine::pickServer() const
{
    int best = 0;
    for (int s = 1; s < int(m_freeS.size()); ++s) {
        if (m_freeS[std::size_t(s)] < m_freeS[std::size_t(best)])
            best = s;
    }
    return best;
}

template <bool kStreams, bool kRecords, bool kAdaptive>
EngineOutcome SharedQueueEngine::loop()
{
    const Scenario& scenario = *m_setup.scenario;
    ArrivalRing& ring = *m_setup.arrivals;
    Recorder& recorder = *m_setup.recorder;
    const std::uint64_t firstMeasured = scenario.warmupRequests;
    const std::uint64_t endMeasured = firstMeasured + scenario.requests;
    const std::uint64_t maxQueue = scenario.maxQueueRequests;
    std::uint64_t head = 0;
    std::uint64_t arrived = 0;
    std::uint64_t lastTick = 0;
    double lastDecisionS = 0.0;
    while (head < endMeasured) {
        const int server = pickServer();
        const double freeS = std::max(m_freeS[std::size_t(server)], lastDecisionS);
        if constexpr (kAdaptive) {
            if (m_controller.advanceTo(freeS))
                m_batcher.setCap(m_controller.cap());
        }
        const double a0 = ring.time(head);
        const double deadline = a0 + m_batcher.maxDelayS();
        const double triggerS = ring.time(head + std::uint64_t(m_batcher.triggerCount()) - 1);
        const double d = std::max(freeS, std::min(triggerS, deadline));
        if (!(d < kInf))
            return noEnd(head);
        // Everything that arrived at or before d is waiting (ties join this decision).
        arrived = std::max(arrived, head);
        while (ring.time(arrived) <= d) {
            if (++arrived - head > maxQueue)
                return {EngineOutcome::State::Unstable,
                        "the queue grew past max_queue_requests (" + std::to_string(maxQueue) +
                            " waiting) at t = " + std::to_string(d) + " s"};
        }
        const std::uint64_t waiting = arrived - head;
        const int size = m_batcher.batchSize(waiting, d >= deadline);
        const BatchService cost =
            m_setup.service->serve(size, m_states[std::size_t(server)].get(), d, m_serviceRng);
        const double end = d + cost.serviceS;
        m_freeS[std::size_t(server)] = end;
        lastDecisionS = d;

        const std::uint64_t m0 = std::max(head, firstMeasured);
        const std::uint64_t m1 = std::min(head + std::uint64_t(size), endMeasured);
        const int measured = m1 > m0 ? int(m1 - m0) : 0;
        recorder.onBatch({server, d, end, size, measured, waiting, m_batcher.cap(), cost.energyJ,
                          cost.temperatureC},
                         ring.markTime(0), ring.markTime(1));
        if (measured > 0)
            recordMeasured<kStreams, kRecords>(m0, m1, d, end, server, size);
        if constexpr (kAdaptive)
            feedController(head, size, end);
        head += std::uint64_t(size);
        ring.release(head);
        if (head - lastTick >= kTickRequests) {
            if (!m_setup.tick(head - lastTick))
                return {EngineOutcome::State::Cancelled, {}};
            lastTick = head;
        }
    }
    recorder.finish(ring.markTime(0), ring.markTime(1));
    return {};
}

EngineOutcome SharedQueueEngine::noEnd(std::uint64_t head)
{
    std::uint64_t stuck = 0;
    while (m_setup.arrivals->time(head + stuck) < kInf)
        ++stuck;
    return {EngineOutcome::State::NoEnd, noEndMessage(m_setup.scenario->policy, stuck)};
}

void SharedQueueEngine::feedController(std::uint64_t head, int size, double completionS)
{
    m_batchLatencies.clear();
    for (std::uint64_t i = head; i < head + std::uint64_t(size); ++i)
        m_batchLatencies.push_back(completionS - m_setup.arrivals->time(i));
    m_controller.onBatch(completionS, m_batchLatencies.data(), size);
}

template <bool kStreams, bool kRecords>
void SharedQueueEngine::recordMeasured(std::uint64_t first, std::uint64_t end, double dispatchS,
                                       double completionS, int server, int size)
{
    ArrivalRing& ring = *m_setup.arrivals;
    Recorder& recorder = *m_setup.recorder;
    const double* times = ring.times();
    const std::uint64_t mask = ring.mask();
    if constexpr (!kStreams && !kRecords) {
        double* out = recorder.appendLatencies(std::size_t(end - first));
        for (std::uint64_t i = first; i < end; ++i) {
            const double a = times[i & mask];
            *out++ = completionS - a;
            recorder.addWait(dispatchS - a);
        }
        return;
    }
    for (std::uint64_t i = first; i < end; ++i) {
        const double a = times[i & mask];
        const std::uint32_t stream = kStreams ? ring.stream(i) : 0;
        recorder.addMeasured(stream, completionS - a, dispatchS - a);
        if constexpr (kRecords)
            recorder.addRecord(
                {i, stream, std::uint32_t(server), std::uint32_t(size), a, dispatchS, completionS});
    }
}

} // namespace bs::sim
