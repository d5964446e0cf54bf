#pragma once

#include "sim/adaptivecontroller.h"
#include "sim/batcher.h"
#include "sim/devicebank.h"
#include "sim/engine.h"

#include <vector>

namespace bs::sim {

/// One FIFO queue in front of k devices that each run up to `servers.streams` batches at once
/// (CUDA streams, Triton model instances, harness inference streams), simulated event by event.
///
/// A dispatched batch passes copy-in, compute and copy-out (DeviceBank): copies hold its stream
/// but not the device; the batches computing on one device share it equally (processor
/// sharing), so the device's throughput is what one batch at a time achieves, and a batch's
/// latency grows with what it overlaps. Completion times therefore depend on later dispatches,
/// which is why this engine steps through events instead of computing dispatches in closed form as
/// SharedQueueEngine does.
class SharingEngine
{
public:
    explicit SharingEngine(const EngineSetup& setup);
    EngineOutcome run();

private:
    void recordMeasured(const DeviceBank::Batch& batch, double completionS);
    void complete(const DeviceBank::Batch& batch);

    EngineSetup m_setup;
    Batcher m_batcher;
    AdaptiveController m_controller;
    DeviceBank m_bank;
    std::vector<double> m_batchLatencies;
};

} // namespace bs::sim
