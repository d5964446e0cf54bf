#pragma once

#include "sim/result.h"
#include "sim/rng.h"
#include "sim/scenario.h"
#include "sim/servicemodel.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace bs::sim {

/// k devices that each run up to `servers.streams` batches at once, stepped event by event.
///
/// A dispatched batch holds one stream of one device from dispatch to completion and passes
/// three stages: copy-in (`pre_compute`, off the device), compute, copy-out (`post_compute`,
/// off the device). The batches computing on one device share it equally (processor sharing):
/// with n of them each progresses at 1/n of its solo speed. Copies take the same time whatever
/// else runs, so with several streams one batch's copies overlap the others' compute. With one
/// stream and no copies a device is a plain FIFO server: a batch takes exactly s(b).
class DeviceBank
{
public:
    enum class Phase
    {
        CopyIn,
        Compute,
        CopyOut,
    };
    struct Batch
    {
        std::uint64_t first = 0; ///< Request number of its first request.
        int size = 0;
        int slot = 0; ///< device * streams + stream, the recorder's "server".
        double dispatchS = 0.0;
        double phaseEndS = 0.0;    ///< End of its copy-in or copy-out (not of compute).
        double remainingS = 0.0;   ///< Solo compute time still to do.
        std::uint64_t waiting = 0; ///< Queue depth at its dispatch, itself included.
        int cap = 0;
        Phase phase = Phase::CopyIn;
        double energyJ = kNaN;
        double temperatureC = kNaN;
    };
    struct Event
    {
        double timeS;
        int device = -1; ///< -1: nothing in flight.
        std::size_t batch = 0;
    };

    DeviceBank(const ServerSpec& servers, const ServiceModel& service, std::uint64_t seed);

    /// A device with a free stream (fewest batches in flight, lowest index on ties), or -1.
    int pickDevice() const;
    /// Starts a batch of `size` requests on `device` at now(); returns its slot.
    int dispatch(int device, std::uint64_t first, int size, std::uint64_t waiting, int cap);
    /// The next stage end or completion, timeS = infinity when nothing is in flight.
    Event nextEvent() const;
    /// Moves the clock forward, sharing the elapsed time among the computing batches.
    void advanceTo(double timeS);
    /// Applies `event` (after advanceTo(event.timeS)): the batch enters its next stage, or
    /// completes and is returned, its stream freed.
    std::optional<Batch> apply(const Event& event);
    /// The lowest request number still in flight, or `head` when none is older.
    std::uint64_t oldestInFlight(std::uint64_t head) const;
    double now() const { return m_nowS; }

private:
    struct Device
    {
        std::vector<Batch> batches;
        int computing = 0;
        std::vector<int> freeStreams; ///< Streams holding no batch; popped from the back.
    };
    void enterCompute(Device& device, Batch& batch);

    const ServerSpec& m_servers;
    const ServiceModel& m_service;
    Rng m_serviceRng;
    std::vector<Device> m_devices;
    std::vector<std::unique_ptr<ServerState>> m_states; ///< Per slot.
    double m_nowS = 0.0;
};

} // namespace bs::sim
