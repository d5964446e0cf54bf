#pragma once

#include "sim/adaptivecontroller.h"
#include "sim/batcher.h"
#include "sim/engine.h"

#include <memory>
#include <vector>

namespace bs::sim {

/// One FIFO queue in front of k devices that each run up to `servers.streams` batches at once
/// (CUDA streams, Triton model instances, harness inference streams), simulated event by event.
///
/// A dispatched batch first spends its pre-compute time off the device (host work, launch, the
/// input copy), holding its stream; then it computes. The batches computing on one device share
/// it equally (processor sharing): with n of them each progresses at 1/n of its solo speed, so
/// the device's throughput is what one batch at a time achieves, and a batch's latency grows
/// with what it overlaps. Completion times therefore depend on later dispatches, which is why
/// this engine steps through events instead of computing dispatches in closed form as
/// SharedQueueEngine does.
class SharingEngine
{
public:
    explicit SharingEngine(const EngineSetup& setup);
    EngineOutcome run();

private:
    struct InFlight
    {
        std::uint64_t first = 0; ///< Request number of its first request.
        int size = 0;
        int slot = 0; ///< device * streams + stream, the recorder's "server".
        double dispatchS = 0.0;
        double joinS = 0.0;        ///< When its pre-compute ends and it starts sharing the device.
        double remainingS = 0.0;   ///< Solo compute time still to do.
        std::uint64_t waiting = 0; ///< Queue depth at its dispatch, itself included.
        int cap = 0;
        bool computing = false;
    };
    struct Device
    {
        std::vector<InFlight> batches;
        int computing = 0;
    };
    struct NextEvent
    {
        double timeS;
        int device = -1; ///< -1: no device event.
        std::size_t batch = 0;
    };

    NextEvent nextDeviceEvent() const;
    void advanceTo(double timeS);
    int pickDevice() const;
    void complete(int device, std::size_t batch);
    void recordMeasured(const InFlight& batch, double completionS);
    std::uint64_t oldestInFlight(std::uint64_t head) const;

    EngineSetup m_setup;
    Batcher m_batcher;
    AdaptiveController m_controller;
    Rng m_serviceRng;
    std::vector<Device> m_devices;
    std::vector<std::unique_ptr<ServerState>> m_states; ///< Per slot.
    std::vector<std::vector<int>> m_freeStreams; ///< Per device: its streams holding no batch.
    std::vector<double> m_batchLatencies;
    double m_nowS = 0.0;
};

} // namespace bs::sim
