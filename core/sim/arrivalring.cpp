#include "sim/arrivalring.h"

#include <limits>

namespace bs::sim {

namespace {
constexpr std::size_t kBlock = 512;
constexpr std::size_t kStreamLookahead = 64;
} // namespace

ArrivalRing::ArrivalRing(std::vector<std::unique_ptr<ArrivalProcess>> streams,
                         std::array<std::uint64_t, 2> marks)
    : m_processes(std::move(streams))
    , m_marks(marks)
    , m_markTimes{std::numeric_limits<double>::quiet_NaN(),
                  std::numeric_limits<double>::quiet_NaN()}
{
    m_times.resize(4 * kBlock);
    m_mask = m_times.size() - 1;
    if (m_processes.size() > 1) {
        m_streams.resize(m_times.size());
        m_pendingTimes.assign(m_processes.size(), std::vector<double>(kStreamLookahead));
        m_pendingNext.assign(m_processes.size(), kStreamLookahead);
    }
}

void ArrivalRing::generateThrough(std::uint64_t index)
{
    while (m_generated <= index) {
        if (m_times.size() - (m_generated - m_head) < kBlock)
            grow();
        const std::uint64_t slot = m_generated & m_mask;
        const std::size_t first = std::min<std::size_t>(kBlock, m_times.size() - slot);
        fill(slot, first);
        if (first < kBlock)
            fill(0, kBlock - first);
        for (int i = 0; i < 2; ++i) {
            if (m_marks[std::size_t(i)] >= m_generated &&
                m_marks[std::size_t(i)] < m_generated + kBlock)
                m_markTimes[std::size_t(i)] = m_times[m_marks[std::size_t(i)] & m_mask];
        }
        m_generated += kBlock;
    }
}

void ArrivalRing::fill(std::uint64_t slot, std::size_t n)
{
    if (m_processes.size() == 1)
        m_processes.front()->generate(&m_times[slot], n);
    else
        merge(&m_times[slot], &m_streams[slot], n);
}

void ArrivalRing::merge(double* out, std::uint16_t* streams, std::size_t n)
{
    const std::size_t count = m_processes.size();
    for (std::size_t i = 0; i < n; ++i) {
        std::size_t best = 0;
        double bestTime = std::numeric_limits<double>::infinity();
        for (std::size_t s = 0; s < count; ++s) {
            if (m_pendingNext[s] == kStreamLookahead) {
                m_processes[s]->generate(m_pendingTimes[s].data(), kStreamLookahead);
                m_pendingNext[s] = 0;
            }
            const double t = m_pendingTimes[s][m_pendingNext[s]];
            if (t < bestTime || s == 0) {
                best = s;
                bestTime = t;
            }
        }
        out[i] = bestTime;
        streams[i] = std::uint16_t(best);
        ++m_pendingNext[best];
    }
}

void ArrivalRing::grow()
{
    std::vector<double> times(m_times.size() * 2);
    std::vector<std::uint16_t> streams(m_streams.empty() ? 0 : times.size());
    const std::uint64_t mask = times.size() - 1;
    for (std::uint64_t i = m_head; i < m_generated; ++i) {
        times[i & mask] = m_times[i & m_mask];
        if (!streams.empty())
            streams[i & mask] = m_streams[i & m_mask];
    }
    m_times = std::move(times);
    m_streams = std::move(streams);
    m_mask = mask;
}

} // namespace bs::sim
