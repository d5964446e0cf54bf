#include "charts/axisscale.h"

#include <algorithm>
#include <cmath>

namespace bs::widgets {

namespace {
/// The smallest of 1, 2, 5 × 10^k that is at least `rough`.
double niceStep(double rough)
{
    const double exponent = std::floor(std::log10(rough));
    const double power = std::pow(10.0, exponent);
    const double fraction = rough / power;
    double nice = 10.0;
    if (fraction <= 1.0)
        nice = 1.0;
    else if (fraction <= 2.0)
        nice = 2.0;
    else if (fraction <= 5.0)
        nice = 5.0;
    return nice * power;
}
} // namespace

AxisScale AxisScale::linear(double lo, double hi, int maxTicks, bool includeZero)
{
    if (!std::isfinite(lo) || !std::isfinite(hi))
        return {};
    if (lo > hi)
        std::swap(lo, hi);
    if (includeZero) {
        lo = std::min(lo, 0.0);
        hi = std::max(hi, 0.0);
    }
    if (hi - lo <= std::abs(hi) * 1e-12) {
        const double pad = lo == 0.0 ? 1.0 : std::abs(lo) * 0.1;
        // A flat zero on an axis anchored at zero (a count that stayed 0) widens upward only:
        // a negative count would be drawn otherwise.
        if (!(includeZero && lo == 0.0))
            lo -= pad;
        hi += pad;
    }
    maxTicks = std::max(maxTicks, 2);
    const double step = niceStep((hi - lo) / double(maxTicks - 1));
    AxisScale scale;
    scale.min = std::floor(lo / step) * step;
    scale.max = std::ceil(hi / step) * step;
    scale.tickInterval = step;
    scale.tickCount = int(std::lround((scale.max - scale.min) / step)) + 1;
    return scale;
}

AxisScale AxisScale::logarithmic(double lo, double hi, double base)
{
    if (!(lo > 0.0) || !(hi > 0.0) || !std::isfinite(lo) || !std::isfinite(hi))
        return {1.0, base, base, 2};
    if (lo > hi)
        std::swap(lo, hi);
    const double logBase = std::log(base);
    // A tiny tolerance keeps exact powers (e.g. 1024 on base 2) from being pushed outwards.
    const double first = std::floor(std::log(lo) / logBase + 1e-9);
    double last = std::ceil(std::log(hi) / logBase - 1e-9);
    if (last <= first)
        last = first + 1;
    AxisScale scale;
    scale.min = std::pow(base, first);
    scale.max = std::pow(base, last);
    scale.tickInterval = base;
    scale.tickCount = int(last - first) + 1;
    return scale;
}

double AxisScale::fittingLogBase(double base, double lo, double hi, double widthPx,
                                 double labelWidthPx)
{
    if (!(base > 1.0) || !(labelWidthPx > 0.0) || !(widthPx > 0.0))
        return base;
    double fitted = base;
    for (int doublings = 0; doublings < 3; ++doublings) {
        const AxisScale scale = logarithmic(lo, hi, fitted);
        if (double(scale.tickCount) * labelWidthPx <= widthPx)
            break;
        fitted *= fitted;
    }
    return fitted;
}

} // namespace bs::widgets
