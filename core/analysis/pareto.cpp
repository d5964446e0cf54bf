#include "analysis/pareto.h"

#include <algorithm>
#include <cmath>

namespace bs::analysis {

bool dominates(const std::vector<double>& a, const std::vector<double>& b)
{
    bool strictly = false;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        if (a[i] > b[i])
            return false;
        strictly = strictly || a[i] < b[i];
    }
    return strictly;
}

std::vector<std::size_t> paretoFront(const std::vector<std::vector<double>>& points)
{
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        if (std::none_of(p.begin(), p.end(), [](double v) { return std::isnan(v); }))
            order.push_back(i);
    }
    // Lexicographic order (index breaks ties, so the result does not depend on the sort).
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (points[a] != points[b])
            return points[a] < points[b];
        return a < b;
    });
    std::vector<std::size_t> front;
    for (std::size_t i : order) {
        // A dominating point is lexicographically smaller, so it was seen; if it is not on the
        // front, the front member that dominates it dominates this point too.
        const bool dominated = std::any_of(front.begin(), front.end(), [&](std::size_t f) {
            return dominates(points[f], points[i]);
        });
        if (!dominated)
            front.push_back(i);
    }
    std::sort(front.begin(), front.end());
    return front;
}

} // namespace bs::analysis
