#include "analysis/idlepower.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

namespace bs::analysis {

namespace {

constexpr std::size_t kMinIdleReadings = 3;
/// A reading within this factor of the lowest clock is in the lowest clock state.
constexpr double kClockStateTolerance = 1.10;
/// The lowest clock state counts as idle only when it is this far under the busiest clock.
constexpr double kIdleClockBelowPeak = 0.5;
constexpr double kFallbackPercentile = 0.01;

std::vector<double> finiteSorted(std::vector<double> values)
{
    std::erase_if(values, [](double v) { return !std::isfinite(v); });
    std::sort(values.begin(), values.end());
    return values;
}

/// The median power of the readings `isIdle` picks, when there are enough of them.
template <typename Predicate>
std::optional<IdlePower> medianOfIdle(const PowerChannelSamples& s, IdleRule rule, Predicate isIdle)
{
    std::vector<double> idle;
    for (std::size_t i = 0; i < s.power.size(); ++i) {
        if (isIdle(i))
            idle.push_back(s.power[i]);
    }
    idle = finiteSorted(std::move(idle));
    if (idle.size() < kMinIdleReadings)
        return std::nullopt;
    IdlePower out;
    out.powerW = quantileOfSorted(idle, 0.5);
    out.readings = idle.size();
    out.rule = rule;
    return out;
}

std::optional<IdlePower> byUtilisation(const PowerChannelSamples& s)
{
    if (s.utilizationPct.size() != s.power.size())
        return std::nullopt;
    auto out = medianOfIdle(s, IdleRule::LowUtilisation, [&](std::size_t i) {
        return s.utilizationPct[i] <= kIdleUtilisationPct;
    });
    if (out) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "median of the %zu readings with GPU utilisation <= %.0f%%", out->readings,
                      kIdleUtilisationPct);
        out->description = text;
    }
    return out;
}

std::optional<IdlePower> byLowestClockState(const PowerChannelSamples& s)
{
    if (s.clock.size() != s.power.size())
        return std::nullopt;
    const std::vector<double> clocks = finiteSorted(s.clock);
    if (clocks.empty() || !(clocks.front() < kIdleClockBelowPeak * clocks.back()))
        return std::nullopt;
    const double idleClockMaxMHz = clocks.front() * kClockStateTolerance;
    auto out = medianOfIdle(s, IdleRule::LowestClockState,
                            [&](std::size_t i) { return s.clock[i] <= idleClockMaxMHz; });
    if (out) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "median of the %zu readings at the lowest SM clock state (<= %.0f MHz)",
                      out->readings, idleClockMaxMHz);
        out->description = text;
    }
    return out;
}

} // namespace

IdlePower idlePower(const PowerChannelSamples& samples)
{
    if (auto out = byUtilisation(samples))
        return *out;
    if (auto out = byLowestClockState(samples))
        return *out;
    IdlePower out;
    const std::vector<double> power = finiteSorted(samples.power);
    if (power.empty())
        return out;
    out.powerW = quantileOfSorted(power, kFallbackPercentile);
    out.readings = power.size();
    out.rule = IdleRule::LowPercentile;
    out.description = "1st percentile of all readings (no reading is marked idle by utilisation "
                      "or by the idle clock)";
    return out;
}

} // namespace bs::analysis
