#include "sim/batcher.h"

namespace bs::sim {

Batcher::Batcher(const PolicySpec& policy)
    : m_cap(policy.kind == PolicySpec::Kind::Adaptive ? policy.initialBatch : policy.maxBatch)
    , m_trigger(m_cap)
    , m_delayS(policy.maxQueueDelayS)
{
    if (policy.kind == PolicySpec::Kind::Dynamic && !policy.preferredBatchSizes.empty()) {
        m_trigger = policy.preferredBatchSizes.front();
        m_largestPreferred.assign(std::size_t(m_cap) + 1, 0);
        int best = 0;
        std::size_t next = 0;
        for (int n = 0; n <= m_cap; ++n) {
            while (next < policy.preferredBatchSizes.size() &&
                   policy.preferredBatchSizes[next] <= n)
                best = policy.preferredBatchSizes[next++];
            m_largestPreferred[std::size_t(n)] = best;
        }
    }
}

void Batcher::setCap(int cap)
{
    m_cap = cap;
    m_trigger = cap;
}

} // namespace bs::sim
