#include "io/genaiperftelemetry.h"

#include "io/jsonfields.h"

#include <cmath>
#include <functional>

namespace bs::io {

namespace {

using nlohmann::json;

/// One metric of one GPU: its unit and its statistics object.
struct GpuMetric
{
    std::string metric;
    std::string unit;
    const json* stats;
    std::string where; ///< Dotted key, for errors.
};

Error telemetryError(const std::string& path, const std::string& where, const std::string& why)
{
    return makeError(ErrorCode::Format, path, 0, 0, "\"" + where + "\" " + why);
}

/// `stats[key]` in the metric's unit times `scale`; empty when absent.
Expected<std::optional<double>> scaled(const GpuMetric& m, const char* key, double scale,
                                       const std::string& path)
{
    if (!m.stats->is_object() || !m.stats->contains(key) || m.stats->at(key).is_null())
        return std::optional<double>();
    auto v = statNumber(m.stats->at(key), m.where + "." + key, path);
    if (!v)
        return v.error();
    return std::optional<double>(*v * scale);
}

/// The factor from `unit` to the base unit of `metric`, empty for a metric not kept.
Expected<std::optional<double>> unitScale(const GpuMetric& m, const std::string& path)
{
    struct Known
    {
        std::initializer_list<const char*> metrics;
        std::initializer_list<std::pair<const char*, double>> units;
    };
    static const Known known[] = {
        {{"gpu_power_usage"}, {{"W", 1.0}, {"mW", 1e-3}, {"kW", 1e3}}},
        {{"energy_consumption"}, {{"MJ", 1e6}, {"kJ", 1e3}, {"J", 1.0}, {"mJ", 1e-3}}},
        {{"gpu_utilization"}, {{"%", 1.0}}},
        {{"gpu_clock_sm", "sm_clock_frequency"}, {{"MHz", 1.0}, {"GHz", 1e3}}},
        {{"gpu_temperature"}, {{"\u00b0C", 1.0}, {"C", 1.0}}}};
    for (const auto& k : known) {
        bool named = false;
        for (const char* metric : k.metrics)
            named = named || m.metric == metric;
        if (!named)
            continue;
        for (const auto& [unit, factor] : k.units) {
            if (m.unit == unit)
                return std::optional<double>(factor);
        }
        return telemetryError(path, m.where + ".unit",
                              "is \"" + m.unit + "\", a unit the reader does not know for " +
                                  m.metric);
    }
    return std::optional<double>();
}

Status apply(const GpuMetric& m, data::LlmGpuTelemetry& gpu, const std::string& path)
{
    auto scale = unitScale(m, path);
    if (!scale)
        return scale.error();
    if (!*scale)
        return {};
    auto mean = scaled(m, "avg", **scale, path);
    auto max = scaled(m, "max", **scale, path);
    auto min = scaled(m, "min", **scale, path);
    for (const auto* e : {&mean, &max, &min}) {
        if (!*e)
            return e->error();
    }
    if (m.metric == "gpu_power_usage") {
        gpu.meanPowerW = *mean;
        gpu.maxPowerW = *max;
    } else if (m.metric == "energy_consumption") {
        // A cumulative counter since the driver started: only its rise means energy.
        if (*min && *max)
            gpu.energyCounterRiseJ = std::max(0.0, **max - **min);
    } else if (m.metric == "gpu_utilization") {
        gpu.meanUtilizationPct = *mean;
    } else if (m.metric == "gpu_temperature") {
        gpu.maxTemperatureC = *max;
    } else {
        gpu.meanSmClockMhz = *mean;
    }
    return {};
}

using MetricVisitor = std::function<Status(const std::string& gpu, const GpuMetric&)>;

/// GenAI-Perf: telemetry_stats -> metric -> {"unit", "0": stats, "1": stats, ...}.
Status visitGenAiPerf(const json& stats, const std::string& path, const MetricVisitor& visit)
{
    for (const auto& [metric, perGpu] : stats.items()) {
        if (!perGpu.is_object())
            return telemetryError(path, "telemetry_stats." + metric, "is not an object");
        const std::string unit = textOr(perGpu, "unit");
        for (const auto& [gpu, values] : perGpu.items()) {
            if (gpu == "unit")
                continue;
            const std::string where = "telemetry_stats." + metric + "." + gpu;
            if (auto status = visit(gpu, {metric, unit, &values, where}); !status)
                return status;
        }
    }
    return {};
}

/// AIPerf: telemetry_data -> endpoints -> <endpoint> -> gpus -> <gpu> -> metrics -> metric.
Status visitAiPerf(const json& data, const std::string& path, const MetricVisitor& visit,
                   std::map<std::string, std::string>& names)
{
    const auto endpoints = data.find("endpoints");
    if (endpoints == data.end() || !endpoints->is_object())
        return {};
    for (const auto& [endpoint, entry] : endpoints->items()) {
        const auto gpus = entry.find("gpus");
        if (gpus == entry.end() || !gpus->is_object())
            continue;
        for (const auto& [gpu, record] : gpus->items()) {
            const std::string where = "telemetry_data.endpoints." + endpoint + ".gpus." + gpu;
            const auto metrics = record.find("metrics");
            if (!record.is_object() || metrics == record.end() || !metrics->is_object())
                return telemetryError(path, where, "has no \"metrics\" object");
            names[gpu] = textOr(record, "gpu_name");
            for (const auto& [metric, values] : metrics->items()) {
                const std::string unit =
                    values.is_object() ? textOr(values, "unit") : std::string();
                if (auto status = visit(gpu, {metric, unit, &values, where + ".metrics." + metric});
                    !status)
                    return status;
            }
        }
    }
    return {};
}

} // namespace

Expected<double> statNumber(const json& value, const std::string& where, const std::string& path)
{
    const double v = value.is_number() ? value.get<double>() : -1.0;
    if (!value.is_number() || !std::isfinite(v) || v < 0.0)
        return makeError(ErrorCode::Value, path, 0, 0,
                         "\"" + where + "\" holds " + value.dump() +
                             ", not a non-negative finite number");
    return v;
}

Expected<std::vector<data::LlmGpuTelemetry>> readGpuTelemetry(const json& document,
                                                              const std::string& path)
{
    std::map<std::string, data::LlmGpuTelemetry> byGpu;
    std::vector<std::string> order; ///< GPUs as the file lists them.
    const MetricVisitor visit = [&](const std::string& gpu, const GpuMetric& m) -> Status {
        auto [it, added] = byGpu.try_emplace(gpu);
        if (added) {
            it->second.gpu = gpu;
            order.push_back(gpu);
        }
        return apply(m, it->second, path);
    };
    std::map<std::string, std::string> names;
    Status status;
    if (const auto s = document.find("telemetry_stats"); s != document.end() && s->is_object())
        status = visitGenAiPerf(*s, path, visit);
    else if (const auto d = document.find("telemetry_data"); d != document.end() && d->is_object())
        status = visitAiPerf(*d, path, visit, names);
    if (!status)
        return status.error();
    std::vector<data::LlmGpuTelemetry> out;
    for (const auto& gpu : order) {
        out.push_back(std::move(byGpu[gpu]));
        out.back().name = names[gpu];
    }
    return out;
}

} // namespace bs::io
