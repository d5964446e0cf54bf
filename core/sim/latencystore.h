#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>

namespace bs::sim {

/// The exact latency store of a replication: a growable array of doubles that, unlike
/// std::vector, does not zero what it reserves (10^7 requests would otherwise memset 80 MB and
/// pay a call per batch). 8 bytes per request, nothing else. Large stores ask Linux for
/// transparent huge pages: first-touch page faults otherwise cost more than the simulation.
class LatencyStore
{
public:
    void reserve(std::size_t capacity)
    {
        if (capacity <= m_capacity)
            return;
        Buffer bigger(allocate(capacity));
        if (m_size > 0)
            std::memcpy(bigger.get(), m_data.get(), m_size * sizeof(double));
        m_data = std::move(bigger);
        m_capacity = capacity;
    }
    void push_back(double v)
    {
        if (m_size == m_capacity)
            reserve(m_capacity < 1024 ? 1024 : 2 * m_capacity);
        m_data[m_size++] = v;
    }
    /// Room for n more values, to be written by the caller.
    double* append(std::size_t n)
    {
        if (m_size + n > m_capacity)
            reserve(m_size + n > 2 * m_capacity ? m_size + n : 2 * m_capacity);
        double* out = m_data.get() + m_size;
        m_size += n;
        return out;
    }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const double* data() const { return m_data.get(); }
    const double* begin() const { return m_data.get(); }
    const double* end() const { return m_data.get() + m_size; }
    operator std::span<const double>() const { return {m_data.get(), m_size}; }

private:
    struct Free
    {
        void operator()(double* p) const { std::free(p); }
    };
    using Buffer = std::unique_ptr<double[], Free>;
    /// Uninitialised room for n doubles; throws std::bad_alloc.
    static double* allocate(std::size_t n);

    Buffer m_data;
    std::size_t m_size = 0;
    std::size_t m_capacity = 0;
};

} // namespace bs::sim
