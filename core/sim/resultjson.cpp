#include "sim/resultjson.h"

#include "io/atomicfile.h"
#include "sim/scenariojson.h"

#include <cmath>
#include <cstdio>

namespace bs::sim {

namespace {

using nlohmann::json;

json number(double v, double scale = 1.0)
{
    return std::isfinite(v) ? json(v * scale) : json(nullptr);
}

json estimate(const Estimate& e, double scale = 1.0)
{
    json ci = nullptr;
    if (std::isfinite(e.ciLow) && std::isfinite(e.ciHigh))
        ci = json::array({e.ciLow * scale, e.ciHigh * scale});
    return {{"value", number(e.value, scale)}, {"ci95", ci}};
}

template <typename T>
json scaled(const std::vector<T>& values, double scale = 1.0)
{
    json out = json::array();
    for (const auto& v : values)
        out.push_back(number(double(v), scale));
    return out;
}

json distribution(const DistributionSummary& d, const std::string& method)
{
    json edges = json::array();
    for (double e : d.histogramEdgesS)
        edges.push_back(e * 1000.0);
    return {{"count", d.count},
            {"mean", estimate(d.mean, 1000.0)},
            {"p50", estimate(d.p50, 1000.0)},
            {"p90", estimate(d.p90, 1000.0)},
            {"p95", estimate(d.p95, 1000.0)},
            {"p99", estimate(d.p99, 1000.0)},
            {"p999", estimate(d.p999, 1000.0)},
            {"min", number(d.min, 1000.0)},
            {"max", number(d.max, 1000.0)},
            {"percentile_method", method},
            {"histogram", {{"edges_ms", edges}, {"counts", d.histogramCounts}}}};
}

json stability(const Stability& s)
{
    json out = {{"state", s.stable ? "stable" : "unstable"},
                {"offered_rate_per_s", number(s.offeredRatePerS)},
                {"capacity_rate_per_s", number(s.capacityRatePerS)},
                {"rho", number(s.rho)}};
    if (!s.reason.empty())
        out["reason"] = s.reason;
    return out;
}

json coverage(const RunCoverage& c)
{
    const auto& t = c.timeScale;
    if (!(t.seconds > 0.0))
        return {{"time_scale", nullptr}, {"sufficient", true}};
    return {{"time_scale", {{"seconds", t.seconds}, {"unit", t.unit}, {"origin", t.origin}}},
            {"required_cycles", t.requiredCycles},
            {"cycles_per_replication", number(c.cyclesPerReplication)},
            {"requested_requests", c.requestedRequests},
            {"extended", c.extended},
            {"sufficient", c.sufficient},
            {"note", c.note}};
}

json timeSeries(const TimeSeries& t)
{
    return {{"replication", 0},
            {"window_s", t.windowS},
            {"start_s", scaled(t.startS)},
            {"requests", t.requests},
            {"batches", t.batches},
            {"mean_batch", scaled(t.meanBatch)},
            {"queue_depth_mean", scaled(t.queueDepthMean)},
            {"queue_depth_max", t.queueDepthMax},
            {"batch_cap_mean", scaled(t.batchCapMean)},
            {"latency_p50_ms", scaled(t.latencyP50S, 1000.0)},
            {"latency_p90_ms", scaled(t.latencyP90S, 1000.0)},
            {"latency_p99_ms", scaled(t.latencyP99S, 1000.0)}};
}

json streams(const Result& r)
{
    json list = json::array();
    for (const auto& s : r.streams)
        list.push_back({{"name", s.name},
                        {"weight", s.weight},
                        {"requests", s.requests},
                        {"throughput_per_s", estimate(s.throughputPerS)},
                        {"latency_mean_ms", estimate(s.latencyMeanS, 1000.0)},
                        {"latency_p50_ms", estimate(s.latencyP50S, 1000.0)},
                        {"latency_p99_ms", estimate(s.latencyP99S, 1000.0)}});
    return list;
}

json metrics(const Result& r)
{
    json out;
    out["throughput_per_s"] = estimate(r.throughputPerS);
    out["latency_ms"] = distribution(r.latency, r.latencyMethod);
    out["queue_wait_ms"] = distribution(r.queueWait, r.queueWaitMethod);
    json counts = json::array();
    for (std::size_t b = 1; b < r.batchSizeCounts.size(); ++b)
        counts.push_back(r.batchSizeCounts[b]);
    out["batch_size"] = {{"mean", estimate(r.meanBatchSize)}, {"counts_by_size", counts}};
    json servers = json::array();
    for (const auto& u : r.serverUtilisation)
        servers.push_back({{"utilisation", estimate(u)}});
    out["servers"] = servers;
    out["energy"] = r.energyPerRequestJ ? json{{"per_request_j", estimate(*r.energyPerRequestJ)},
                                               {"mean_power_w", estimate(*r.meanPowerW)}}
                                        : json(nullptr);
    out["thermal"] = r.peakTemperatureC
                         ? json{{"peak_temperature_c", estimate(*r.peakTemperatureC)}}
                         : json(nullptr);
    out["streams"] = streams(r);
    out["fairness"] =
        r.streams.empty()
            ? json(nullptr)
            : json{{"jain_p99_latency", estimate(r.jainP99)},
                   {"jain_throughput_per_weight", estimate(r.jainThroughputPerWeight)}};
    out["time_series"] = timeSeries(r.timeSeries);
    json reps = json::array();
    for (const auto& p : r.perReplication)
        reps.push_back({{"seed", p.seed},
                        {"throughput_per_s", number(p.throughputPerS)},
                        {"latency_mean_ms", number(p.latencyMeanS, 1000.0)},
                        {"latency_p99_ms", number(p.latencyP99S, 1000.0)},
                        {"mean_batch", number(p.meanBatch)}});
    out["per_replication"] = reps;
    out["records"] = {{"replication", 0}, {"count", r.records.size()}};
    return out;
}

} // namespace

nlohmann::json resultToJson(const Result& r)
{
    json out = {{"kind", "batchscope.sim.result"},
                {"schema", 1},
                {"scenario", scenarioToJson(r.scenario)},
                {"stability", stability(r.stability)},
                {"replications", r.scenario.replications},
                {"requests_per_replication", r.scenario.requests},
                {"warmup_requests", r.scenario.warmupRequests},
                {"coverage", coverage(r.coverage)},
                {"seeds", r.seeds},
                {"ci_method", "95% Student t over replications (mean of per-replication values)"}};
    if (r.stability.stable)
        out.update(metrics(r));
    out["warnings"] = r.warnings;
    return out;
}

std::string recordsToCsv(const Result& r)
{
    std::string out = "index,stream,server,batch_size,arrival_s,dispatch_s,completion_s,"
                      "latency_ms,queue_wait_ms\n";
    char line[256];
    for (const auto& rec : r.records) {
        const std::string stream = r.scenario.namedStreams ? r.scenario.streams[rec.stream].name
                                                           : std::to_string(rec.stream);
        std::snprintf(line, sizeof line, ",%u,%u,%.17g,%.17g,%.17g,%.17g,%.17g\n", rec.server,
                      rec.batchSize, rec.arrivalS, rec.dispatchS, rec.completionS,
                      (rec.completionS - rec.arrivalS) * 1000.0,
                      (rec.dispatchS - rec.arrivalS) * 1000.0);
        out += std::to_string(rec.index) + "," + stream + line;
    }
    return out;
}

Status writeRecordsCsv(const Result& result, const std::string& path)
{
    return io::writeFileAtomically(path, recordsToCsv(result), {false});
}

} // namespace bs::sim
