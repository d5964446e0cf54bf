#include "util/decimate.h"

#include <algorithm>

namespace bs {

std::vector<XYPoint> decimateMinMax(const std::vector<double>& x, const std::vector<double>& y,
                                    std::size_t columns)
{
    const std::size_t n = std::min(x.size(), y.size());
    std::vector<XYPoint> out;
    if (n <= 4 * std::max<std::size_t>(columns, 1)) {
        out.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            out.push_back({x[i], y[i]});
        return out;
    }
    const double x0 = x.front();
    const double width = (x[n - 1] - x0) / double(columns);
    out.reserve(columns * 4);
    std::size_t i = 0;
    while (i < n) {
        const std::size_t bucket =
            width > 0 ? std::min(columns - 1, std::size_t((x[i] - x0) / width)) : 0;
        const double bucketEnd = width > 0 ? x0 + width * double(bucket + 1) : x[n - 1];
        std::size_t first = i, minIndex = i, maxIndex = i, last = i;
        for (; i < n && (x[i] < bucketEnd || bucket == columns - 1 || width <= 0); ++i) {
            if (y[i] < y[minIndex])
                minIndex = i;
            if (y[i] > y[maxIndex])
                maxIndex = i;
            last = i;
        }
        // Emit in x order, without repeating an index.
        std::size_t picks[4] = {first, std::min(minIndex, maxIndex), std::max(minIndex, maxIndex),
                                last};
        std::size_t previous = n;
        for (std::size_t pick : picks) {
            if (pick != previous)
                out.push_back({x[pick], y[pick]});
            previous = pick;
        }
    }
    return out;
}

} // namespace bs
