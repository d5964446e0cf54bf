#include "io/eventblocks.h"

#include "io/hugepages.h"

#include <cstdint>

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#endif

namespace bs::io {

namespace {

/// A block of fresh pages; on Linux 2 MiB-aligned and advised to be one huge page (one page
/// fault per block instead of 512).
void* pages(std::size_t bytes)
{
#if defined(_WIN32)
    return VirtualAlloc(nullptr, bytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
#else
    const std::size_t align = std::size_t(2) << 20;
    void* p =
        mmap(nullptr, bytes + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return nullptr;
    const auto raw = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t aligned = (raw + align - 1) & ~std::uintptr_t(align - 1);
    if (aligned > raw)
        munmap(p, aligned - raw);
    const std::uintptr_t tail = aligned + bytes;
    if (raw + bytes + align > tail)
        munmap(reinterpret_cast<void*>(tail), raw + bytes + align - tail);
    adviseHugePages(reinterpret_cast<void*>(aligned), bytes);
    return reinterpret_cast<void*>(aligned);
#endif
}

void freePages(void* p, std::size_t bytes)
{
#if defined(_WIN32)
    (void)bytes;
    VirtualFree(p, 0, MEM_RELEASE);
#else
    munmap(p, bytes);
#endif
}

} // namespace

EventBlocks::~EventBlocks()
{
    for (auto& block : m_blocks)
        release(block);
}

bool EventBlocks::addBlock()
{
    void* memory = pages(kBlockBytes);
    if (!memory)
        return false;
    m_blocks.push_back(Block{static_cast<data::KernelEvent*>(memory), 0});
    return true;
}

void EventBlocks::release(Block& block)
{
    if (block.events)
        freePages(block.events, kBlockBytes);
    block.events = nullptr;
    block.used = 0;
}

void EventBlocks::moveInto(std::vector<data::KernelEvent>& out, double shiftS)
{
    // reserve() takes address space without touching it; pages become resident as events are
    // copied in, while each copied block is handed back.
    out.reserve(out.size() + m_size);
    adviseHugePagesFor(out);
    for (auto& block : m_blocks) {
        for (std::size_t i = 0; i < block.used; ++i) {
            out.push_back(block.events[i]);
            out.back().startS -= shiftS;
        }
        release(block);
    }
    m_blocks.clear();
    m_size = 0;
}

} // namespace bs::io
