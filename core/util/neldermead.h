#pragma once

#include "util/expected.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <numeric>

namespace bs {

/// Nelder-Mead (reflection 1, expansion 2, contraction 1/2, shrink 1/2) over N coordinates,
/// from a simplex of `step` along each axis around `start`, until the simplex's values agree to
/// 1e-10 relative or `budget` evaluations are spent. `f(point)` returns Expected<double>; its
/// first error ends the search. Used by the fits whose objective is a simulation (piecewise
/// smooth, no gradient).
template <std::size_t N, class Objective>
Expected<std::array<double, N>> nelderMead(const Objective& f, const std::array<double, N>& start,
                                           double step, int budget)
{
    using Point = std::array<double, N>;
    int evaluations = 0;
    const auto evaluate = [&](const Point& p) {
        ++evaluations;
        return f(p);
    };
    std::array<Point, N + 1> simplex;
    simplex.fill(start);
    std::array<double, N + 1> value{};
    for (std::size_t i = 0; i < N; ++i)
        simplex[i + 1][i] += step;
    for (std::size_t i = 0; i <= N; ++i) {
        auto v = evaluate(simplex[i]);
        if (!v)
            return v.error();
        value[i] = *v;
    }
    const auto mix = [](const Point& a, const Point& b, double t) {
        Point out;
        for (std::size_t k = 0; k < N; ++k)
            out[k] = a[k] + t * (b[k] - a[k]);
        return out;
    };
    while (evaluations < budget) {
        std::array<std::size_t, N + 1> order;
        std::iota(order.begin(), order.end(), std::size_t(0));
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return value[a] < value[b]; });
        const std::size_t best = order[0], worst = order[N], second = order[N - 1];
        if (value[worst] - value[best] <= 1e-10 * (std::abs(value[best]) + 1e-12))
            break;
        Point centroid{};
        for (std::size_t j = 0; j < N; ++j)
            for (std::size_t k = 0; k < N; ++k)
                centroid[k] += simplex[order[j]][k] / double(N);
        const Point reflected = mix(centroid, simplex[worst], -1.0);
        auto fr = evaluate(reflected);
        if (!fr)
            return fr.error();
        if (*fr < value[best]) {
            const Point expanded = mix(centroid, simplex[worst], -2.0);
            auto fe = evaluate(expanded);
            if (!fe)
                return fe.error();
            simplex[worst] = *fe < *fr ? expanded : reflected;
            value[worst] = std::min(*fe, *fr);
        } else if (*fr < value[second]) {
            simplex[worst] = reflected;
            value[worst] = *fr;
        } else {
            const Point contracted = mix(centroid, simplex[worst], 0.5);
            auto fc = evaluate(contracted);
            if (!fc)
                return fc.error();
            if (*fc < value[worst]) {
                simplex[worst] = contracted;
                value[worst] = *fc;
            } else {
                for (std::size_t j = 1; j <= N; ++j) {
                    const std::size_t i = order[j];
                    simplex[i] = mix(simplex[best], simplex[i], 0.5);
                    auto fs = evaluate(simplex[i]);
                    if (!fs)
                        return fs.error();
                    value[i] = *fs;
                }
            }
        }
    }
    const auto best = std::size_t(std::min_element(value.begin(), value.end()) - value.begin());
    return simplex[best];
}

} // namespace bs
