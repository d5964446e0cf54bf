#include "analysis/thermalevidence.h"

#include "analysis/idlepower.h"
#include "analysis/powerchannel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bs::analysis {

namespace {

constexpr double kDropBelow = 0.90;

double percentileOf(std::vector<double> values, double p)
{
    values.erase(
        std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
        values.end());
    if (values.empty())
        return kNaN;
    std::sort(values.begin(), values.end());
    return quantileOfSorted(values, p);
}

double pearson(const std::vector<double>& x, const std::vector<double>& y)
{
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    int n = 0;
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (!std::isfinite(x[i]) || !std::isfinite(y[i]))
            continue;
        sx += x[i], sy += y[i], sxx += x[i] * x[i], syy += y[i] * y[i], sxy += x[i] * y[i];
        ++n;
    }
    if (n < 3)
        return kNaN;
    const double cov = sxy - sx * sy / n, vx = sxx - sx * sx / n, vy = syy - sy * sy / n;
    return vx > 0.0 && vy > 0.0 ? cov / std::sqrt(vx * vy) : kNaN;
}

/// Per-window means of an optional column (NaN where a window has no reading).
std::vector<double> windowMeans(const std::vector<double>& t, const std::vector<double>& v,
                                double firstS, double windowS, std::size_t windows)
{
    std::vector<double> sum(windows, 0.0), out(windows, kNaN);
    std::vector<int> count(windows, 0);
    if (v.empty())
        return {};
    for (std::size_t i = 0; i < t.size(); ++i) {
        const auto k = std::min(windows - 1, std::size_t(std::max(0.0, (t[i] - firstS) / windowS)));
        sum[k] += v[i];
        ++count[k];
    }
    for (std::size_t k = 0; k < windows; ++k)
        out[k] = count[k] > 0 ? sum[k] / count[k] : kNaN;
    return out;
}

using Samples = PowerChannelSamples;

void findDrops(const Samples& s, double loadedFromW, ThermalEvidence& e)
{
    for (std::size_t i = 0; i < s.t.size(); ++i) {
        const bool dropped =
            s.power[i] >= loadedFromW && s.clock[i] < kDropBelow * e.sustainedClockMHz;
        if (!dropped)
            continue;
        std::size_t j = i;
        ClockDrop d;
        double powerSum = 0.0;
        d.minClockMHz = s.clock[i];
        while (j < s.t.size() && s.power[j] >= loadedFromW &&
               s.clock[j] < kDropBelow * e.sustainedClockMHz) {
            d.minClockMHz = std::min(d.minClockMHz, s.clock[j]);
            powerSum += s.power[j];
            if (!s.temperature.empty())
                d.maxTemperatureC = std::isnan(d.maxTemperatureC)
                                        ? s.temperature[j]
                                        : std::max(d.maxTemperatureC, s.temperature[j]);
            ++j;
        }
        d.startS = s.t[i];
        d.endS = s.t[j - 1];
        d.meanPowerW = powerSum / double(j - i);
        d.dropFraction = 1.0 - d.minClockMHz / e.sustainedClockMHz;
        e.drops.push_back(d);
        i = j - 1;
    }
}

std::string verdictOf(const ThermalEvidence& e)
{
    char buffer[400];
    if (std::isnan(e.sustainedClockMHz))
        return "the power log has no SM clock column: clock drops cannot be checked";
    if (e.drops.empty()) {
        std::snprintf(buffer, sizeof buffer,
                      "no clock drop under load (sustained SM clock %.0f MHz): no thermal or "
                      "power-throttling evidence in this log",
                      e.sustainedClockMHz);
        return buffer;
    }
    double worst = 0.0;
    for (const auto& d : e.drops)
        worst = std::max(worst, d.dropFraction);
    std::snprintf(buffer, sizeof buffer,
                  "%zu clock drop(s) under load, down to %.0f%% below the sustained %.0f MHz%s%s",
                  e.drops.size(), 100.0 * worst, e.sustainedClockMHz,
                  std::isfinite(e.temperatureRiseC) ? "; temperature rose while loaded" : "",
                  std::isfinite(e.clockThroughputCorrelation) && e.clockThroughputCorrelation > 0.5
                      ? "; throughput follows the clock: throttling limits throughput"
                      : "");
    return buffer;
}

} // namespace

Expected<ThermalEvidence> thermalEvidence(const data::PowerSeries& series,
                                          std::span<const double> completionS, double windowS,
                                          int channel)
{
    ThermalEvidence e;
    const Samples s = powerChannelSamples(series, channel);
    if (s.t.size() < 2 || !(s.t.back() > s.t.front())) {
        e.reason = "the power log needs at least 2 readings over some time";
        return e;
    }
    for (std::size_t i = 0; i < s.t.size(); ++i) {
        if (!std::isfinite(s.t[i]) || !std::isfinite(s.power[i]))
            return makeError(ErrorCode::Value,
                             "power reading " + std::to_string(i + 1) + " is not finite");
    }
    const double spanS = s.t.back() - s.t.front();
    e.windowS = windowS > 0.0 ? windowS : spanS / 100.0;
    const auto windows = std::size_t(std::floor(spanS / e.windowS)) + 1;
    if (windows > 100000)
        return makeError(ErrorCode::Usage,
                         "the window gives over 100000 windows over the power log");
    for (std::size_t k = 0; k < windows; ++k)
        e.startS.push_back(s.t.front() + double(k) * e.windowS);
    e.powerW = windowMeans(s.t, s.power, s.t.front(), e.windowS, windows);
    e.smClockMHz = windowMeans(s.t, s.clock, s.t.front(), e.windowS, windows);
    e.temperatureC = windowMeans(s.t, s.temperature, s.t.front(), e.windowS, windows);
    if (!completionS.empty()) {
        e.throughputPerS.assign(windows, 0.0);
        for (double c : completionS) {
            const double k = std::floor((c - s.t.front()) / e.windowS);
            if (k >= 0.0 && k < double(windows))
                e.throughputPerS[std::size_t(k)] += 1.0 / e.windowS;
        }
    }
    const IdlePower idle = idlePower(s);
    e.idlePowerW = idle.powerW;
    e.idlePowerRule = idle.description;
    const double peak = *std::max_element(s.power.begin(), s.power.end());
    const double loadedFrom = e.idlePowerW + 0.5 * (peak - e.idlePowerW);
    if (!s.clock.empty()) {
        std::vector<double> loaded;
        for (std::size_t i = 0; i < s.t.size(); ++i) {
            if (s.power[i] >= loadedFrom)
                loaded.push_back(s.clock[i]);
        }
        e.sustainedClockMHz = percentileOf(loaded, 0.95);
        if (std::isfinite(e.sustainedClockMHz))
            findDrops(s, loadedFrom, e);
    }
    if (!e.temperatureC.empty()) {
        std::vector<double> loadedTemps;
        for (std::size_t k = 0; k < windows; ++k) {
            if (e.powerW[k] >= loadedFrom && std::isfinite(e.temperatureC[k]))
                loadedTemps.push_back(e.temperatureC[k]);
        }
        if (loadedTemps.size() >= 2)
            e.temperatureRiseC = loadedTemps.back() - loadedTemps.front();
    }
    if (!e.throughputPerS.empty() && !e.smClockMHz.empty())
        e.clockThroughputCorrelation = pearson(e.smClockMHz, e.throughputPerS);
    e.verdict = verdictOf(e);
    e.method = "idle power = " + idle.description +
               "; loaded = power at least halfway from idle to peak; sustained clock = p95 of "
               "the SM clock while loaded; a drop = consecutive loaded readings below 90% of it; "
               "window means aligned on the power log's clock (Unix seconds)";
    e.available = true;
    return e;
}

} // namespace bs::analysis
