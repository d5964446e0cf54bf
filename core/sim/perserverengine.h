#pragma once

#include "sim/adaptivecontroller.h"
#include "sim/batcher.h"
#include "sim/engine.h"

#include <deque>
#include <memory>
#include <vector>

namespace bs::sim {

/// One queue per server: each arrival is placed on a server (round robin, least loaded or
/// random) when it arrives and then waits in that server's own FIFO queue, batched by that
/// queue's own Batcher (and AIMD controller). Arrivals are taken one at a time; before each,
/// every dispatch due strictly earlier is made in global time order, so an arrival that ties
/// with a timer or a completion still joins that decision.
class PerServerEngine
{
public:
    explicit PerServerEngine(const EngineSetup& setup);
    EngineOutcome run();

private:
    struct Waiting
    {
        double arrivalS;
        std::uint64_t index;
        std::uint32_t stream;
    };
    struct Queue
    {
        std::deque<Waiting> waiting;
        double lastDecisionS = 0.0;
        Batcher batcher;
        AdaptiveController controller;
        std::unique_ptr<ServerState> state;
    };

    /// The next dispatch time of a server's queue (+infinity when empty), cached until the
    /// queue or the server changes.
    double candidate(int server);
    void dispatchBefore(double t);
    void dispatch(int server, double d);
    int place(std::uint64_t index, double t);

    EngineSetup m_setup;
    std::vector<Queue> m_queues;
    // Per-server values every arrival scans, kept in small arrays rather than in Queue.
    std::vector<double> m_freeS;
    std::vector<std::uint32_t> m_inService; ///< Size of the batch in service until m_freeS.
    std::vector<std::uint64_t> m_queued;    ///< Requests waiting in each queue.
    std::vector<double> m_candidateS;
    std::vector<unsigned char> m_dirty;
    Rng m_serviceRng;
    Rng m_placementRng;
    std::uint64_t m_measuredDone = 0;
    std::vector<double> m_batchLatencies;
};

} // namespace bs::sim
