#include "playbook/comparison.h"

#include "analysis/orderstatistics.h"
#include "sim/estimate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace bs::playbook {

using analysis::kNaN;

bool Interval::known() const
{
    return std::isfinite(value);
}

bool Interval::hasInterval() const
{
    return std::isfinite(value) && std::isfinite(low) && std::isfinite(high);
}

Interval Interval::scaled(double factor) const
{
    return {value * factor, low * factor, high * factor};
}

Delta compare(const Interval& baseline, const Interval& candidate, double practicalDelta)
{
    Delta d;
    d.baseline = baseline.value;
    d.candidate = candidate.value;
    if (!baseline.known() || !candidate.known())
        return d;
    d.delta = candidate.value - baseline.value;
    d.relative = baseline.value != 0.0 ? d.delta / std::fabs(baseline.value) : kNaN;
    d.intervalKnown = baseline.hasInterval() && candidate.hasInterval();
    if (d.intervalKnown) {
        d.ciLow =
            d.delta - std::hypot(candidate.value - candidate.low, baseline.high - baseline.value);
        d.ciHigh =
            d.delta + std::hypot(candidate.high - candidate.value, baseline.value - baseline.low);
    }
    const double size = std::isfinite(d.relative) ? std::fabs(d.relative) : 0.0;
    if (d.intervalKnown)
        d.significant = (d.ciLow > 0.0 || d.ciHigh < 0.0) && size >= practicalDelta;
    else
        d.significant = size >= 2.0 * practicalDelta;
    d.sign = d.significant ? (d.delta > 0.0 ? 1 : -1) : 0;
    return d;
}

namespace {

/// The dominant sign among significant slices (ties: the sign of the last significant slice).
int dominantSign(std::span<const Delta> deltas)
{
    int plus = 0, minus = 0, last = 0;
    for (const auto& d : deltas) {
        plus += d.sign > 0;
        minus += d.sign < 0;
        if (d.sign != 0)
            last = d.sign;
    }
    return plus > minus ? 1 : minus > plus ? -1 : last;
}

int comparable(std::span<const Delta> deltas)
{
    return int(
        std::ranges::count_if(deltas, [](const Delta& d) { return std::isfinite(d.delta); }));
}

} // namespace

Persistence persistenceAcrossBatches(std::span<const Delta> deltas,
                                     std::span<const std::string> labels)
{
    Persistence p;
    p.slices = comparable(deltas);
    p.testable = p.slices >= 2;
    p.direction = dominantSign(deltas);
    int run = 0, bestRun = 0, bestEnd = -1;
    for (std::size_t i = 0; i < deltas.size(); ++i) {
        p.significant += deltas[i].sign != 0 && deltas[i].sign == p.direction;
        run = deltas[i].sign != 0 && deltas[i].sign == p.direction ? run + 1 : 0;
        if (run > bestRun) {
            bestRun = run;
            bestEnd = int(i);
        }
    }
    p.persistent = p.testable && bestRun >= 2;
    if (bestEnd >= 0 && std::size_t(bestEnd) < labels.size()) {
        p.firstLabel = labels[std::size_t(bestEnd - bestRun + 1)];
        p.lastLabel = labels[std::size_t(bestEnd)];
    }
    if (!p.testable)
        p.text = "one slice: persistence not testable";
    else if (bestRun == 0)
        p.text = "no slice diverges";
    else
        p.text =
            (p.firstLabel == p.lastLabel ? p.firstLabel : p.firstLabel + " to " + p.lastLabel) +
            " (" + std::to_string(p.significant) + " of " + std::to_string(p.slices) +
            " batch sizes)";
    return p;
}

Persistence persistenceAcrossWindows(std::span<const Delta> deltas,
                                     std::span<const std::string> labels)
{
    Persistence p;
    p.slices = comparable(deltas);
    p.testable = p.slices >= 2;
    p.direction = dominantSign(deltas);
    for (std::size_t i = 0; i < deltas.size(); ++i) {
        if (deltas[i].sign == 0 || deltas[i].sign != p.direction)
            continue;
        ++p.significant;
        if (i < labels.size()) {
            if (p.firstLabel.empty())
                p.firstLabel = labels[i];
            p.lastLabel = labels[i];
        }
    }
    p.persistent = p.testable && p.significant >= 2 && 2 * p.significant >= p.slices;
    p.text = p.testable ? std::to_string(p.significant) + " of " + std::to_string(p.slices) +
                              " windows diverge"
                        : "one window: persistence not testable";
    return p;
}

namespace {

/// The reported percentiles of a point as (−ln(1 − p), value) knots, in increasing p.
std::vector<std::pair<double, double>> percentileKnots(const data::SweepPoint& point)
{
    const std::pair<double, const std::optional<double>*> reported[] = {
        {0.50, &point.latencyP50S},
        {0.90, &point.latencyP90S},
        {0.95, &point.latencyP95S},
        {0.99, &point.latencyP99S},
        {0.999, &point.latencyP999S}};
    std::vector<std::pair<double, double>> knots;
    for (const auto& [p, value] : reported) {
        if (value->has_value() && std::isfinite(**value))
            knots.emplace_back(-std::log1p(-p), **value);
    }
    return knots;
}

/// Linear interpolation (and extrapolation with the end segments) through the knots.
double interpolateKnots(const std::vector<std::pair<double, double>>& knots, double u)
{
    std::size_t i = 1;
    while (i + 1 < knots.size() && knots[i].first < u)
        ++i;
    const auto& [u0, x0] = knots[i - 1];
    const auto& [u1, x1] = knots[i];
    return x0 + (x1 - x0) * (u - u0) / (u1 - u0);
}

std::optional<double> reportedPercentile(const data::SweepPoint& point, double probability)
{
    if (std::fabs(probability - 0.5) < 1e-9)
        return point.latencyP50S;
    if (std::fabs(probability - 0.9) < 1e-9)
        return point.latencyP90S;
    if (std::fabs(probability - 0.95) < 1e-9)
        return point.latencyP95S;
    if (std::fabs(probability - 0.99) < 1e-9)
        return point.latencyP99S;
    if (std::fabs(probability - 0.999) < 1e-9)
        return point.latencyP999S;
    return std::nullopt;
}

} // namespace

Interval sweepPercentile(const data::SweepPoint& point, double probability)
{
    Interval out;
    const auto reported = reportedPercentile(point, probability);
    if (!reported || !std::isfinite(*reported))
        return out;
    out.value = *reported;
    const auto knots = percentileKnots(point);
    if (!point.sampleCount || *point.sampleCount < 2 || knots.size() < 2)
        return out;
    const std::uint64_t n = *point.sampleCount;
    const auto ranks = analysis::orderStatisticInterval(n, probability);
    if (!ranks.boundedBelow() || !ranks.boundedAbove())
        return out;
    // Rank r estimates the quantile at r/(n + 1).
    auto valueAtRank = [&](std::uint64_t rank) {
        const double p = double(rank) / double(n + 1);
        return interpolateKnots(knots, -std::log1p(-p));
    };
    out.low = std::min(out.value, valueAtRank(ranks.lowerRank));
    out.high = std::max(out.value, valueAtRank(ranks.upperRank));
    return out;
}

Interval sweepThroughput(const data::SweepPoint& point)
{
    Interval out;
    if (!point.throughputPerS)
        return out;
    out.value = *point.throughputPerS;
    if (point.sampleCount && *point.sampleCount > 0) {
        const double relative = 1.96 / std::sqrt(double(*point.sampleCount));
        out.low = out.value * (1.0 - relative);
        out.high = out.value * (1.0 + relative);
    }
    return out;
}

Interval sweepEnergyPerInference(const data::SweepPoint& point)
{
    Interval out;
    if (point.energyPerInferenceJ)
        out.value = *point.energyPerInferenceJ;
    else if (point.powerW && point.throughputPerS && *point.throughputPerS > 0.0)
        out.value = *point.powerW / *point.throughputPerS;
    if (!out.known())
        return out;
    if (point.sampleCount && *point.sampleCount > 0) {
        const double relative = 1.96 / std::sqrt(double(*point.sampleCount));
        out.low = out.value * (1.0 - relative);
        out.high = out.value * (1.0 + relative);
    }
    return out;
}

Interval fromEstimate(const sim::Estimate& estimate)
{
    return {estimate.value, estimate.ciLow, estimate.ciHigh};
}

Interval fromPercentile(const analysis::PercentileEstimate& estimate)
{
    return {estimate.value, estimate.ciLow, estimate.ciHigh};
}

Interval meanInterval(std::span<const double> values)
{
    const sim::Estimate mean = sim::estimateOf(values); // Student-t interval of the mean
    return {mean.value, mean.ciLow, mean.ciHigh};
}

std::vector<BatchPair> pairByBatch(const data::SweepTable& baseline,
                                   const data::SweepTable& candidate)
{
    std::map<int, BatchPair> pairs;
    for (const auto& point : baseline.points) {
        auto& pair = pairs[point.batchSize];
        pair.batch = point.batchSize;
        if (!pair.baseline)
            pair.baseline = &point;
    }
    for (const auto& point : candidate.points) {
        auto found = pairs.find(point.batchSize);
        if (found != pairs.end() && !found->second.candidate)
            found->second.candidate = &point;
    }
    std::vector<BatchPair> out;
    for (const auto& [batch, pair] : pairs) {
        if (pair.baseline && pair.candidate)
            out.push_back(pair);
    }
    return out;
}

} // namespace bs::playbook
