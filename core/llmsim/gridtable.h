#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace bs::llmsim {

/// Values measured on a rectilinear grid (every combination of the axis values), read back by
/// multilinear interpolation. Outside the grid each axis extrapolates along its last (or first)
/// segment, so a step larger than anything profiled grows at the profile's last slope instead
/// of being clamped.
class GridTable
{
public:
    GridTable() = default;
    /// `axes` are increasing; `values` has the product of their sizes entries, the last axis
    /// varying fastest.
    GridTable(std::vector<std::vector<double>> axes, std::vector<double> values);

    bool empty() const { return m_values.empty(); }
    std::size_t dimensions() const { return m_axes.size(); }
    const std::vector<double>& axis(std::size_t i) const { return m_axes[i]; }
    /// The interpolated value at `point` (one coordinate per axis).
    double at(std::span<const double> point) const;
    double at(double x) const { return at(std::span<const double>(&x, 1)); }

private:
    std::vector<std::vector<double>> m_axes;
    std::vector<double> m_values;
};

} // namespace bs::llmsim
