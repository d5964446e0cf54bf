#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace bs::io {

/// Interns trace event names: each distinct name is stored once and gets a dense id. An
/// open-addressing table of (hash, id) with a fast word-at-a-time hash keeps the lookup that
/// runs for every event of a multi-gigabyte trace cheap (kernel names are often 200+ bytes).
/// Thread contract: one thread.
class NameInterner
{
public:
    NameInterner();
    std::uint32_t intern(std::string_view name);
    std::size_t size() const { return m_names.size(); }
    /// Moves the names out in id order; the interner is empty afterwards.
    std::vector<std::string> take();

private:
    struct Slot
    {
        std::uint64_t hash = 0;
        std::uint32_t id = kEmpty;
    };
    static constexpr std::uint32_t kEmpty = ~std::uint32_t(0);
    static std::uint64_t hashOf(std::string_view text);
    void grow();

    std::vector<Slot> m_slots; ///< Power-of-two size, at most half full.
    std::deque<std::string> m_names;
};

} // namespace bs::io
