#include "sim/estimate.h"

#include <cmath>

namespace bs::sim {

LimitVerdict judgeUpperLimit(const Estimate& e, double limit)
{
    if (std::isnan(e.value) || std::isnan(limit))
        return LimitVerdict::Unknown;
    const bool interval = std::isfinite(e.ciLow) && std::isfinite(e.ciHigh);
    const double low = interval ? e.ciLow : e.value;
    const double high = interval ? e.ciHigh : e.value;
    if (high <= limit)
        return LimitVerdict::Met;
    if (low > limit)
        return LimitVerdict::Missed;
    return LimitVerdict::Undecided;
}

double studentT975(int df)
{
    static constexpr double kTable[] = {
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
        2.2010,  2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
        2.0796,  2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
    if (df < 1)
        return kNaN;
    if (df <= 30)
        return kTable[df - 1];
    const double z = 1.959963984540054;
    const double v = df;
    const double z3 = z * z * z;
    const double z5 = z3 * z * z;
    return z + (z3 + z) / (4.0 * v) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v);
}

Estimate estimateOf(std::span<const double> values)
{
    Estimate out;
    if (values.empty())
        return out;
    double sum = 0.0;
    for (double v : values)
        sum += v;
    const double n = double(values.size());
    out.value = sum / n;
    if (std::isnan(out.value) || values.size() < 2)
        return out;
    double squares = 0.0;
    for (double v : values)
        squares += (v - out.value) * (v - out.value);
    const double half = studentT975(int(values.size()) - 1) * std::sqrt(squares / (n - 1.0) / n);
    out.ciLow = out.value - half;
    out.ciHigh = out.value + half;
    return out;
}

double jainIndex(std::span<const double> values)
{
    if (values.size() < 2)
        return kNaN;
    double sum = 0.0;
    double squares = 0.0;
    for (double v : values) {
        sum += v;
        squares += v * v;
    }
    if (squares == 0.0)
        return kNaN;
    return sum * sum / (double(values.size()) * squares);
}

} // namespace bs::sim
