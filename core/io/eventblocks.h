#pragma once

#include "data/kerneltrace.h"

#include <cstddef>
#include <new>
#include <vector>

namespace bs::io {

/// Append-only storage for trace events while a trace is parsed. Memory comes from the OS in
/// page-backed blocks (mmap/VirtualAlloc) and goes back block by block while moveInto() copies
/// the events into their final std::vector, so the peak is the final size plus one block,
/// instead of the 2-3x of a growing vector. This keeps a 10-million-event trace within the
/// memory goal of 64 bytes per event. Thread contract: one thread.
class EventBlocks
{
public:
    EventBlocks() = default;
    ~EventBlocks();
    EventBlocks(const EventBlocks&) = delete;
    EventBlocks& operator=(const EventBlocks&) = delete;

    /// Appends an event; false when the system has no memory left for another block.
    bool push(const data::KernelEvent& event)
    {
        if ((m_blocks.empty() || m_blocks.back().used == kEventsPerBlock) && !addBlock())
            return false;
        Block& block = m_blocks.back();
        new (&block.events[block.used++]) data::KernelEvent(event);
        ++m_size;
        return true;
    }
    std::size_t size() const { return m_size; }

    /// Appends every event to `out`, shifting start times by `shiftS`, and releases the blocks.
    void moveInto(std::vector<data::KernelEvent>& out, double shiftS);

private:
    static constexpr std::size_t kBlockBytes = std::size_t(2) << 20;
    static constexpr std::size_t kEventsPerBlock = kBlockBytes / sizeof(data::KernelEvent);

    struct Block
    {
        data::KernelEvent* events = nullptr;
        std::size_t used = 0;
    };
    bool addBlock();
    static void release(Block& block);

    std::vector<Block> m_blocks;
    std::size_t m_size = 0;
};

} // namespace bs::io
