// scenarioToJson: the inverse of scenarioFromJson.
#include "sim/scenariojson.h"

#include <cmath>
#include <tuple>

namespace bs::sim {

namespace {

using nlohmann::json;

/// Milliseconds that read back (ms / 1000) to exactly `s`: s * 1000 usually does; otherwise a
/// neighbouring double does, because division by 1000 is correctly rounded and monotone.
double milliseconds(double s)
{
    double ms = s * 1000.0;
    if (ms / 1000.0 == s)
        return ms;
    double down = ms;
    double up = ms;
    for (int i = 0; i < 8; ++i) {
        down = std::nextafter(down, -INFINITY);
        up = std::nextafter(up, INFINITY);
        if (up / 1000.0 == s)
            return up;
        if (down / 1000.0 == s)
            return down;
    }
    return ms;
}

json profileToJson(const RateProfile& profile)
{
    if (profile.kind == RateProfile::Kind::Diurnal)
        return {{"kind", "diurnal"},
                {"period_s", profile.periodS},
                {"amplitude", profile.amplitude},
                {"peak_s", profile.peakS}};
    return {{"kind", "ramp"}, {"times_s", profile.timesS}, {"multipliers", profile.multipliers}};
}

json arrivalsToJson(const ArrivalSpec& spec)
{
    json out;
    switch (spec.kind) {
    case ArrivalSpec::Kind::Poisson:
        out = {{"kind", "poisson"}, {"rate_per_s", spec.ratePerS}};
        break;
    case ArrivalSpec::Kind::Deterministic:
        out = {{"kind", "deterministic"}, {"rate_per_s", spec.ratePerS}};
        break;
    case ArrivalSpec::Kind::Gamma:
        out = {{"kind", "gamma"}, {"rate_per_s", spec.ratePerS}, {"cv", spec.cv}};
        break;
    case ArrivalSpec::Kind::Mmpp2:
        out = {{"kind", "mmpp2"},
               {"rates_per_s", {spec.ratesPerS[0], spec.ratesPerS[1]}},
               {"mean_dwell_s", {spec.meanDwellS[0], spec.meanDwellS[1]}}};
        break;
    case ArrivalSpec::Kind::Replay:
        out = {{"kind", "replay"}, {"loop", spec.loop}};
        if (!spec.file.empty()) {
            out["file"] = spec.file;
            out["column"] = spec.column;
        } else {
            out["times_s"] = spec.timesS;
        }
        if (spec.ratePerS > 0.0)
            out["rate_per_s"] = spec.ratePerS;
        break;
    case ArrivalSpec::Kind::ClosedLoop:
        out = {{"kind", "closed_loop"},
               {"concurrency", spec.concurrency},
               {"think_ms", milliseconds(spec.thinkS)},
               {"client_overhead_ms", milliseconds(spec.clientOverheadS)},
               {"client_overhead_distribution",
                spec.clientOverheadExponential ? "exponential" : "fixed"}};
        if (spec.clientOverheadFixedS > 0.0)
            out["client_overhead_fixed_ms"] = milliseconds(spec.clientOverheadFixedS);
        break;
    }
    if (spec.profile.kind != RateProfile::Kind::None)
        out["profile"] = profileToJson(spec.profile);
    return out;
}

json policyToJson(const PolicySpec& policy)
{
    json out;
    switch (policy.kind) {
    case PolicySpec::Kind::Dynamic:
        out = {{"kind", "dynamic"},
               {"max_batch", policy.maxBatch},
               {"max_queue_delay_ms", milliseconds(policy.maxQueueDelayS)}};
        if (!policy.preferredBatchSizes.empty())
            out["preferred_batch_sizes"] = policy.preferredBatchSizes;
        break;
    case PolicySpec::Kind::Static:
        out = {{"kind", "static"}, {"batch", policy.maxBatch}};
        if (std::isfinite(policy.maxQueueDelayS))
            out["timeout_ms"] = milliseconds(policy.maxQueueDelayS);
        break;
    case PolicySpec::Kind::Adaptive:
        out = {{"kind", "adaptive"},
               {"max_batch", policy.maxBatch},
               {"max_queue_delay_ms", milliseconds(policy.maxQueueDelayS)},
               {"target_p99_ms", milliseconds(policy.targetP99S)},
               {"min_batch", policy.minBatch},
               {"initial_batch", policy.initialBatch},
               {"window_requests", policy.windowRequests},
               {"increase", policy.increase},
               {"decrease", policy.decrease}};
        break;
    }
    return out;
}

const char* placementName(ServerSpec::Placement placement)
{
    switch (placement) {
    case ServerSpec::Placement::Shared:
        return "shared";
    case ServerSpec::Placement::RoundRobin:
        return "round_robin";
    case ServerSpec::Placement::LeastLoaded:
        return "least_loaded";
    case ServerSpec::Placement::Random:
        return "random";
    }
    return "shared";
}

json distributionToJson(const Variability& variability)
{
    json out = {{"kind", variabilityKindName(variability.kind)}};
    if (variability.kind == VariabilityKind::Gamma ||
        variability.kind == VariabilityKind::Lognormal)
        out["cv"] = variability.cv;
    return out;
}

json serviceToJson(const ServiceSpec& service)
{
    json out;
    switch (service.kind) {
    case ServiceSpec::Kind::Linear:
        out = {{"kind", "linear"},
               {"base_ms", milliseconds(service.baseS)},
               {"per_item_ms", milliseconds(service.perItemS)}};
        break;
    case ServiceSpec::Kind::Table: {
        json latency = json::array();
        for (double s : service.tableLatencyS)
            latency.push_back(milliseconds(s));
        out = {{"kind", "table"}, {"batch", service.tableBatch}, {"latency_ms", latency}};
        for (const auto& column : service.tablePercentiles) {
            json values = json::array();
            for (double s : column.latencyS)
                values.push_back(milliseconds(s));
            out["p" + std::to_string(column.percentile) + "_ms"] = values;
        }
        if (!service.tablePercentiles.empty())
            return out; // the percentiles stand for the distribution
        break;
    }
    case ServiceSpec::Kind::Exponential:
        out = {{"kind", "exponential"}, {"mean_ms", milliseconds(service.meanS)}};
        break;
    case ServiceSpec::Kind::Accelerator:
        out = {{"kind", "accelerator"}, {"model", service.acceleratorModel}};
        break;
    }
    out["distribution"] = distributionToJson(service.distribution);
    return out;
}

} // namespace

nlohmann::json scenarioToJson(const Scenario& scenario)
{
    json out = json::object();
    if (!scenario.name.empty())
        out["name"] = scenario.name;
    out["seed"] = scenario.seed;
    out["requests"] = scenario.requests;
    out["warmup_requests"] = scenario.warmupRequests;
    out["replications"] = scenario.replications;
    out["run_length"] = {{"min_cycles", scenario.runLength.minCycles},
                         {"max_requests", scenario.runLength.maxRequests}};
    if (scenario.namedStreams) {
        json streams = json::array();
        for (const auto& stream : scenario.streams)
            streams.push_back({{"name", stream.name},
                               {"weight", stream.weight},
                               {"arrivals", arrivalsToJson(stream.arrivals)}});
        out["streams"] = streams;
    } else if (!scenario.streams.empty()) {
        out["arrivals"] = arrivalsToJson(scenario.streams.front().arrivals);
    }
    out["policy"] = policyToJson(scenario.policy);
    out["servers"] = {{"count", scenario.servers.count},
                      {"placement", placementName(scenario.servers.placement)}};
    if (scenario.servers.streams != 1)
        out["servers"]["streams"] = scenario.servers.streams;
    const ServerSpec& servers = scenario.servers;
    for (const auto& [key, baseS, perItemS] :
         {std::tuple{"pre_compute", servers.preComputeBaseS, servers.preComputePerItemS},
          std::tuple{"post_compute", servers.postComputeBaseS, servers.postComputePerItemS}}) {
        if (baseS > 0.0 || perItemS > 0.0)
            out["servers"][key] = {{"base_ms", baseS * 1e3}, {"per_item_us", perItemS * 1e6}};
    }
    out["service"] = serviceToJson(scenario.service);
    if (scenario.power)
        out["power"] = {{"idle_w", scenario.power->idleW}, {"busy_w", scenario.power->busyW}};
    out["output"] = {{"window_s", scenario.output.windowS}, {"records", scenario.output.records}};
    out["max_queue_requests"] = scenario.maxQueueRequests;
    return out;
}

} // namespace bs::sim
