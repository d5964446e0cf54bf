#pragma once

#include "sim/batcher.h"
#include "sim/devicebank.h"
#include "sim/engine.h"

#include <deque>
#include <set>
#include <utility>
#include <vector>

namespace bs::sim {

/// A closed loop of N clients (perf_analyzer's concurrency mode) in front of one FIFO queue and
/// the devices of a DeviceBank. Each client has one request outstanding: it reaches the queue
/// client_overhead (fixed, or exponential with that mean) after the client sends it, and the client
/// sends its next one a think time (exponential, mean think; none when 0) after the response.
/// Arrivals therefore follow completions, so this engine steps through events like SharingEngine,
/// keeping the clients' next arrivals in time order (ties: lower client first).
///
/// Requests are numbered in the order they reach the queue; the first warmup_requests are
/// warm-up, the next `requests` are measured, and the run ends when the last measured one has
/// completed. Latency = completion - send (client overhead included); queue wait = dispatch -
/// arrival at the queue.
class ClosedLoopEngine
{
public:
    explicit ClosedLoopEngine(const EngineSetup& setup);
    EngineOutcome run();

private:
    struct Request
    {
        std::uint64_t index = 0;
        int client = 0;
        double sentS = 0.0;
        double arrivalS = 0.0; ///< At the queue.
    };
    void send(int client, double sentS);
    double triggerTimeS() const;
    void admitThrough(double timeS);
    void complete(const DeviceBank::Batch& batch);
    EngineOutcome noEnd() const;

    EngineSetup m_setup;
    const ArrivalSpec& m_spec;
    Batcher m_batcher;
    DeviceBank m_bank;
    Rng m_thinkRng;
    std::set<std::pair<double, int>> m_pending; ///< (arrival at the queue, client).
    std::vector<double> m_sentS;                ///< Per client: when its request was sent.
    std::deque<Request> m_queue;
    std::vector<std::vector<Request>> m_inService; ///< Per slot: its batch's requests.
    std::uint64_t m_arrived = 0;
    std::uint64_t m_measuredDone = 0;
    double m_firstMeasuredS = kNaN;
    double m_lastMeasuredS = kNaN;
};

} // namespace bs::sim
