#include "analysis/analysisjson.h"

#include <cmath>

namespace bs::analysis {

using nlohmann::json;

namespace {

json classTimes(const std::array<double, kKernelClassCount>& times)
{
    json out = json::object();
    for (std::size_t c = 0; c < kKernelClassCount; ++c)
        out[std::string(kernelClassName(KernelClass(c))) + "_ms"] = times[c] * 1e3;
    return out;
}

json stepJson(const StepBreakdown& s)
{
    return {{"name", s.name},
            {"start_s", number(s.startS)},
            {"end_s", number(s.endS)},
            {"wall_ms", s.wallS * 1e3},
            {"busy_ms", s.busyS * 1e3},
            {"idle_ms", s.idleS * 1e3},
            {"busy_fraction", number(s.busyFraction)},
            {"class_ms", classTimes(s.classS)},
            {"kernels", s.kernels},
            {"memory_ops", s.memoryOps},
            {"launches", s.launches},
            {"kernels_per_item", number(s.kernelsPerItem)},
            {"launches_per_item", number(s.launchesPerItem)},
            {"launch_overhead_mean_ms", number(s.launchOverheadMeanS * 1e3)},
            {"launch_overhead_max_ms", number(s.launchOverheadMaxS * 1e3)},
            {"host_gap_ms", s.hostGapS * 1e3},
            {"host_gaps", s.hostGaps},
            {"imbalance_ms", s.imbalanceS * 1e3},
            {"cpu_fallback_exposed_ms", s.cpuFallbackExposedS * 1e3},
            {"no_tensor_core_ms", s.noTensorCoreS * 1e3},
            {"user_marked_ms", s.userMarkedS * 1e3},
            {"fallback_ms", s.fallbackS * 1e3},
            {"fallback_share", number(s.fallbackShare)}};
}

json devicesJson(const std::vector<DeviceUse>& devices)
{
    json out = json::array();
    for (const auto& d : devices) {
        json streams = json::array();
        for (const auto& s : d.streams) {
            streams.push_back({{"stream", s.stream},
                               {"events", s.events},
                               {"busy_ms", s.busyS * 1e3},
                               {"utilisation", s.utilisation}});
        }
        out.push_back({{"device", d.device},
                       {"events", d.events},
                       {"busy_ms", d.busyS * 1e3},
                       {"utilisation", d.utilisation},
                       {"stream_jain", number(d.streamJain)},
                       {"streams", streams}});
    }
    return out;
}

} // namespace

json toJson(const KernelAnalysis& k)
{
    json steps = json::array();
    for (const auto& s : k.steps)
        steps.push_back(stepJson(s));
    json top = json::array();
    for (const auto& t : k.topKernels) {
        top.push_back({{"name", t.name},
                       {"class", kernelClassName(t.kernelClass)},
                       {"tensor_core", t.tensorCore},
                       {"no_tensor_core_variant", t.noTensorCoreVariant},
                       {"count", t.count},
                       {"total_ms", t.totalS * 1e3},
                       {"mean_ms", t.meanS * 1e3},
                       {"max_ms", t.maxS * 1e3},
                       {"share", t.share}});
    }
    json fallbacks = json::array();
    for (const auto& f : k.fallbacks) {
        fallbacks.push_back({{"kind", f.kind},
                             {"name", f.name},
                             {"count", f.count},
                             {"time_ms", f.timeS * 1e3},
                             {"exposed_ms", f.exposedS * 1e3},
                             {"share_of_step_time", f.share}});
    }
    return {{"kind", "kernel_trace"},
            {"name", k.name},
            {"device_activity", k.deviceActivity},
            {"note", k.note},
            {"events", k.events},
            {"kernels", k.kernels},
            {"memory_ops", k.memoryOps},
            {"launches_joined", k.launchesJoined},
            {"other_device_events", k.otherDeviceEvents},
            {"step_source", k.stepSource},
            {"steps", steps},
            {"total", stepJson(k.total)},
            {"device_span_ms", k.deviceSpanS * 1e3},
            {"devices", devicesJson(k.devices)},
            {"device_jain_busy", number(k.deviceJainBusy)},
            {"device_max_to_mean_busy", number(k.deviceMaxToMeanBusy)},
            {"launch_overhead", toJson(k.launchOverheadS, "ms", 1e3)},
            {"top_kernels", top},
            {"fallbacks", fallbacks},
            {"classification", k.classification},
            {"notes", k.notes}};
}

json toJson(const TailDrivers& d)
{
    json drivers = json::array();
    for (const auto& x : d.drivers) {
        drivers.push_back({{"name", x.name},
                           {"excess_ms", number(x.excessS * 1e3)},
                           {"share", number(x.share)},
                           {"ci95_ms", {number(x.ciLowS * 1e3), number(x.ciHighS * 1e3)}},
                           {"evidence", x.evidence}});
    }
    return {{"available", d.available},
            {"reason", d.reason},
            {"source", d.source},
            {"p50_ms", number(d.p50S * 1e3)},
            {"p99_ms", number(d.p99S * 1e3)},
            {"excess_ms", number(d.excessS * 1e3)},
            {"sufficient", d.sufficient},
            {"drivers", drivers},
            {"method", d.method},
            {"uncertainty", d.uncertainty},
            {"notes", d.notes}};
}

json toJson(const PowerJoin& p)
{
    json windows = json::array();
    for (const auto& w : p.windows) {
        windows.push_back({{"label", w.label},
                           {"start_s", w.startS},
                           {"end_s", w.endS},
                           {"energy_j", number(w.energyJ)},
                           {"band_j", {number(w.lowJ), number(w.highJ)}},
                           {"mean_power_w", number(w.meanPowerW)},
                           {"readings", w.readings},
                           {"items", w.items},
                           {"per_item_j", number(w.perItemJ)},
                           {"reference_j", number(w.referenceJ)},
                           {"covered", w.covered}});
    }
    return {{"windows", windows},
            {"total_j", p.totalJ},
            {"total_band_j", {p.totalLowJ, p.totalHighJ}},
            {"total_reference_j", number(p.totalReferenceJ)},
            {"reference_ratio", number(p.referenceRatio)},
            {"uncovered_windows", p.uncovered},
            {"sampling_interval_s", number(p.samplingIntervalS)},
            {"reading_window_s", p.readingWindowS},
            {"note", p.note},
            {"method", p.method}};
}

json toJson(const ThermalEvidence& t)
{
    json drops = json::array();
    for (const auto& d : t.drops) {
        drops.push_back({{"start_s", d.startS},
                         {"end_s", d.endS},
                         {"min_clock_mhz", number(d.minClockMHz)},
                         {"drop_fraction", number(d.dropFraction)},
                         {"mean_power_w", number(d.meanPowerW)},
                         {"max_temperature_c", number(d.maxTemperatureC)}});
    }
    return {{"available", t.available},
            {"reason", t.reason},
            {"window_s", t.windowS},
            {"start_s", t.startS},
            {"power_w", numbers(t.powerW)},
            {"sm_clock_mhz", numbers(t.smClockMHz)},
            {"temperature_c", numbers(t.temperatureC)},
            {"throughput_per_s", numbers(t.throughputPerS)},
            {"idle_power_w", number(t.idlePowerW)},
            {"idle_power_rule", t.idlePowerRule},
            {"sustained_clock_mhz", number(t.sustainedClockMHz)},
            {"clock_drops", drops},
            {"temperature_rise_c", number(t.temperatureRiseC)},
            {"clock_throughput_correlation", number(t.clockThroughputCorrelation)},
            {"verdict", t.verdict},
            {"method", t.method}};
}

json toJson(const ThermalModelCheck& c)
{
    return {{"available", c.available},
            {"reason", c.reason},
            {"model",
             {{"ambient_c", c.model.ambientC},
              {"resistance_c_per_w", c.model.resistanceCPerW},
              {"capacitance_j_per_c", c.model.capacitanceJPerC},
              {"throttle_c", c.model.throttleC}}},
            {"time_s", c.timeS},
            {"logged_c", c.loggedC},
            {"predicted_c", c.predictedC},
            {"mean_abs_error_c", number(c.meanAbsErrorC)},
            {"max_abs_error_c", number(c.maxAbsErrorC)},
            {"bias_c", number(c.biasC)},
            {"peak_power_w", number(c.peakPowerW)},
            {"model_steady_at_peak_c", number(c.modelSteadyAtPeakC)},
            {"logged_max_c", number(c.loggedMaxC)},
            {"tolerance_c", c.toleranceC},
            {"agrees", c.agrees},
            {"verdict", c.verdict},
            {"method", c.method}};
}

} // namespace bs::analysis
