#include "io/llmrunsummary.h"

#include "io/jsonfields.h"

namespace bs::io {

namespace {

using nlohmann::json;

json metricJson(const data::LlmMetric& m)
{
    json out;
    putOptional(out, "mean_s", m.meanS);
    putOptional(out, "median_s", m.medianS);
    putOptional(out, "std_s", m.stdS);
    putOptional(out, "min_s", m.minS);
    putOptional(out, "max_s", m.maxS);
    for (const auto& [p, seconds] : m.percentileS)
        out["p" + p + "_s"] = seconds;
    out["definition"] = m.definition;
    return out;
}

json gpuJson(const data::LlmGpuTelemetry& g)
{
    json out = {{"gpu", g.gpu}};
    if (!g.name.empty())
        out["name"] = g.name;
    putOptional(out, "mean_power_w", g.meanPowerW);
    putOptional(out, "max_power_w", g.maxPowerW);
    putOptional(out, "energy_counter_rise_j", g.energyCounterRiseJ);
    putOptional(out, "mean_utilization_pct", g.meanUtilizationPct);
    putOptional(out, "mean_sm_clock_mhz", g.meanSmClockMhz);
    putOptional(out, "max_temperature_c", g.maxTemperatureC);
    return out;
}

json runJson(const data::LlmRun& run)
{
    json out;
    out["tool"] = run.tool;
    out["line"] = run.line;
    if (!run.backend.empty())
        out["backend"] = run.backend;
    if (!run.model.empty())
        out["model"] = run.model;
    putOptional(out, "request_rate_per_s", run.requestRatePerS);
    putOptional(out, "max_concurrency", run.maxConcurrency);
    putOptional(out, "duration_s", run.durationS);
    putOptional(out, "requests_per_s", run.requestsPerS);
    putOptional(out, "prompt_tokens_per_s", run.promptTokensPerS);
    putOptional(out, "output_tokens_per_s", run.outputTokensPerS);
    putOptional(out, "total_tokens_per_s", run.totalTokensPerS);
    putOptional(out, "goodput_per_s", run.goodputPerS);
    if (run.completed)
        out["completed"] = *run.completed;
    if (run.promptTokensTotal)
        out["prompt_tokens"] = *run.promptTokensTotal;
    if (run.outputTokensTotal)
        out["output_tokens"] = *run.outputTokensTotal;
    out["per_request_records"] = run.requests.size();
    if (!run.engineSeries.empty())
        out["engine_samples"] = run.engineSeries.size();
    for (const auto& g : run.gpus)
        out["gpus"].push_back(gpuJson(g));
    for (const auto& [name, metric] : run.metrics)
        out["metrics"][name] = metricJson(metric);
    out["knobs"] = run.knobs;
    return out;
}

} // namespace

nlohmann::json llmBatchingKnobs(const data::LlmRun& run)
{
    static const std::pair<const char*, const char*> knobs[] = {
        {"world_info.max_batch_size", "max_batch_size"},
        {"world_info.max_num_tokens", "max_num_tokens"},
        {"world_info.scheduling_policy", "scheduling_policy"},
        {"world_info.kv_cache_percentage", "kv_cache_fraction"},
        {"world_info.tp_size", "tp_size"}};
    json out = json::object();
    for (const auto& [knob, name] : knobs) {
        if (const auto it = run.knobs.find(knob); it != run.knobs.end())
            out[name] = it->second;
    }
    return out;
}

namespace {

/// The first run's load and rates: what tells one benchmark file from another at a glance.
json keyFigures(const data::LlmRunSet& set)
{
    json out = json::object();
    if (set.runs.empty())
        return out;
    const auto& run = set.runs.front();
    putOptional(out, "request_rate_per_s", run.requestRatePerS);
    putOptional(out, "duration_s", run.durationS);
    putOptional(out, "output_tokens_per_s", run.outputTokensPerS);
    if (!run.engineSeries.empty())
        out["engine_samples"] = run.engineSeries.size();
    if (!run.requests.empty())
        out["per_request_records"] = run.requests.size();
    if (!run.gpus.empty())
        out["gpus"] = run.gpus.size();
    out.update(llmBatchingKnobs(run));
    return out;
}

} // namespace

nlohmann::json llmRunSetSummary(const data::LlmRunSet& set)
{
    json out;
    std::size_t requests = 0;
    json runs = json::array();
    for (const auto& run : set.runs) {
        requests += run.requests.size();
        runs.push_back(runJson(run));
    }
    out["counts"] = {{"runs", set.runs.size()}, {"per_request_records", requests}};
    out["columns"] = json::array();
    out["key_figures"] = keyFigures(set);
    out["runs"] = runs;
    return out;
}

} // namespace bs::io
