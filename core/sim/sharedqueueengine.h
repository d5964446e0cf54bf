#pragma once

#include "sim/adaptivecontroller.h"
#include "sim/batcher.h"
#include "sim/engine.h"

#include <memory>
#include <vector>

namespace bs::sim {

/// One FIFO queue in front of k identical servers, simulated a batch at a time.
///
/// No event heap and no per-request event: the next dispatch time follows from the Batcher
/// formula d = max(t_free, min(a[head + c - 1], a[head] + T)) using the arrival ring and the k
/// server free times. A batch goes to the server that became free first (lowest index on ties).
/// Per request the loop only reads its arrival time, stores its latency and counts its wait,
/// which is what makes 10^7 requests take well under a second.
class SharedQueueEngine
{
public:
    explicit SharedQueueEngine(const EngineSetup& setup);
    EngineOutcome run();

private:
    template <bool kStreams, bool kRecords, bool kAdaptive>
    EngineOutcome loop();
    template <bool kStreams, bool kRecords>
    void recordMeasured(std::uint64_t first, std::uint64_t end, double dispatchS,
                        double completionS, int server, int size);
    int pickServer() const;
    /// The outcome when no more arrivals can ever complete the waiting batch.
    EngineOutcome noEnd(std::uint64_t head);
    /// Gives the adaptive controller the latencies of the batch [head, head + size).
    void feedController(std::uint64_t head, int size, double completionS);

    EngineSetup m_setup;
    Batcher m_batcher;
    AdaptiveController m_controller;
    Rng m_serviceRng;
    std::vector<double> m_freeS;
    std::vector<std::unique_ptr<ServerState>> m_states;
    std::vector<double> m_batchLatencies; ///< Scratch for the adaptive controller.
};

} // namespace bs::sim
