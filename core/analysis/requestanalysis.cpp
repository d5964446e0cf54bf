#include "analysis/requestanalysis.h"

#include "analysis/batchmeans.h"
#include "analysis/radixsort.h"
#include "analysis/requestparts.h"

#include <algorithm>
#include <cmath>

namespace bs::analysis {

namespace {

constexpr double kMaxWindows = 100000.0;

std::string requestWord(std::size_t i)
{
    return "request " + std::to_string(i + 1);
}

std::string secondsText(double s)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.9g s", s);
    return buffer;
}

template <typename T>
Status checkLength(const std::vector<T>& column, const char* name, std::size_t n)
{
    if (column.empty() || column.size() == n)
        return {};
    std::string message = "column ";
    message += name;
    message += " has " + std::to_string(column.size()) + " values for " + std::to_string(n);
    message += " requests";
    return makeError(ErrorCode::Value, message);
}

Status checkFinite(const std::vector<double>& column, const char* name)
{
    for (std::size_t i = 0; i < column.size(); ++i) {
        if (!std::isfinite(column[i])) {
            std::string message = requestWord(i);
            message += ": ";
            message += name;
            message += " time is not a finite number";
            return makeError(ErrorCode::Value, message);
        }
    }
    return {};
}

/// Shapes and orderings a trace must have; each failure names the request and the reason.
Status validate(const data::RequestTrace& t)
{
    const std::size_t n = t.size();
    for (auto status :
         {checkLength(t.intendedS, "intended", n), checkLength(t.dispatchS, "dispatch", n),
          checkLength(t.completionS, "completion", n), checkLength(t.batchId, "batch_id", n),
          checkLength(t.batchSize, "batch_size", n), checkLength(t.streamIndex, "stream", n),
          checkLength(t.inputTokens, "input_tokens", n),
          checkLength(t.outputTokens, "output_tokens", n), checkFinite(t.arrivalS, "arrival"),
          checkFinite(t.intendedS, "intended"), checkFinite(t.dispatchS, "dispatch"),
          checkFinite(t.completionS, "completion")}) {
        if (!status)
            return status;
    }
    for (std::size_t i = 0; i < t.completionS.size(); ++i) {
        if (t.completionS[i] < t.arrivalS[i])
            return makeError(ErrorCode::Value,
                             requestWord(i) + ": completion (" + secondsText(t.completionS[i]) +
                                 ") is before arrival (" + secondsText(t.arrivalS[i]) + ")");
    }
    for (std::size_t i = 0; i < t.dispatchS.size(); ++i) {
        const bool late = !t.completionS.empty() && t.dispatchS[i] > t.completionS[i];
        if (t.dispatchS[i] < t.arrivalS[i] || late)
            return makeError(ErrorCode::Value, requestWord(i) + ": dispatch (" +
                                                   secondsText(t.dispatchS[i]) +
                                                   ") is outside arrival .. completion");
    }
    for (std::size_t i = 0; i < t.batchSize.size(); ++i) {
        if (t.batchSize[i] < 1 || t.batchSize[i] > (1 << 24))
            return makeError(ErrorCode::Value, requestWord(i) + ": batch size " +
                                                   std::to_string(t.batchSize[i]) +
                                                   " is not a whole number from 1 to 16777216");
    }
    for (std::size_t i = 0; i < t.streamIndex.size(); ++i) {
        if (t.streamIndex[i] >= t.streamNames.size())
            return makeError(ErrorCode::Value, requestWord(i) + ": stream index " +
                                                   std::to_string(t.streamIndex[i]) +
                                                   " has no stream name");
    }
    return {};
}

template <typename T>
Distribution tokenDistribution(const std::vector<T>& column, std::size_t cdfPoints)
{
    std::vector<double> values(column.begin(), column.end());
    std::vector<double> scratch;
    radixSort(values, scratch);
    return describeSorted(values, cdfPoints);
}

Distribution sortedDistribution(std::vector<double> values, std::size_t cdfPoints,
                                std::vector<double>* keepSorted = nullptr)
{
    std::vector<double> scratch;
    radixSort(values, scratch);
    Distribution d = describeSorted(values, cdfPoints);
    if (keepSorted)
        *keepSorted = std::move(values);
    return d;
}

/// `values` (one per request, in trace order) in arrival order.
std::vector<double> inArrivalOrder(const data::RequestTrace& t, const std::vector<double>& values)
{
    if (std::is_sorted(t.arrivalS.begin(), t.arrivalS.end()))
        return values;
    std::vector<std::size_t> order(values.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return t.arrivalS[a] < t.arrivalS[b]; });
    std::vector<double> out;
    out.reserve(values.size());
    for (std::size_t i : order)
        out.push_back(values[i]);
    return out;
}

/// Derived per-request columns and the three latency distributions.
detail::Derived deriveColumns(const data::RequestTrace& t, const RequestAnalysisOptions& options,
                              RequestAnalysis& out)
{
    detail::Derived d;
    const std::size_t n = t.size();
    if (t.hasCompletion()) {
        d.latencyS.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            d.latencyS[i] = t.completionS[i] - t.arrivalS[i];
        out.latency = sortedDistribution(d.latencyS, options.cdfPoints, &d.sortedLatencyS);
        out.completed = n;
        out.latencyDependence = widenForDependence(inArrivalOrder(t, d.latencyS), out.latency);
        if (out.latencyDependence.correlated)
            out.notes.push_back(dependenceNote(out.latencyDependence));
    }
    if (t.hasDispatch()) {
        d.waitS.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            d.waitS[i] = t.dispatchS[i] - t.arrivalS[i];
        out.queueWait = sortedDistribution(d.waitS, options.cdfPoints);
        if (t.hasCompletion()) {
            std::vector<double> service(n);
            for (std::size_t i = 0; i < n; ++i)
                service[i] = t.completionS[i] - t.dispatchS[i];
            out.service = sortedDistribution(std::move(service), options.cdfPoints);
        }
    }
    return d;
}

} // namespace

Expected<RequestAnalysis> analyzeRequests(const data::RequestTrace& trace,
                                          const RequestAnalysisOptions& options, Progress& progress,
                                          const CancelToken& cancel)
{
    if (auto status = validate(trace); !status)
        return status.error();
    if (trace.size() == 0)
        return makeError(ErrorCode::Value, "the request trace has no requests");
    if (options.windowS < 0.0 || !std::isfinite(options.windowS))
        return makeError(ErrorCode::Usage, "the window must be a positive number of seconds");
    if (options.claimedRatePerS &&
        !(*options.claimedRatePerS > 0.0 && std::isfinite(*options.claimedRatePerS)))
        return makeError(ErrorCode::Usage,
                         "the claimed rate must be a positive number of requests per second");
    RequestAnalysis out;
    out.name = trace.name;
    out.requests = trace.size();
    out.originEpochS = trace.originEpochS;
    const auto [minIt, maxIt] = std::minmax_element(trace.arrivalS.begin(), trace.arrivalS.end());
    out.firstArrivalS = *minIt;
    const double lastS = trace.hasCompletion()
                             ? *std::max_element(trace.completionS.begin(), trace.completionS.end())
                             : *maxIt;
    out.spanS = lastS - out.firstArrivalS;
    const double windowS =
        options.windowS > 0.0 ? options.windowS : detail::niceWindow(out.spanS, 100.0);
    const double windows = std::floor(out.spanS / windowS) + 1.0;
    if (windows > kMaxWindows)
        return makeError(ErrorCode::Usage, "a window of " + secondsText(windowS) + " gives " +
                                               std::to_string(std::uint64_t(windows)) +
                                               " windows over the " + secondsText(out.spanS) +
                                               " trace; the limit is 100000");

    progress.setPhase("requests: distributions", 5);
    const detail::Derived derived = deriveColumns(trace, options, out);
    out.inputTokens = tokenDistribution(trace.inputTokens, options.cdfPoints);
    out.outputTokens = tokenDistribution(trace.outputTokens, options.cdfPoints);
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "request analysis cancelled");
    progress.advanceTo(1);
    out.timeSeries =
        detail::timeSeries(trace, derived, out.firstArrivalS, windowS, std::size_t(windows));
    const detail::BatchGroups groups = detail::groupBatches(trace);
    out.batches = detail::batchStatistics(trace, groups, options.cdfPoints);
    progress.advanceTo(2);
    out.tail = detail::decomposeTail(trace, derived, groups, options);
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "request analysis cancelled");
    progress.advanceTo(3);
    out.streams = detail::streamStatistics(trace, derived, out.spanS);
    const auto* p99 = out.latency.at(0.99);
    out.fairness = detail::fairnessOf(out.streams, p99 ? p99->value : kNaN);
    out.coordinatedOmission = detail::coordinatedOmission(trace, derived, options);
    progress.advanceTo(4);
    if (options.arrivals) {
        auto arrivals = characteriseArrivals(trace.arrivalS, options.windowS, progress, cancel);
        if (!arrivals)
            return arrivals.error();
        out.arrivals = std::move(*arrivals);
    }
    if (!trace.hasCompletion())
        out.notes.push_back("the trace has arrival times only: latency, throughput, tail and "
                            "fairness need completion times");
    progress.finish();
    return out;
}

} // namespace bs::analysis
