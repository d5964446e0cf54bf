#pragma once

#include "sim/scenario.h"

#include <vector>

namespace bs::sim {

/// AIMD control of a queue's batch cap, as in Clipper (Crankshaw et al., NSDI 2017): after every
/// windowRequests completed requests the window's p99 latency is compared with the target; the
/// cap grows by `increase` while p99 <= target and is multiplied by `decrease` (rounded down,
/// at least minBatch) when over. A latency is seen when its request completes, not when its
/// batch is dispatched, so the controller never uses information from the future.
class AdaptiveController
{
public:
    explicit AdaptiveController(const PolicySpec& policy);

    int cap() const { return m_cap; }
    /// A dispatched batch: when it completes and the latencies (s) of its requests.
    void onBatch(double completionS, const double* latenciesS, int count);
    /// Delivers the batches completed by nowS; returns true when the cap changed.
    bool advanceTo(double nowS);

private:
    struct Pending
    {
        double completionS;
        std::vector<double> latenciesS;
    };
    void update();

    PolicySpec m_policy;
    int m_cap;
    std::vector<Pending> m_pending;
    std::vector<double> m_window;
};

} // namespace bs::sim
