#include "analysis/kernelparts.h"
#include "sim/estimate.h"

#include <algorithm>
#include <cmath>

namespace bs::analysis::detail {

namespace {

/// Dense numbering of the devices and (device, stream) pairs seen, with a one-entry cache
/// (consecutive activities are usually on the same stream).
struct Lanes
{
    std::vector<int> devices;
    std::vector<std::pair<int, int>> streams;
    std::size_t lastStream = 0;

    std::size_t device(int id) const
    {
        return std::size_t(std::find(devices.begin(), devices.end(), id) - devices.begin());
    }
    std::size_t stream(int device, int stream)
    {
        const std::pair<int, int> key{device, stream};
        if (lastStream < streams.size() && streams[lastStream] == key)
            return lastStream;
        lastStream = std::size_t(std::find(streams.begin(), streams.end(), key) - streams.begin());
        if (lastStream == streams.size())
            streams.push_back(key);
        return lastStream;
    }
};

int streamOf(const data::KernelEvent& e)
{
    return e.stream >= 0 ? e.stream : e.tid;
}

/// Per-device and per-stream use, core-level fairness, per-step imbalance.
void summariseLanes(const Lanes& lanes, const std::vector<double>& deviceBusy,
                    const std::vector<std::uint64_t>& deviceEvents,
                    const std::vector<StreamUse>& streamUse,
                    const std::vector<double>& stepDeviceBusy, std::vector<StepBreakdown>& steps,
                    KernelAnalysis& out)
{
    const std::size_t devices = lanes.devices.size();
    std::vector<std::size_t> order(devices);
    for (std::size_t d = 0; d < devices; ++d)
        order[d] = d;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return lanes.devices[a] < lanes.devices[b]; });
    for (std::size_t d : order) {
        DeviceUse use;
        use.device = lanes.devices[d];
        use.busyS = deviceBusy[d];
        use.events = deviceEvents[d];
        use.utilisation = out.deviceSpanS > 0.0 ? use.busyS / out.deviceSpanS : 0.0;
        std::vector<double> busy;
        for (const auto& s : streamUse) {
            if (s.device == use.device) {
                use.streams.push_back(s);
                busy.push_back(s.busyS);
            }
        }
        std::sort(use.streams.begin(), use.streams.end(),
                  [](const StreamUse& a, const StreamUse& b) { return a.stream < b.stream; });
        use.streamJain = sim::jainIndex(busy);
        out.devices.push_back(std::move(use));
    }
    if (devices < 2)
        return;
    std::vector<double> busy;
    for (const auto& d : out.devices)
        busy.push_back(d.busyS);
    out.deviceJainBusy = sim::jainIndex(busy);
    double sum = 0.0, most = 0.0;
    for (double b : busy)
        sum += b, most = std::max(most, b);
    out.deviceMaxToMeanBusy = sum > 0.0 ? most / (sum / double(devices)) : kNaN;
    for (std::size_t s = 0; s + 1 < steps.size(); ++s) {
        double stepSum = 0.0, stepMost = 0.0;
        for (std::size_t d = 0; d < devices; ++d) {
            stepSum += stepDeviceBusy[s * devices + d];
            stepMost = std::max(stepMost, stepDeviceBusy[s * devices + d]);
        }
        steps[s].imbalanceS = stepMost - stepSum / double(devices);
    }
}

} // namespace

void walkTimeline(KernelWork& w, std::vector<StepBreakdown>& steps, KernelAnalysis& out)
{
    const auto& events = w.trace.events;
    const std::size_t stepCount = w.steps.size();
    w.stepLastEndS.assign(stepCount, NAN);
    Lanes lanes;
    for (std::uint32_t i : w.device) {
        if (lanes.device(events[i].device) == lanes.devices.size())
            lanes.devices.push_back(events[i].device);
    }
    const std::size_t devices = lanes.devices.size();
    std::vector<double> deviceEnd(devices, -INFINITY), deviceBusy(devices, 0.0);
    std::vector<std::uint64_t> deviceEvents(devices, 0);
    std::vector<double> stepDeviceBusy((stepCount + 1) * devices, 0.0);
    std::vector<StreamUse> streamUse;
    double curEnd = -INFINITY;
    const double firstS = events[w.device.front()].startS;
    for (std::size_t k = 0; k < w.device.size(); ++k) {
        const auto& e = events[w.device[k]];
        const double start = e.startS, end = e.startS + e.durationS;
        const auto step = std::size_t(w.stepOf[k]);
        if (w.busy.empty() || start > curEnd) {
            if (!w.busy.empty() && !std::isnan(w.launchS[k]) && w.launchS[k] >= curEnd) {
                // The device went idle before this work was even launched: the host was late.
                const double from =
                    step < stepCount ? std::max(curEnd, w.steps[step].startS) : curEnd;
                if (start > from) {
                    steps[step].hostGapS += start - from;
                    ++steps[step].hostGaps;
                }
            }
            w.busy.emplace_back(start, end);
        } else {
            w.busy.back().second = std::max(w.busy.back().second, end);
        }
        steps[step].busyS += std::max(0.0, end - std::max(start, curEnd));
        curEnd = std::max(curEnd, end);
        const std::size_t d = lanes.device(e.device);
        const double added = std::max(0.0, end - std::max(start, deviceEnd[d]));
        deviceBusy[d] += added;
        stepDeviceBusy[step * devices + d] += added;
        deviceEnd[d] = std::max(deviceEnd[d], end);
        ++deviceEvents[d];
        const std::size_t s = lanes.stream(e.device, streamOf(e));
        if (s == streamUse.size())
            streamUse.push_back({e.device, streamOf(e), 0, 0.0, 0.0});
        ++streamUse[s].events;
        streamUse[s].busyS += e.durationS;
        if (step < stepCount)
            w.stepLastEndS[step] =
                std::isnan(w.stepLastEndS[step]) ? end : std::max(w.stepLastEndS[step], end);
    }
    out.deviceSpanS = curEnd - firstS;
    for (auto& s : streamUse)
        s.utilisation = out.deviceSpanS > 0.0 ? s.busyS / out.deviceSpanS : 0.0;
    summariseLanes(lanes, deviceBusy, deviceEvents, streamUse, stepDeviceBusy, steps, out);
    w.busyBefore.resize(w.busy.size());
    double sum = 0.0;
    for (std::size_t k = 0; k < w.busy.size(); ++k) {
        w.busyBefore[k] = sum;
        sum += w.busy[k].second - w.busy[k].first;
    }
}

double idleWithin(const KernelWork& w, double a, double b)
{
    if (!(b > a))
        return 0.0;
    auto busyUpTo = [&](double t) {
        const auto it = std::upper_bound(
            w.busy.begin(), w.busy.end(), t,
            [](double v, const std::pair<double, double>& iv) { return v < iv.first; });
        if (it == w.busy.begin())
            return 0.0;
        const std::size_t k = std::size_t(it - w.busy.begin()) - 1;
        return w.busyBefore[k] +
               std::clamp(t - w.busy[k].first, 0.0, w.busy[k].second - w.busy[k].first);
    };
    return (b - a) - (busyUpTo(b) - busyUpTo(a));
}

} // namespace bs::analysis::detail
