#include "analysis/powerjoin.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace bs::analysis {

namespace {

struct Channel
{
    std::vector<double> timeS; ///< Centres of the readings, increasing.
    std::vector<double> powerW;
};

struct Integral
{
    double energyJ = 0.0;
    double lowJ = 0.0;
    double highJ = 0.0;
    std::uint64_t readings = 0;
    bool covered = false;
};

Expected<std::vector<Channel>> channelsOf(const data::PowerSeries& s, int wanted, double shiftS)
{
    std::vector<int> ids;
    for (int c : s.channel) {
        if (std::find(ids.begin(), ids.end(), c) == ids.end())
            ids.push_back(c);
    }
    if (ids.empty())
        ids.push_back(s.channel.empty() ? 0 : s.channel.front());
    if (wanted >= 0) {
        if (std::find(ids.begin(), ids.end(), wanted) == ids.end())
            return makeError(ErrorCode::Value,
                             "the power log has no channel " + std::to_string(wanted));
        ids = {wanted};
    }
    std::vector<Channel> out(ids.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        const int c = s.channel.empty() ? ids.front() : s.channel[i];
        const auto at = std::find(ids.begin(), ids.end(), c);
        if (at == ids.end())
            continue;
        auto& ch = out[std::size_t(at - ids.begin())];
        ch.timeS.push_back(s.timeS[i] - shiftS);
        ch.powerW.push_back(s.powerW[i]);
    }
    for (auto& ch : out) {
        std::vector<std::size_t> order(ch.timeS.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return ch.timeS[a] < ch.timeS[b]; });
        Channel sorted;
        for (std::size_t k : order) {
            sorted.timeS.push_back(ch.timeS[k]);
            sorted.powerW.push_back(ch.powerW[k]);
        }
        ch = std::move(sorted);
    }
    return out;
}

Integral integrate(const Channel& c, double a, double b)
{
    Integral out;
    const auto& t = c.timeS;
    const auto& p = c.powerW;
    if (t.size() < 2)
        return out;
    out.covered = a >= t.front() && b <= t.back();
    out.readings = std::uint64_t(std::upper_bound(t.begin(), t.end(), b) -
                                 std::lower_bound(t.begin(), t.end(), a));
    const double from = std::max(a, t.front()), to = std::min(b, t.back());
    if (!(to > from))
        return out;
    auto k = std::size_t(std::upper_bound(t.begin(), t.end(), from) - t.begin());
    k = k == 0 ? 0 : k - 1;
    for (; k + 1 < t.size() && t[k] < to; ++k) {
        const double s0 = std::max(from, t[k]), s1 = std::min(to, t[k + 1]);
        const double length = s1 - s0;
        if (!(length > 0.0))
            continue;
        const double span = t[k + 1] - t[k];
        const auto at = [&](double s) { return p[k] + (p[k + 1] - p[k]) * (s - t[k]) / span; };
        out.energyJ += 0.5 * (at(s0) + at(s1)) * length;
        out.lowJ += std::min(p[k], p[k + 1]) * length;
        out.highJ += std::max(p[k], p[k + 1]) * length;
    }
    return out;
}

double medianInterval(const Channel& c)
{
    std::vector<double> d;
    for (std::size_t i = 1; i < c.timeS.size(); ++i)
        d.push_back(c.timeS[i] - c.timeS[i - 1]);
    if (d.empty())
        return kNaN;
    std::nth_element(d.begin(), d.begin() + std::ptrdiff_t(d.size() / 2), d.end());
    return d[d.size() / 2];
}

Status validate(const data::PowerSeries& s, std::span<const EnergyWindow> windows)
{
    if (s.powerW.size() != s.timeS.size() || s.size() < 2)
        return makeError(ErrorCode::Value, "the power log needs at least 2 power readings");
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (!std::isfinite(s.timeS[i]) || !std::isfinite(s.powerW[i]))
            return makeError(ErrorCode::Value, "power reading " + std::to_string(i + 1) +
                                                   " has a non-finite time or power");
    }
    for (std::size_t i = 0; i < windows.size(); ++i) {
        const auto& w = windows[i];
        if (!std::isfinite(w.startS) || !std::isfinite(w.endS) || w.endS < w.startS)
            return makeError(ErrorCode::Value, "energy window " + std::to_string(i + 1) + " (" +
                                                   w.label + ") ends before it starts");
    }
    return {};
}

std::string noteFor(double readingWindowS, double intervalS)
{
    char buffer[512];
    std::snprintf(buffer, sizeof buffer,
                  "power readings average over %.3g s (nvidia-smi's power.draw is a ~1 s average "
                  "on recent GPUs; power.draw.instant is instantaneous) and arrive every %.3g s: "
                  "a window shorter than that rests on one or two readings, so use the band, "
                  "and transients between readings are not seen",
                  readingWindowS, intervalS);
    return buffer;
}

} // namespace

Expected<PowerJoin> joinPower(const data::PowerSeries& series,
                              std::span<const EnergyWindow> windows,
                              const PowerJoinOptions& options, Progress& progress,
                              const CancelToken& cancel)
{
    if (auto status = validate(series, windows); !status)
        return status.error();
    PowerJoin out;
    out.readingWindowS =
        options.readingWindowS >= 0.0 ? options.readingWindowS : series.readingWindowS;
    auto channels = channelsOf(series, options.channel, 0.5 * out.readingWindowS);
    if (!channels)
        return channels.error();
    out.samplingIntervalS = medianInterval(channels->front());
    out.note = noteFor(out.readingWindowS, out.samplingIntervalS);
    out.method = "readings placed at the centre of their averaging window, linearly interpolated "
                 "and integrated (trapezoid); band: the lower and higher neighbouring reading held "
                 "over each interval; channels summed";
    progress.setPhase("power: integrating windows", windows.size());
    double referenceSum = 0.0, matchedSum = 0.0;
    bool anyReference = false;
    for (std::size_t i = 0; i < windows.size(); ++i) {
        if (i % 4096 == 0) {
            if (cancel.isCancelled())
                return makeError(ErrorCode::Cancelled, "power join cancelled");
            progress.advanceTo(i);
        }
        const auto& w = windows[i];
        EnergyEstimate e{w.label, w.startS,           w.endS, 0.0, 0.0, 0.0, kNaN, 0, w.items,
                         kNaN,    w.referenceEnergyJ, true};
        for (const auto& ch : *channels) {
            const Integral part = integrate(ch, w.startS, w.endS);
            e.energyJ += part.energyJ, e.lowJ += part.lowJ, e.highJ += part.highJ;
            e.readings += part.readings;
            e.covered = e.covered && part.covered;
        }
        const double length = w.endS - w.startS;
        e.meanPowerW = length > 0.0 ? e.energyJ / length : kNaN;
        e.perItemJ = w.items > 0.0 ? e.energyJ / w.items : kNaN;
        if (e.covered) {
            out.totalJ += e.energyJ, out.totalLowJ += e.lowJ, out.totalHighJ += e.highJ;
            if (std::isfinite(w.referenceEnergyJ)) {
                anyReference = true;
                referenceSum += w.referenceEnergyJ;
                matchedSum += e.energyJ;
            }
        } else {
            ++out.uncovered;
        }
        out.windows.push_back(std::move(e));
    }
    if (anyReference) {
        out.totalReferenceJ = referenceSum;
        out.referenceRatio = referenceSum > 0.0 ? matchedSum / referenceSum : kNaN;
    }
    progress.finish();
    return out;
}

} // namespace bs::analysis
