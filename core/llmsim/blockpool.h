#pragma once

#include <cstdint>
#include <vector>

namespace bs::llmsim {

/// The KV cache's blocks and their free queue, in vLLM V1's eviction order: freed blocks join
/// the tail (a request's blocks in reverse, so its last blocks are reused first) and new blocks
/// come from the head. A free block may still hold a preempted request's keys and values
/// (tagged with the request and the block's index in it) until it is handed out again.
class BlockPool
{
public:
    static constexpr std::int32_t kNone = -1;

    explicit BlockPool(std::int64_t blocks = 0);

    std::int64_t freeCount() const { return m_freeCount; }
    std::int64_t size() const { return std::int64_t(m_next.size()); }

    /// Takes the block at the head of the free queue; the request whose cached block it was (or
    /// kNone) and that block's index are returned through `evictedOwner` / `evictedIndex`.
    std::int32_t takeHead(std::int32_t& evictedOwner, std::int32_t& evictedIndex);
    /// Takes a particular free block (a prefix-cache hit).
    void take(std::int32_t block);
    /// Forgets that a free block caches block `index` of `owner` (when it still does).
    void untag(std::int32_t block, std::int32_t owner, std::int32_t index);
    /// Returns blocks to the tail of the free queue, last first. Blocks [0, keepCached) keep
    /// their tag (owner, index) for a later hit; the others are plain free blocks.
    void release(const std::vector<std::int32_t>& blocks, std::int32_t owner,
                 std::size_t keepCached);

private:
    void pushTail(std::int32_t block);
    void unlink(std::int32_t block);

    std::vector<std::int32_t> m_prev, m_next, m_owner, m_index;
    std::int32_t m_head = kNone, m_tail = kNone;
    std::int64_t m_freeCount = 0;
};

} // namespace bs::llmsim
