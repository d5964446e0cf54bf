#include "io/datasetsummary.h"

#include "io/datasetjson.h"
#include "io/llmrunsummary.h"

#include <algorithm>
#include <map>
#include <set>

namespace bs::io {

namespace {

using nlohmann::json;

json column(const char* name, const char* unit)
{
    return {{"name", name}, {"unit", unit}};
}

/// Exact percentile (nearest rank) of a copy of the values.
double percentileOf(std::vector<double> values, double p)
{
    if (values.empty())
        return 0.0;
    const auto rank = std::size_t(std::ceil(p / 100.0 * double(values.size())));
    const std::size_t index = std::min(values.size() - 1, rank == 0 ? 0 : rank - 1);
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(index), values.end());
    return values[index];
}

json sweepSummary(const data::SweepTable& t)
{
    json out;
    std::set<std::string> series;
    std::set<int> batches;
    for (const auto& p : t.points) {
        batches.insert(p.batchSize);
        series.insert(p.series);
    }
    out["counts"] = {{"points", t.points.size()}, {"series", series.size()}};
    out["load_axis"] = data::loadAxisName(t.loadAxis);
    json columns = json::array({column("batch_size", "count")});
    auto has = [&t](auto member) {
        return std::any_of(t.points.begin(), t.points.end(),
                           [&](const data::SweepPoint& p) { return (p.*member).has_value(); });
    };
    const std::tuple<const char*, const char*, std::optional<double> data::SweepPoint::*> fields[] =
        {{"concurrency", "count", &data::SweepPoint::concurrency},
         {"request_rate_per_s", "1/s", &data::SweepPoint::requestRatePerS},
         {"throughput_per_s", "1/s", &data::SweepPoint::throughputPerS},
         {"latency_mean_s", "s", &data::SweepPoint::latencyMeanS},
         {"latency_p50_s", "s", &data::SweepPoint::latencyP50S},
         {"latency_p90_s", "s", &data::SweepPoint::latencyP90S},
         {"latency_p95_s", "s", &data::SweepPoint::latencyP95S},
         {"latency_p99_s", "s", &data::SweepPoint::latencyP99S},
         {"latency_p999_s", "s", &data::SweepPoint::latencyP999S},
         {"power_w", "W", &data::SweepPoint::powerW},
         {"energy_per_inference_j", "J", &data::SweepPoint::energyPerInferenceJ},
         {"utilization", "fraction", &data::SweepPoint::utilization},
         {"memory_bytes", "B", &data::SweepPoint::memoryBytes}};
    for (const auto& [name, unit, member] : fields) {
        if (has(member))
            columns.push_back(column(name, unit));
    }
    out["columns"] = columns;
    json figures;
    figures["batch_sizes"] = json(std::vector<int>(batches.begin(), batches.end()));
    const data::SweepPoint* best = nullptr;
    for (const auto& p : t.points) {
        if (p.throughputPerS && (!best || *p.throughputPerS > *best->throughputPerS))
            best = &p;
    }
    if (best) {
        figures["max_throughput_per_s"] = *best->throughputPerS;
        figures["max_throughput_batch_size"] = best->batchSize;
        if (best->latencyP99S)
            figures["latency_p99_s_at_max_throughput"] = *best->latencyP99S;
    }
    if (t.points.size() == 1)
        figures["point"] = toJson(t.points.front());
    for (const char* key : {"scenario", "result_validity", "target_qps", "target_latency_s",
                            "energy_j", "power_window_s", "runs"}) {
        if (const auto it = t.metadata.find(key); it != t.metadata.end())
            figures[key] = it->second;
    }
    out["key_figures"] = figures;
    return out;
}

json requestSummary(const data::RequestTrace& t)
{
    json out;
    out["counts"] = {{"requests", t.size()}, {"streams", t.streamNames.size()}};
    json columns = json::array({column("arrival_s", "s")});
    const std::pair<const char*, bool> optional[] = {
        {"intended_s", !t.intendedS.empty()},     {"dispatch_s", !t.dispatchS.empty()},
        {"completion_s", !t.completionS.empty()}, {"batch_id", !t.batchId.empty()},
        {"batch_size", !t.batchSize.empty()},     {"stream", !t.streamIndex.empty()},
        {"input_tokens", !t.inputTokens.empty()}, {"output_tokens", !t.outputTokens.empty()}};
    for (const auto& [name, present] : optional) {
        if (present) {
            const std::string n(name);
            columns.push_back(
                column(name, n.size() > 2 && n.substr(n.size() - 2) == "_s" ? "s" : "count"));
        }
    }
    out["columns"] = columns;
    json figures;
    if (!t.arrivalS.empty()) {
        const auto [lo, hi] = std::minmax_element(t.arrivalS.begin(), t.arrivalS.end());
        out["time_span_s"] = *hi - *lo;
        if (*hi > *lo)
            figures["mean_rate_per_s"] = double(t.size() - 1) / (*hi - *lo);
    }
    if (t.originEpochS > 0.0)
        figures["origin_epoch_s"] = t.originEpochS;
    if (t.hasCompletion()) {
        std::vector<double> latency(t.size());
        for (std::size_t i = 0; i < t.size(); ++i)
            latency[i] = t.completionS[i] - t.arrivalS[i];
        figures["latency_p50_s"] = percentileOf(latency, 50.0);
        figures["latency_p99_s"] = percentileOf(latency, 99.0);
    }
    auto total = [](const std::vector<std::int32_t>& v) {
        std::int64_t sum = 0;
        for (auto x : v)
            sum += x;
        return sum;
    };
    if (!t.inputTokens.empty())
        figures["input_tokens_total"] = total(t.inputTokens);
    if (!t.outputTokens.empty())
        figures["output_tokens_total"] = total(t.outputTokens);
    out["key_figures"] = figures;
    return out;
}

json kernelSummary(const data::KernelTrace& t)
{
    json out;
    std::map<std::string, std::uint64_t> byCategory;
    std::set<int> devices;
    double first = 0.0, last = 0.0, kernelTimeS = 0.0;
    for (std::size_t i = 0; i < t.events.size(); ++i) {
        const auto& e = t.events[i];
        ++byCategory[data::eventCategoryName(e.category)];
        if (e.device >= 0)
            devices.insert(e.device);
        if (e.category == data::EventCategory::Kernel)
            kernelTimeS += e.durationS;
        first = i == 0 ? e.startS : std::min(first, e.startS);
        last = i == 0 ? e.startS + e.durationS : std::max(last, e.startS + e.durationS);
    }
    out["counts"] = {{"events", t.events.size()}, {"names", t.names.size()}};
    out["time_span_s"] = last - first;
    out["columns"] =
        json::array({column("start_s", "s"), column("duration_s", "s"), column("category", ""),
                     column("name", ""), column("device", ""), column("stream", ""),
                     column("correlation", ""), column("external_id", "")});
    json figures;
    figures["events_by_category"] = byCategory;
    figures["kernel_count"] = byCategory.count("kernel") ? byCategory["kernel"] : 0;
    figures["kernel_time_s"] = kernelTimeS;
    figures["gpu_busy_time_s"] = gpuBusyTimeS(t);
    figures["devices"] = json(std::vector<int>(devices.begin(), devices.end()));
    figures["origin_us"] = t.originUs;
    out["key_figures"] = figures;
    return out;
}

json powerSummary(const data::PowerSeries& s)
{
    json out;
    out["counts"] = {{"samples", s.size()},
                     {"channels", std::max<std::size_t>(1, s.channelNames.size())}};
    json columns = json::array({column("time_s", "s (Unix)"), column("power_w", "W")});
    const std::tuple<const char*, const char*, bool> optional[] = {
        {"sm_clock_mhz", "MHz", !s.smClockMHz.empty()},
        {"mem_clock_mhz", "MHz", !s.memClockMHz.empty()},
        {"temperature_c", "C", !s.temperatureC.empty()},
        {"utilization_pct", "%", !s.utilizationPct.empty()},
        {"channel", "", !s.channel.empty()}};
    for (const auto& [name, unit, present] : optional) {
        if (present)
            columns.push_back(column(name, unit));
    }
    out["columns"] = columns;
    json figures;
    if (!s.timeS.empty()) {
        const auto [lo, hi] = std::minmax_element(s.timeS.begin(), s.timeS.end());
        out["time_span_s"] = *hi - *lo;
        double sum = 0.0;
        for (double w : s.powerW)
            sum += w;
        const auto [pmin, pmax] = std::minmax_element(s.powerW.begin(), s.powerW.end());
        figures["mean_power_w"] = sum / double(s.size());
        figures["min_power_w"] = *pmin;
        figures["max_power_w"] = *pmax;
        figures["start_epoch_s"] = *lo;
        if (s.channel.empty() || s.channelNames.size() <= 1)
            figures["energy_j"] = sum / double(s.size()) * (*hi - *lo);
    }
    figures["reading_window_s"] = s.readingWindowS;
    out["key_figures"] = figures;
    return out;
}

} // namespace

double gpuBusyTimeS(const data::KernelTrace& trace)
{
    std::map<int, std::vector<std::pair<double, double>>> intervals;
    for (const auto& e : trace.events) {
        const bool busy = e.category == data::EventCategory::Kernel ||
                          e.category == data::EventCategory::Memcpy ||
                          e.category == data::EventCategory::Memset;
        if (busy && e.phase == data::EventPhase::Complete)
            intervals[e.device].emplace_back(e.startS, e.startS + e.durationS);
    }
    double total = 0.0;
    for (auto& [device, spans] : intervals) {
        std::sort(spans.begin(), spans.end());
        double start = spans.front().first, end = spans.front().second;
        for (const auto& [s, e] : spans) {
            if (s > end) {
                total += end - start;
                start = s;
                end = e;
            } else {
                end = std::max(end, e);
            }
        }
        total += end - start;
    }
    return total;
}

nlohmann::json summarizeDataset(const data::Dataset& dataset)
{
    json out;
    if (const auto t = dataset.sweep())
        out = sweepSummary(*t);
    else if (const auto r = dataset.requestTrace())
        out = requestSummary(*r);
    else if (const auto k = dataset.kernelTrace())
        out = kernelSummary(*k);
    else if (const auto p = dataset.powerSeries())
        out = powerSummary(*p);
    else if (const auto l = dataset.llmRuns())
        out = llmRunSetSummary(*l);
    out["name"] = dataset.name;
    out["kind"] = data::datasetKindName(dataset.kind);
    out["provenance"] = toJson(dataset.provenance);
    if (const auto t = dataset.sweep(); t && !t->metadata.empty())
        out["metadata"] = t->metadata;
    return out;
}

} // namespace bs::io
