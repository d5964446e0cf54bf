#include "io/llmrunsummary.h"

namespace bs::io {

namespace {

using nlohmann::json;

void putIf(json& out, const char* key, const std::optional<double>& value)
{
    if (value)
        out[key] = *value;
}

json metricJson(const data::LlmMetric& m)
{
    json out;
    putIf(out, "mean_s", m.meanS);
    putIf(out, "median_s", m.medianS);
    putIf(out, "std_s", m.stdS);
    for (const auto& [p, seconds] : m.percentileS)
        out["p" + p + "_s"] = seconds;
    out["definition"] = m.definition;
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
    putIf(out, "request_rate_per_s", run.requestRatePerS);
    putIf(out, "max_concurrency", run.maxConcurrency);
    putIf(out, "duration_s", run.durationS);
    putIf(out, "requests_per_s", run.requestsPerS);
    putIf(out, "output_tokens_per_s", run.outputTokensPerS);
    putIf(out, "total_tokens_per_s", run.totalTokensPerS);
    putIf(out, "goodput_per_s", run.goodputPerS);
    if (run.completed)
        out["completed"] = *run.completed;
    out["per_request_records"] = run.requests.size();
    for (const auto& [name, metric] : run.metrics)
        out["metrics"][name] = metricJson(metric);
    out["knobs"] = run.knobs;
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
    out["runs"] = runs;
    return out;
}

} // namespace bs::io
