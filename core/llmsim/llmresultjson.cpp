#include "llmsim/llmresultjson.h"

#include "io/atomicfile.h"
#include "llmsim/llmscenariojson.h"
#include "sim/estimate.h"

#include <cmath>
#include <cstdio>
#include <functional>

namespace bs::llmsim {

namespace {

using nlohmann::json;

json number(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

json estimateJson(const sim::Estimate& e)
{
    json ci = nullptr;
    if (std::isfinite(e.ciLow) && std::isfinite(e.ciHigh))
        ci = json::array({e.ciLow, e.ciHigh});
    return {{"value", number(e.value)}, {"ci95", ci}};
}

/// The estimate over the replications of one metric.
json estimateOver(const std::vector<ReplicationMetrics>& replications,
                  const std::function<double(const ReplicationMetrics&)>& metric,
                  double scale = 1.0)
{
    std::vector<double> values;
    for (const ReplicationMetrics& m : replications)
        values.push_back(metric(m) * scale);
    return estimateJson(sim::estimateOf(values));
}

json latencyJson(const std::vector<ReplicationMetrics>& replications,
                 Summary ReplicationMetrics::*field, const char* method)
{
    const auto pick = [field](double Summary::*value) {
        return [field, value](const ReplicationMetrics& m) { return (m.*field).*value; };
    };
    return {{"count", (replications.front().*field).count},
            {"mean", estimateOver(replications, pick(&Summary::meanS), 1e3)},
            {"p50", estimateOver(replications, pick(&Summary::p50S), 1e3)},
            {"p90", estimateOver(replications, pick(&Summary::p90S), 1e3)},
            {"p99", estimateOver(replications, pick(&Summary::p99S), 1e3)},
            {"max", estimateOver(replications, pick(&Summary::maxS), 1e3)},
            {"percentile_method", method}};
}

json replicationJson(const ReplicationMetrics& m)
{
    return {{"seed", m.seed},
            {"ttft_mean_ms", number(m.ttft.meanS * 1e3)},
            {"ttft_p99_ms", number(m.ttft.p99S * 1e3)},
            {"tpot_mean_ms", number(m.tpot.meanS * 1e3)},
            {"tpot_p99_ms", number(m.tpot.p99S * 1e3)},
            {"output_tokens_per_s", m.outputTokensPerS},
            {"goodput_per_s", m.goodputPerS},
            {"preemptions", m.preemptions},
            {"steps", m.steps},
            {"energy_per_output_token_j", number(m.energyPerOutputTokenJ)}};
}

/// Replication 0's steps averaged over equal time windows (at most kMaxSeriesWindows).
json seriesJson(const std::vector<StepRecord>& steps, std::int64_t numGpuBlocks)
{
    json out = {{"replication", 0}};
    if (steps.empty())
        return out;
    const double startS = steps.front().startS;
    const double endS = steps.back().startS + steps.back().durationS;
    const double windowS = std::max((endS - startS) / double(kMaxSeriesWindows), 1e-9);
    struct Window
    {
        double busyS = 0, tokens = 0, running = 0, waiting = 0, kv = 0, energyJ = 0;
        std::int64_t steps = 0, preempted = 0;
    };
    std::vector<Window> windows;
    for (const StepRecord& step : steps) {
        const auto index =
            std::min(std::size_t((step.startS - startS) / windowS), kMaxSeriesWindows - 1);
        if (windows.size() <= index)
            windows.resize(index + 1);
        Window& w = windows[index];
        w.busyS += step.durationS;
        w.energyJ += double(step.powerW) * step.durationS; // NaN without a power model
        w.tokens += step.scheduledTokens;
        w.running += step.running;
        w.waiting += step.waiting;
        w.kv += double(step.kvBlocksUsed);
        w.preempted += step.preempted;
        ++w.steps;
    }
    json start = json::array(), tokens = json::array(), running = json::array(),
         waiting = json::array(), kv = json::array(), preempted = json::array(),
         power = json::array();
    for (std::size_t i = 0; i < windows.size(); ++i) {
        const Window& w = windows[i];
        const double n = w.steps ? double(w.steps) : std::nan("");
        start.push_back(startS + windowS * double(i));
        tokens.push_back(number(w.tokens / n));
        running.push_back(number(w.running / n));
        waiting.push_back(number(w.waiting / n));
        kv.push_back(number(w.kv / n / double(numGpuBlocks)));
        preempted.push_back(w.preempted);
        power.push_back(number(w.energyJ / w.busyS));
    }
    out.update({{"window_s", windowS},
                {"start_s", start},
                {"batch_tokens_mean", tokens},
                {"running_mean", running},
                {"waiting_mean", waiting},
                {"kv_use_mean", kv},
                {"preemptions", preempted}});
    if (std::isfinite(double(steps.front().powerW)))
        out["power_busy_mean_w"] = std::move(power); // board power while steps run
    return out;
}

} // namespace

nlohmann::json llmResultToJson(const LlmResult& result)
{
    const auto& reps = result.replications;
    const auto metric = [&reps](double ReplicationMetrics::*field) {
        return estimateOver(reps, [field](const ReplicationMetrics& m) { return m.*field; });
    };
    const auto count = [&reps](auto ReplicationMetrics::*field) {
        return estimateOver(reps,
                            [field](const ReplicationMetrics& m) { return double(m.*field); });
    };
    json seeds = json::array(), perReplication = json::array();
    for (const ReplicationMetrics& m : reps) {
        seeds.push_back(m.seed);
        perReplication.push_back(replicationJson(m));
    }
    json out = {{"kind", "batchscope.llmsim.result"},
                {"schema", 1},
                {"scenario", llmScenarioToJson(result.scenario)},
                {"replications", reps.size()},
                {"requests_per_replication", result.requests.size()},
                {"seeds", seeds},
                {"ci_method", "student_t_95_over_replications"},
                {"ttft_ms", latencyJson(reps, &ReplicationMetrics::ttft, "exact_linear")},
                {"tpot_ms", latencyJson(reps, &ReplicationMetrics::tpot, "exact_linear")},
                {"itl_ms", latencyJson(reps, &ReplicationMetrics::itl, "log_sketch_0.4pct")},
                {"e2e_ms", latencyJson(reps, &ReplicationMetrics::e2e, "exact_linear")},
                {"queue_ms", latencyJson(reps, &ReplicationMetrics::queue, "exact_linear")},
                {"duration_s", metric(&ReplicationMetrics::durationS)},
                {"requests_per_s", metric(&ReplicationMetrics::requestsPerS)},
                {"output_tokens_per_s", metric(&ReplicationMetrics::outputTokensPerS)},
                {"total_tokens_per_s", metric(&ReplicationMetrics::totalTokensPerS)},
                {"goodput_per_s", metric(&ReplicationMetrics::goodputPerS)},
                {"good_fraction", metric(&ReplicationMetrics::goodFraction)},
                {"steps", count(&ReplicationMetrics::steps)},
                {"preemptions", count(&ReplicationMetrics::preemptions)},
                {"batch_tokens_mean", metric(&ReplicationMetrics::meanBatchTokens)},
                {"running_mean", metric(&ReplicationMetrics::meanRunning)},
                {"running_max", count(&ReplicationMetrics::maxRunning)},
                {"waiting_max", count(&ReplicationMetrics::maxWaiting)},
                {"kv_use_peak", metric(&ReplicationMetrics::peakKvUse)},
                {"in_system_mean", metric(&ReplicationMetrics::meanInSystem)},
                {"energy_j", metric(&ReplicationMetrics::energyJ)},
                {"power_mean_w", metric(&ReplicationMetrics::meanPowerW)},
                {"energy_per_output_token_j", metric(&ReplicationMetrics::energyPerOutputTokenJ)},
                {"temperature_peak_c", metric(&ReplicationMetrics::peakTemperatureC)},
                {"per_replication", perReplication},
                {"time_series", seriesJson(result.steps, result.scenario.engine.numGpuBlocks)}};
    if (!result.arrivalsFittedFrom.empty())
        out["arrivals_fitted_from"] = result.arrivalsFittedFrom;
    if (const auto& kv = result.kvCapacity)
        out["kv_capacity"] = {{"num_gpu_blocks", kv->numGpuBlocks},
                              {"kv_tokens", kv->kvTokens},
                              {"parameters", kv->parameters},
                              {"usable_bytes_per_gpu", kv->usableBytesPerGpu},
                              {"weight_bytes_per_gpu", kv->weightBytesPerGpu},
                              {"reserve_bytes_per_gpu", kv->reserveBytesPerGpu},
                              {"kv_bytes_per_gpu", kv->kvBytesPerGpu},
                              {"kv_bytes_per_token_per_gpu", kv->kvBytesPerTokenPerGpu},
                              {"method", "vllm_startup_sizing"}};
    return out;
}

Status writeLlmRequestsCsv(const LlmResult& result, const std::string& path)
{
    std::string csv = "index,arrival_s,prompt_tokens,output_tokens,first_scheduled_s,first_token_s,"
                      "finish_s,ttft_ms,tpot_ms,e2e_ms,queue_ms,max_itl_ms,preemptions\n";
    char row[400];
    for (std::size_t i = 0; i < result.requests.size(); ++i) {
        const RequestResult& r = result.requests[i];
        std::snprintf(row, sizeof row,
                      "%zu,%.9g,%d,%d,%.9g,%.9g,%.9g,%.6g,%.6g,%.6g,%.6g,%.6g,%d\n", i, r.arrivalS,
                      r.promptTokens, r.outputTokens, r.firstScheduledS, r.firstTokenS, r.finishS,
                      r.ttftS * 1e3, r.tpotS * 1e3, r.e2eS * 1e3, r.queueS * 1e3, r.maxItlS * 1e3,
                      r.preemptions);
        csv += row;
    }
    return io::writeFileAtomically(path, csv, {false});
}

} // namespace bs::llmsim
