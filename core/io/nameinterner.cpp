#include "io/nameinterner.h"

#include <cstring>

namespace bs::io {

NameInterner::NameInterner()
    : m_slots(1024)
{}

std::uint64_t NameInterner::hashOf(std::string_view text)
{
    // 64-bit multiply-xorshift over 8-byte words; quality is ample for a hash table of names.
    constexpr std::uint64_t k = 0x9e3779b97f4a7c15ull;
    std::uint64_t h = text.size() * k;
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, text.data() + i, 8);
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, text.data() + i, text.size() - i);
    h = (h ^ tail) * k;
    return h ^ (h >> 32);
}

std::uint32_t NameInterner::intern(std::string_view name)
{
    const std::uint64_t hash = hashOf(name);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = std::size_t(hash) & mask;; i = (i + 1) & mask) {
        Slot& slot = m_slots[i];
        if (slot.id == kEmpty) {
            const auto id = std::uint32_t(m_names.size());
            m_names.emplace_back(name);
            slot = Slot{hash, id};
            if (m_names.size() * 2 > m_slots.size())
                grow();
            return id;
        }
        if (slot.hash == hash && m_names[slot.id] == name)
            return slot.id;
    }
}

void NameInterner::grow()
{
    std::vector<Slot> old(m_slots.size() * 2);
    old.swap(m_slots);
    const std::size_t mask = m_slots.size() - 1;
    for (const Slot& slot : old) {
        if (slot.id == kEmpty)
            continue;
        std::size_t i = std::size_t(slot.hash) & mask;
        while (m_slots[i].id != kEmpty)
            i = (i + 1) & mask;
        m_slots[i] = slot;
    }
}

std::vector<std::string> NameInterner::take()
{
    std::vector<std::string> out(std::make_move_iterator(m_names.begin()),
                                 std::make_move_iterator(m_names.end()));
    m_names.clear();
    m_slots.assign(1024, Slot{});
    return out;
}

} // namespace bs::io
