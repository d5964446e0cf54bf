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
    , m_serviceRng(setup.seed, kServiceStream)
    , m_devices(std::size_t(setup.scenario->servers.count))
    , m_freeStreams(std::size_t(setup.scenario->servers.count))
{
    const int streams = setup.scenario->servers.streams;
    for (auto& free : m_freeStreams) {
        // Popped from the back: stream 0 is taken first.
        for (int s = streams - 1; s >= 0; --s)
            free.push_back(s);
    }
    for (int slot = 0; slot < setup.scenario->servers.count * streams; ++slot)
        m_states.push_back(setup.service->makeServerState());
}

SharingEngine::NextEvent SharingEngine::nextDeviceEvent() const
{
    NextEvent next{kInf};
    for (std::size_t d = 0; d < m_devices.size(); ++d) {
        const Device& device = m_devices[d];
        for (std::size_t b = 0; b < device.batches.size(); ++b) {
            const InFlight& batch = device.batches[b];
            const double t = batch.computing ? m_nowS + batch.remainingS * double(device.computing)
                                             : batch.joinS;
            if (t < next.timeS)
                next = {t, int(d), b};
        }
    }
    return next;
}

void SharingEngine::advanceTo(double timeS)
{
    const double elapsedS = timeS - m_nowS;
    if (elapsedS > 0.0) {
        for (Device& device : m_devices) {
            if (device.computing == 0)
                continue;
            const double share = elapsedS / double(device.computing);
            for (InFlight& batch : device.batches) {
                if (batch.computing)
                    batch.remainingS -= share;
            }
        }
    }
    m_nowS = std::max(m_nowS, timeS);
}

int SharingEngine::pickDevice() const
{
    // A free stream on the device with the fewest batches in flight (lowest index on ties):
    // what a harness whose batcher threads compete for one queue ends up doing.
    int best = -1;
    for (int d = 0; d < int(m_devices.size()); ++d) {
        if (m_freeStreams[std::size_t(d)].empty())
            continue;
        if (best < 0 ||
            m_devices[std::size_t(d)].batches.size() < m_devices[std::size_t(best)].batches.size())
            best = d;
    }
    return best;
}

std::uint64_t SharingEngine::oldestInFlight(std::uint64_t head) const
{
    std::uint64_t oldest = head;
    for (const Device& device : m_devices)
        for (const InFlight& batch : device.batches)
            oldest = std::min(oldest, batch.first);
    return oldest;
}

void SharingEngine::recordMeasured(const InFlight& batch, double completionS)
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

void SharingEngine::complete(int device, std::size_t index)
{
    Device& d = m_devices[std::size_t(device)];
    const InFlight batch = d.batches[index];
    d.batches.erase(d.batches.begin() + std::ptrdiff_t(index));
    --d.computing;
    m_freeStreams[std::size_t(device)].push_back(batch.slot % m_setup.scenario->servers.streams);
    recordMeasured(batch, m_nowS);
    if (m_setup.scenario->policy.kind == PolicySpec::Kind::Adaptive) {
        m_batchLatencies.clear();
        for (std::uint64_t i = batch.first; i < batch.first + std::uint64_t(batch.size); ++i)
            m_batchLatencies.push_back(m_nowS - m_setup.arrivals->time(i));
        m_controller.onBatch(m_nowS, m_batchLatencies.data(), batch.size);
    }
}

EngineOutcome SharingEngine::run()
{
    const Scenario& scenario = *m_setup.scenario;
    ArrivalRing& ring = *m_setup.arrivals;
    const std::uint64_t endMeasured = scenario.warmupRequests + scenario.requests;
    const bool adaptive = scenario.policy.kind == PolicySpec::Kind::Adaptive;
    const int streams = scenario.servers.streams;
    std::uint64_t head = 0;
    std::uint64_t arrived = 0;
    std::uint64_t lastTick = 0;
    // Later requests still share the devices with measured batches in flight, so dispatching
    // goes on until the last measured request has completed.
    const auto measuredInFlight = [&] { return oldestInFlight(head) < endMeasured; };
    while (head < endMeasured || measuredInFlight()) {
        const NextEvent device = nextDeviceEvent();
        double dispatchS = kInf;
        double deadlineS = kInf;
        const int target = pickDevice();
        if (target >= 0) {
            if (adaptive && m_controller.advanceTo(m_nowS))
                m_batcher.setCap(m_controller.cap());
            deadlineS = ring.time(head) + m_batcher.maxDelayS();
            const double triggerS = ring.time(head + std::uint64_t(m_batcher.triggerCount()) - 1);
            dispatchS = std::max(m_nowS, std::min(triggerS, deadlineS));
        }
        if (!(dispatchS < kInf) && !(device.timeS < kInf)) {
            return {EngineOutcome::State::NoEnd,
                    "scenario.policy: requests can never be dispatched: the replay has no more "
                    "arrivals to fill a batch of " +
                        std::to_string(scenario.policy.maxBatch) +
                        " and there is no timeout (set timeout_ms, or loop the replay)"};
        }
        // Completions and joins at the instant of a dispatch come first: a stream that frees
        // exactly then takes the batch.
        if (device.timeS <= dispatchS) {
            advanceTo(device.timeS);
            InFlight& batch = m_devices[std::size_t(device.device)].batches[device.batch];
            if (batch.computing) {
                complete(device.device, device.batch);
            } else {
                batch.computing = true;
                ++m_devices[std::size_t(device.device)].computing;
            }
            ring.release(oldestInFlight(head));
            continue;
        }
        advanceTo(dispatchS);
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
        auto& free = m_freeStreams[std::size_t(target)];
        const int slot = target * streams + free.back();
        free.pop_back();
        const BatchService cost = m_setup.service->serve(size, m_states[std::size_t(slot)].get(),
                                                         dispatchS, m_serviceRng);
        const double preS =
            scenario.servers.preComputeBaseS + scenario.servers.preComputePerItemS * double(size);
        InFlight batch{head,
                       size,
                       slot,
                       dispatchS,
                       dispatchS + preS,
                       cost.serviceS,
                       waiting,
                       m_batcher.cap(),
                       preS <= 0.0};
        Device& d = m_devices[std::size_t(target)];
        d.batches.push_back(batch);
        if (batch.computing)
            ++d.computing;
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
