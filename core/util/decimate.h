#pragma once

#include <cstddef>
#include <vector>

namespace bs {

/// A point of a decimated series.
struct XYPoint
{
    double x;
    double y;
};

/// Min/max decimation for drawing: splits [x.front(), x.back()] into `columns` equal-width
/// buckets (one per pixel column) and keeps, per bucket, the first, the minimum, the maximum
/// and the last point in x order. Peaks and dips survive, so a decimated line looks like the
/// full one at that width. Input must be sorted by x; series of at most 4·columns points are
/// returned unchanged.
std::vector<XYPoint> decimateMinMax(const std::vector<double>& x, const std::vector<double>& y,
                                    std::size_t columns);

} // namespace bs
