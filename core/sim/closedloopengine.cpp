#include "sim/closedloopengine.h"

#include <algorithm>
#include <iterator>
#include <limits>

namespace bs::sim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
} // namespace

ClosedLoopEngine::ClosedLoopEngine(const EngineSetup& setup)
    : m_setup(setup)
    , m_spec(setup.scenario->streams.front().arrivals)
    , m_batcher(setup.scenario->policy)
    , m_bank(setup.scenario->servers, *setup.service, setup.seed)
    , m_thinkRng(setup.seed, kFirstArrivalStream)
    , m_sentS(std::size_t(m_spec.concurrency), 0.0)
    , m_inService(std::size_t(setup.scenario->servers.count * setup.scenario->servers.streams))
{
    // Every client sends its first request at t = 0, without thinking first.
    for (int client = 0; client < m_spec.concurrency; ++client)
        send(client, 0.0);
}

void ClosedLoopEngine::send(int client, double sentS)
{
    m_sentS[std::size_t(client)] = sentS;
    const double overheadS =
        m_spec.clientOverheadFixedS + (m_spec.clientOverheadExponential
                                           ? m_spec.clientOverheadS * m_thinkRng.exponential()
                                           : m_spec.clientOverheadS);
    m_pending.emplace(sentS + overheadS, client);
}

double ClosedLoopEngine::triggerTimeS() const
{
    const std::size_t trigger = std::size_t(m_batcher.triggerCount());
    if (m_queue.size() >= trigger)
        return m_queue[trigger - 1].arrivalS;
    const std::size_t more = trigger - m_queue.size();
    if (m_pending.size() < more)
        return kInf; // the trigger waits for requests whose clients have not sent them yet
    return std::next(m_pending.begin(), std::ptrdiff_t(more - 1))->first;
}

void ClosedLoopEngine::admitThrough(double timeS)
{
    const std::uint64_t firstMeasured = m_setup.scenario->warmupRequests;
    const std::uint64_t lastMeasured = firstMeasured + m_setup.scenario->requests - 1;
    while (!m_pending.empty() && m_pending.begin()->first <= timeS) {
        const auto [arrivalS, client] = *m_pending.begin();
        m_pending.erase(m_pending.begin());
        if (m_arrived == firstMeasured)
            m_firstMeasuredS = arrivalS;
        if (m_arrived == lastMeasured)
            m_lastMeasuredS = arrivalS;
        m_queue.push_back({m_arrived++, client, m_sentS[std::size_t(client)], arrivalS});
    }
}

void ClosedLoopEngine::complete(const DeviceBank::Batch& batch)
{
    const Scenario& scenario = *m_setup.scenario;
    Recorder& recorder = *m_setup.recorder;
    const double nowS = m_bank.now();
    const std::uint64_t firstMeasured = scenario.warmupRequests;
    const std::uint64_t endMeasured = firstMeasured + scenario.requests;
    auto& requests = m_inService[std::size_t(batch.slot)];
    int measured = 0;
    for (const Request& r : requests) {
        if (r.index < firstMeasured || r.index >= endMeasured)
            continue;
        ++measured;
        recorder.addMeasured(0, nowS - r.sentS, batch.dispatchS - r.arrivalS);
        if (recorder.wantsRecords())
            recorder.addRecord({r.index, 0, std::uint32_t(batch.slot), std::uint32_t(batch.size),
                                r.arrivalS, batch.dispatchS, nowS});
    }
    m_measuredDone += std::uint64_t(measured);
    recorder.onBatch({batch.slot, batch.dispatchS, nowS, batch.size, measured, batch.waiting,
                      batch.cap, batch.energyJ, batch.temperatureC},
                     m_firstMeasuredS, m_lastMeasuredS);
    for (const Request& r : requests) {
        const double thinkS = m_spec.thinkS > 0.0 ? m_spec.thinkS * m_thinkRng.exponential() : 0.0;
        send(r.client, nowS + thinkS);
    }
    requests.clear();
}

EngineOutcome ClosedLoopEngine::noEnd() const
{
    return {
        EngineOutcome::State::NoEnd,
        "scenario.policy: requests can never be dispatched: " + std::to_string(m_spec.concurrency) +
            " closed-loop client(s) cannot fill a batch of " +
            std::to_string(m_batcher.triggerCount()) +
            " and there is no timeout (set timeout_ms, or raise arrivals.concurrency)"};
}

EngineOutcome ClosedLoopEngine::run()
{
    const std::uint64_t requests = m_setup.scenario->requests;
    std::uint64_t dispatched = 0;
    std::uint64_t lastTick = 0;
    while (m_measuredDone < requests) {
        const DeviceBank::Event device = m_bank.nextEvent();
        double dispatchS = kInf;
        double deadlineS = kInf;
        const int target = m_bank.pickDevice();
        if (target >= 0) {
            const double oldestS = !m_queue.empty()    ? m_queue.front().arrivalS
                                   : m_pending.empty() ? kInf
                                                       : m_pending.begin()->first;
            deadlineS = oldestS + m_batcher.maxDelayS();
            dispatchS = std::max(m_bank.now(), std::min(triggerTimeS(), deadlineS));
        }
        if (!(dispatchS < kInf) && !(device.timeS < kInf))
            return noEnd();
        // Stage ends and completions at the instant of a dispatch come first: a stream that
        // frees exactly then takes the batch (and a client answered then may already be back).
        if (device.timeS <= dispatchS) {
            m_bank.advanceTo(device.timeS);
            if (const auto done = m_bank.apply(device))
                complete(*done);
            continue;
        }
        m_bank.advanceTo(dispatchS);
        admitThrough(dispatchS);
        const std::uint64_t waiting = m_queue.size();
        const int size = m_batcher.batchSize(waiting, dispatchS >= deadlineS);
        const int slot =
            m_bank.dispatch(target, m_queue.front().index, size, waiting, m_batcher.cap());
        auto& batch = m_inService[std::size_t(slot)];
        batch.assign(m_queue.begin(), m_queue.begin() + size);
        m_queue.erase(m_queue.begin(), m_queue.begin() + size);
        dispatched += std::uint64_t(size);
        if (dispatched - lastTick >= kTickRequests) {
            if (!m_setup.tick(dispatched - lastTick))
                return {EngineOutcome::State::Cancelled, {}};
            lastTick = dispatched;
        }
    }
    m_setup.recorder->finish(m_firstMeasuredS, m_lastMeasuredS);
    return {};
}

} // namespace bs::sim
