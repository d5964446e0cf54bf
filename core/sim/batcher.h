#pragma once

#include "sim/scenario.h"

#include <cstdint>
#include <vector>

namespace bs::sim {

/// The dispatch rule of one queue (core/sim/README.md, "Semantics").
///
/// With a free server at time t and the queue holding requests that arrived at a0 <= a1 <= ...,
/// a batch is dispatched at the first time d >= t at which either triggerCount() requests have
/// arrived or the oldest has waited maxDelayS():
///     d = max(t, min(a[triggerCount - 1], a0 + maxDelayS)).
/// Everything that arrived at or before d is waiting then (same-timestamp events first), and
/// batchSize() says how many of the oldest go. Engines compute d from this formula directly, so
/// no timer or per-request event is ever scheduled.
class Batcher
{
public:
    explicit Batcher(const PolicySpec& policy);

    /// Dispatch as soon as this many requests wait (dynamic: the smallest preferred size, else
    /// max_batch; static: the batch; adaptive: the current cap).
    int triggerCount() const { return m_trigger; }
    /// The queue delay after which whatever waits is dispatched (+infinity: never).
    double maxDelayS() const { return m_delayS; }
    /// The largest batch allowed now.
    int cap() const { return m_cap; }

    /// How many of `waiting` requests to dispatch. `delayExceeded`: the oldest has waited at
    /// least maxDelayS(). With preferred sizes and the delay not exceeded, the largest preferred
    /// size that fits (Triton); otherwise min(waiting, cap).
    int batchSize(std::uint64_t waiting, bool delayExceeded) const
    {
        const int n = waiting < std::uint64_t(m_cap) ? int(waiting) : m_cap;
        if (!m_largestPreferred.empty() && !delayExceeded && waiting >= std::uint64_t(m_trigger))
            return m_largestPreferred[std::size_t(n)];
        return n;
    }

    /// Adaptive policies: sets the cap (and the trigger with it).
    void setCap(int cap);

private:
    int m_cap = 1;
    int m_trigger = 1;
    double m_delayS = 0.0;
    /// largestPreferred[n]: the largest preferred size <= n (0 below the smallest); empty
    /// without preferred sizes.
    std::vector<int> m_largestPreferred;
};

} // namespace bs::sim
