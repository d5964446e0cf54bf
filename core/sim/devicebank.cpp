#include "sim/devicebank.h"

#include <algorithm>
#include <limits>

namespace bs::sim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
} // namespace

DeviceBank::DeviceBank(const ServerSpec& servers, const ServiceModel& service, std::uint64_t seed)
    : m_servers(servers)
    , m_service(service)
    , m_serviceRng(seed, kServiceStream)
    , m_devices(std::size_t(servers.count))
{
    for (auto& device : m_devices) {
        // Popped from the back: stream 0 is taken first.
        for (int s = servers.streams - 1; s >= 0; --s)
            device.freeStreams.push_back(s);
    }
    for (int slot = 0; slot < servers.count * servers.streams; ++slot)
        m_states.push_back(service.makeServerState());
}

int DeviceBank::pickDevice() const
{
    // A free stream on the device with the fewest batches in flight (lowest index on ties):
    // what a harness whose batcher threads compete for one queue ends up doing.
    int best = -1;
    for (int d = 0; d < int(m_devices.size()); ++d) {
        const Device& device = m_devices[std::size_t(d)];
        if (device.freeStreams.empty())
            continue;
        if (best < 0 || device.batches.size() < m_devices[std::size_t(best)].batches.size())
            best = d;
    }
    return best;
}

void DeviceBank::enterCompute(Device& device, Batch& batch)
{
    batch.phase = Phase::Compute;
    ++device.computing;
}

int DeviceBank::dispatch(int device, std::uint64_t first, int size, std::uint64_t waiting, int cap)
{
    Device& d = m_devices[std::size_t(device)];
    const int slot = device * m_servers.streams + d.freeStreams.back();
    d.freeStreams.pop_back();
    const BatchService cost =
        m_service.serve(size, m_states[std::size_t(slot)].get(), m_nowS, m_serviceRng);
    const double copyInS = m_servers.preComputeS(size);
    Batch batch{first,   size, slot,          m_nowS,       m_nowS + copyInS, cost.serviceS,
                waiting, cap,  Phase::CopyIn, cost.energyJ, cost.temperatureC};
    if (copyInS <= 0.0)
        enterCompute(d, batch);
    d.batches.push_back(batch);
    return slot;
}

DeviceBank::Event DeviceBank::nextEvent() const
{
    Event next{kInf};
    for (std::size_t d = 0; d < m_devices.size(); ++d) {
        const Device& device = m_devices[d];
        for (std::size_t b = 0; b < device.batches.size(); ++b) {
            const Batch& batch = device.batches[b];
            const double t = batch.phase == Phase::Compute
                                 ? m_nowS + batch.remainingS * double(device.computing)
                                 : batch.phaseEndS;
            if (t < next.timeS)
                next = {t, int(d), b};
        }
    }
    return next;
}

void DeviceBank::advanceTo(double timeS)
{
    const double elapsedS = timeS - m_nowS;
    if (elapsedS > 0.0) {
        for (Device& device : m_devices) {
            if (device.computing == 0)
                continue;
            const double share = elapsedS / double(device.computing);
            for (Batch& batch : device.batches) {
                if (batch.phase == Phase::Compute)
                    batch.remainingS -= share;
            }
        }
    }
    m_nowS = std::max(m_nowS, timeS);
}

std::optional<DeviceBank::Batch> DeviceBank::apply(const Event& event)
{
    Device& d = m_devices[std::size_t(event.device)];
    Batch& batch = d.batches[event.batch];
    if (batch.phase == Phase::CopyIn) {
        enterCompute(d, batch);
        return std::nullopt;
    }
    if (batch.phase == Phase::Compute) {
        --d.computing;
        const double copyOutS = m_servers.postComputeS(batch.size);
        if (copyOutS > 0.0) {
            batch.phase = Phase::CopyOut;
            batch.phaseEndS = m_nowS + copyOutS;
            return std::nullopt;
        }
    }
    const Batch done = batch;
    d.batches.erase(d.batches.begin() + std::ptrdiff_t(event.batch));
    d.freeStreams.push_back(done.slot % m_servers.streams);
    return done;
}

std::uint64_t DeviceBank::oldestInFlight(std::uint64_t head) const
{
    std::uint64_t oldest = head;
    for (const Device& device : m_devices)
        for (const Batch& batch : device.batches)
            oldest = std::min(oldest, batch.first);
    return oldest;
}

} // namespace bs::sim
