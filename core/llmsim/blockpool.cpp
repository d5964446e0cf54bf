#include "llmsim/blockpool.h"

#include <cassert>

namespace bs::llmsim {

BlockPool::BlockPool(std::int64_t blocks)
    : m_prev(std::size_t(blocks), kNone)
    , m_next(std::size_t(blocks), kNone)
    , m_owner(std::size_t(blocks), kNone)
    , m_index(std::size_t(blocks), kNone)
{
    for (std::int32_t b = 0; b < std::int32_t(blocks); ++b)
        pushTail(b);
}

void BlockPool::pushTail(std::int32_t block)
{
    m_prev[std::size_t(block)] = m_tail;
    m_next[std::size_t(block)] = kNone;
    if (m_tail != kNone)
        m_next[std::size_t(m_tail)] = block;
    else
        m_head = block;
    m_tail = block;
    ++m_freeCount;
}

void BlockPool::unlink(std::int32_t block)
{
    const std::int32_t prev = m_prev[std::size_t(block)];
    const std::int32_t next = m_next[std::size_t(block)];
    (prev != kNone ? m_next[std::size_t(prev)] : m_head) = next;
    (next != kNone ? m_prev[std::size_t(next)] : m_tail) = prev;
    --m_freeCount;
}

std::int32_t BlockPool::takeHead(std::int32_t& evictedOwner, std::int32_t& evictedIndex)
{
    assert(m_head != kNone);
    const std::int32_t block = m_head;
    unlink(block);
    evictedOwner = m_owner[std::size_t(block)];
    evictedIndex = m_index[std::size_t(block)];
    m_owner[std::size_t(block)] = kNone;
    return block;
}

void BlockPool::take(std::int32_t block)
{
    unlink(block);
    m_owner[std::size_t(block)] = kNone;
}

void BlockPool::untag(std::int32_t block, std::int32_t owner, std::int32_t index)
{
    if (m_owner[std::size_t(block)] == owner && m_index[std::size_t(block)] == index)
        m_owner[std::size_t(block)] = kNone;
}

void BlockPool::release(const std::vector<std::int32_t>& blocks, std::int32_t owner,
                        std::size_t keepCached)
{
    for (std::size_t i = blocks.size(); i-- > 0;) {
        const std::int32_t block = blocks[i];
        m_owner[std::size_t(block)] = i < keepCached ? owner : kNone;
        m_index[std::size_t(block)] = std::int32_t(i);
        pushTail(block);
    }
}

} // namespace bs::llmsim
