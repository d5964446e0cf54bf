#include "sim/adaptivecontroller.h"

#include "sim/percentiles.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace bs::sim {

AdaptiveController::AdaptiveController(const PolicySpec& policy)
    : m_policy(policy)
    , m_cap(policy.initialBatch)
{
    m_window.reserve(std::size_t(policy.windowRequests));
}

void AdaptiveController::onBatch(double completionS, const double* latenciesS, int count)
{
    m_pending.push_back({completionS, std::vector<double>(latenciesS, latenciesS + count)});
}

bool AdaptiveController::advanceTo(double nowS)
{
    const int before = m_cap;
    // Pending batches are few (at most one per server); deliver in dispatch order.
    for (std::size_t i = 0; i < m_pending.size();) {
        if (m_pending[i].completionS > nowS) {
            ++i;
            continue;
        }
        for (double latency : m_pending[i].latenciesS) {
            m_window.push_back(latency);
            if (m_window.size() == std::size_t(m_policy.windowRequests))
                update();
        }
        m_pending.erase(m_pending.begin() + std::ptrdiff_t(i));
    }
    return m_cap != before;
}

void AdaptiveController::update()
{
    const double p99 = exactQuantiles(std::span<const double>(m_window), std::array{0.99})[0];
    if (p99 <= m_policy.targetP99S)
        m_cap = std::min(m_policy.maxBatch, m_cap + m_policy.increase);
    else
        m_cap = std::max(m_policy.minBatch, int(std::floor(double(m_cap) * m_policy.decrease)));
    m_window.clear();
}

} // namespace bs::sim
