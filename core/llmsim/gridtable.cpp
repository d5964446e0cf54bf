#include "llmsim/gridtable.h"

#include <algorithm>
#include <cassert>

namespace bs::llmsim {

GridTable::GridTable(std::vector<std::vector<double>> axes, std::vector<double> values)
    : m_axes(std::move(axes))
    , m_values(std::move(values))
{
    std::size_t size = 1;
    for (const auto& axis : m_axes)
        size *= axis.size();
    assert(size == m_values.size());
}

namespace {

/// The segment [lo, lo + 1] of `axis` used for x and x's position in it (below 0 or above 1
/// outside the axis: linear extrapolation).
void locate(const std::vector<double>& axis, double x, std::size_t& lo, double& t)
{
    if (axis.size() == 1) {
        lo = 0;
        t = 0.0;
        return;
    }
    const auto upper = std::upper_bound(axis.begin(), axis.end(), x);
    std::size_t index = upper == axis.begin() ? 0 : std::size_t(upper - axis.begin()) - 1;
    lo = std::min(index, axis.size() - 2);
    t = (x - axis[lo]) / (axis[lo + 1] - axis[lo]);
}

} // namespace

double GridTable::at(std::span<const double> point) const
{
    assert(point.size() == m_axes.size());
    const std::size_t n = m_axes.size();
    std::vector<std::size_t> lo(n);
    std::vector<double> t(n);
    std::vector<std::size_t> stride(n, 1);
    for (std::size_t i = n; i-- > 1;)
        stride[i - 1] = stride[i] * m_axes[i].size();
    for (std::size_t i = 0; i < n; ++i)
        locate(m_axes[i], point[i], lo[i], t[i]);
    double sum = 0.0;
    for (std::size_t corner = 0; corner < (std::size_t(1) << n); ++corner) {
        double weight = 1.0;
        std::size_t offset = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const bool high = (corner >> i) & 1U;
            if (high && m_axes[i].size() == 1) {
                weight = 0.0;
                break;
            }
            weight *= high ? t[i] : 1.0 - t[i];
            offset += (lo[i] + (high ? 1 : 0)) * stride[i];
        }
        if (weight != 0.0)
            sum += weight * m_values[offset];
    }
    return sum;
}

} // namespace bs::llmsim
