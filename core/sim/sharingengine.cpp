#include "sim/sharingengine.h"

#include <algorithm>
#include <limits>

namespace bs::sim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
} // namespace

SharingEngine::SharingEngine(const EngineSetup& setup)
    : m_setup(setup)
    , m_batcher(setup.scenario->policy)
    , m_controller(setup.scenario->policy)
    , m_bank(setup.scenario->servers, *setup.service, setup.seed)
{}

void SharingEngine::recordMeasured(const DeviceBank::Batch& batch, double completionS)
{
    const Scenario& scenario = *m_setup.scenario;
    ArrivalRing& ring = *m_setup.arrivals;
    Recorder& recorder = *m_setup.recorder;
    const std::uint64_t firstMeasured = scenario.warmupRequests;
    const std::uint64_t endMeasured = firstMeasured + scenario.requests;
    const std::uint64_t m0 = std::max(batch.first, firstMeasured);
    const std::uint64_t m1 = std::min(batch.first + std::uint64_t(batch.size), endMeasured);
    const int measured = m1 > m0 ? int(m1 - m0) : 0;
    recorder.onBatch({batch.slot, batch.dispatchS, completionS, batch.size, measured, batch.waiting,
                      batch.cap, kNaN, kNaN},
                     ring.markTime(0), ring.markTime(1));
    for (std::uint64_t i = m0; i < m1; ++i) {
        const double a = ring.time(i);
        const std::uint32_t stream = ring.stream(i);
        recorder.addMeasured(stream, completionS - a, batch.dispatchS - a);
        if (recorder.wantsRecords())
            recorder.addRecord({i, stream, std::uint32_t(batch.slot), std::uint32_t(batch.size), a,
                                batch.dispatchS, completionS});
    }
}

void SharingEngine::complete(const DeviceBank::Batch& batch)
{
    const double nowS = m_bank.now();
    recordMeasured(batch, nowS);
    if (m_setup.scenario->policy.kind == PolicySpec::Kind::Adaptive) {
        m_batchLatencies.clear();
        for (std::uint64_t i = batch.first; i < batch.first + std::uint64_t(batch.size); ++i)
            m_batchLatencies.push_back(nowS - m_setup.arrivals->time(i));
        m_controller.onBatch(nowS, m_batchLatencies.data(), batch.size);
    }
}

EngineOutcome SharingEngine::run()
{
    const Scenario& scenario = *m_setup.scenario;
    ArrivalRing& ring = *m_setup.arrivals;
    const std::uint64_t endMeasured = scenario.warmupRequests + scenario.requests;
    const bool adaptive = scenario.policy.kind == PolicySpec::Kind::Adaptive;
    std::uint64_t head = 0;
    std::uint64_t arrived = 0;
    std::uint64_t lastTick = 0;
    // Later requests still share the devices with measured batches in flight, so dispatching
    // goes on until the last measured request has completed.
    const auto measuredInFlight = [&] { return m_bank.oldestInFlight(head) < endMeasured; };
    while (head < endMeasured || measuredInFlight()) {
        const DeviceBank::Event device = m_bank.nextEvent();
        double dispatchS = kInf;
        double deadlineS = kInf;
        const int target = m_bank.pickDevice();
        if (target >= 0) {
            if (adaptive && m_controller.advanceTo(m_bank.now()))
                m_batcher.setCap(m_controller.cap());
            deadlineS = ring.time(head) + m_batcher.maxDelayS();
            const double triggerS = ring.time(head + std::uint64_t(m_batcher.triggerCount()) - 1);
            dispatchS = std::max(m_bank.now(), std::min(triggerS, deadlineS));
        }
        if (!(dispatchS < kInf) && !(device.timeS < kInf)) {
            return {EngineOutcome::State::NoEnd,
                    "scenario.policy: requests can never be dispatched: the replay has no more "
                    "arrivals to fill a batch of " +
                        std::to_string(scenario.policy.maxBatch) +
                        " and there is no timeout (set timeout_ms, or loop the replay)"};
        }
        // Stage ends and completions at the instant of a dispatch come first: a stream that
        // frees exactly then takes the batch.
        if (device.timeS <= dispatchS) {
            m_bank.advanceTo(device.timeS);
            if (const auto done = m_bank.apply(device))
                complete(*done);
            ring.release(m_bank.oldestInFlight(head));
            continue;
        }
        m_bank.advanceTo(dispatchS);
        arrived = std::max(arrived, head);
        while (ring.time(arrived) <= dispatchS) {
            if (++arrived - head > scenario.maxQueueRequests)
                return {EngineOutcome::State::Unstable,
                        "the queue grew past max_queue_requests (" +
                            std::to_string(scenario.maxQueueRequests) +
                            " waiting) at t = " + std::to_string(dispatchS) + " s"};
        }
        const std::uint64_t waiting = arrived - head;
        const int size = m_batcher.batchSize(waiting, dispatchS >= deadlineS);
        m_bank.dispatch(target, head, size, waiting, m_batcher.cap());
        head += std::uint64_t(size);
        if (head - lastTick >= kTickRequests) {
            if (!m_setup.tick(head - lastTick))
                return {EngineOutcome::State::Cancelled, {}};
            lastTick = head;
        }
    }
    m_setup.recorder->finish(ring.markTime(0), ring.markTime(1));
    return {};
}

} // namespace bs::sim
