#include "analysis/requestparts.h"

#include <algorithm>
#include <cmath>

namespace bs::analysis::detail {

namespace {

std::size_t windowOf(double t, double firstS, double windowS, std::size_t windows)
{
    const double k = std::floor((t - firstS) / windowS);
    return k <= 0.0 ? 0 : std::min(windows - 1, std::size_t(k));
}

/// Percentiles per window of `values` (one per request), grouping requests by arrival window
/// with a counting sort (two linear passes, one buffer) and selecting within each group.
std::vector<WindowPercentiles> windowPercentiles(const std::vector<double>& values,
                                                 const std::vector<std::uint32_t>& windowOfRequest,
                                                 std::size_t windows)
{
    std::vector<WindowPercentiles> out;
    for (double p : kReportedPercentiles) {
        WindowPercentiles w;
        w.probability = p;
        w.value.assign(windows, kNaN);
        w.ciLow.assign(windows, kNaN);
        w.ciHigh.assign(windows, kNaN);
        w.sufficient.assign(windows, 0);
        out.push_back(std::move(w));
    }
    if (values.empty())
        return {};
    std::vector<std::size_t> offset(windows + 1, 0);
    for (std::size_t w : windowOfRequest)
        ++offset[w + 1];
    for (std::size_t k = 0; k < windows; ++k)
        offset[k + 1] += offset[k];
    std::vector<double> grouped(values.size());
    std::vector<std::size_t> cursor(offset.begin(), offset.end() - 1);
    for (std::size_t i = 0; i < values.size(); ++i)
        grouped[cursor[windowOfRequest[i]]++] = values[i];
    for (std::size_t k = 0; k < windows; ++k) {
        const std::size_t count = offset[k + 1] - offset[k];
        if (count == 0)
            continue;
        const auto estimates =
            percentilesBySelection(std::span<double>(grouped.data() + offset[k], count));
        for (std::size_t j = 0; j < estimates.size(); ++j) {
            out[j].value[k] = estimates[j].value;
            out[j].ciLow[k] = estimates[j].ciLow;
            out[j].ciHigh[k] = estimates[j].ciHigh;
            out[j].sufficient[k] = estimates[j].sufficient ? 1 : 0;
        }
    }
    return out;
}

} // namespace

double niceWindow(double spanS, double target)
{
    if (!(spanS > 0.0))
        return 1.0;
    const double raw = spanS / target;
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0}) {
        if (m * decade >= raw)
            return m * decade;
    }
    return 10.0 * decade;
}

RequestTimeSeries timeSeries(const data::RequestTrace& trace, const Derived& derived, double firstS,
                             double windowS, std::size_t windows)
{
    RequestTimeSeries ts;
    ts.windowS = windowS;
    ts.startS.resize(windows);
    for (std::size_t k = 0; k < windows; ++k)
        ts.startS[k] = firstS + double(k) * windowS;
    ts.arrivals.assign(windows, 0);
    std::vector<std::uint32_t> windowOfRequest(trace.size());
    for (std::size_t i = 0; i < trace.size(); ++i) {
        windowOfRequest[i] = std::uint32_t(windowOf(trace.arrivalS[i], firstS, windowS, windows));
        ++ts.arrivals[windowOfRequest[i]];
    }
    if (trace.hasCompletion()) {
        ts.completions.assign(windows, 0);
        for (double c : trace.completionS)
            ++ts.completions[windowOf(c, firstS, windowS, windows)];
        ts.throughputPerS.resize(windows);
        for (std::size_t k = 0; k < windows; ++k)
            ts.throughputPerS[k] = double(ts.completions[k]) / windowS;
    }
    ts.latency = windowPercentiles(derived.latencyS, windowOfRequest, windows);
    ts.queueWait = windowPercentiles(derived.waitS, windowOfRequest, windows);
    return ts;
}

} // namespace bs::analysis::detail
