#pragma once

#include "sim/arrivalprocess.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace bs::sim {

/// The arrival times of one replication, all streams merged in time order (ties: lower stream
/// first), addressed by global request number. Times are generated on demand in blocks and kept
/// only from the oldest request still needed (`release`), in a power-of-two ring buffer: memory
/// follows the queue length, never the run length.
class ArrivalRing
{
public:
    /// `marks` are request numbers whose arrival times the caller wants to know as soon as they
    /// are generated (the first and last measured request).
    ArrivalRing(std::vector<std::unique_ptr<ArrivalProcess>> streams,
                std::array<std::uint64_t, 2> marks);

    /// Arrival time of request `index` (>= the released head).
    double time(std::uint64_t index)
    {
        if (index >= m_generated)
            generateThrough(index);
        return m_times[index & m_mask];
    }
    /// Stream of a request already generated (0 with a single stream).
    std::uint32_t stream(std::uint64_t index) const
    {
        return m_streams.empty() ? 0 : m_streams[index & m_mask];
    }
    /// Requests before `head` are no longer needed.
    void release(std::uint64_t head) { m_head = head; }

    /// Raw access for tight loops over requests already generated: slot = index & mask().
    const double* times() const { return m_times.data(); }
    std::uint64_t mask() const { return m_mask; }
    std::uint64_t generated() const { return m_generated; }
    /// Arrival time of marks[i] once generated, else NaN.
    double markTime(int i) const { return m_markTimes[std::size_t(i)]; }

private:
    void generateThrough(std::uint64_t index);
    void grow();
    void fill(std::uint64_t slot, std::size_t n);
    void merge(double* out, std::uint16_t* streams, std::size_t n);

    std::vector<std::unique_ptr<ArrivalProcess>> m_processes;
    // Multi-stream merging: a small look-ahead buffer per stream.
    std::vector<std::vector<double>> m_pendingTimes;
    std::vector<std::size_t> m_pendingNext;

    std::vector<double> m_times;
    std::vector<std::uint16_t> m_streams; ///< Empty with a single stream.
    std::uint64_t m_mask = 0;
    std::uint64_t m_head = 0;
    std::uint64_t m_generated = 0;
    std::array<std::uint64_t, 2> m_marks;
    std::array<double, 2> m_markTimes;
};

} // namespace bs::sim
