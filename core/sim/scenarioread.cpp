// scenarioFromJson: the JSON form of a scenario, validated key by key (core/sim/README.md).
#include "accel/model.h"
#include "io/bytesource.h"
#include "io/jsonfields.h"
#include "sim/scenariojson.h"

#include <set>
#include <sstream>
#include <tuple>

namespace bs::sim {

namespace {

using io::JsonFields;
using io::NumberRule;
using nlohmann::json;

NumberRule wholeRange(double lo, double hi)
{
    return {lo, hi, false, true};
}

// Ranges that keep simulated time advancing. A billion requests at the lowest rate end near
// 1e12 s, where a double still resolves 0.1 ms; a dwell, period or variability that rounds to
// zero or infinity would otherwise leave a loop waiting for time that never passes.
constexpr double kMinRatePerS = 1e-3;
constexpr double kMaxRatePerS = 1e9;
constexpr double kMinDwellS = 1e-6;
constexpr double kMaxDwellS = 1e9;
/// Mean requests per MMPP dwell cycle: below it, hundreds of state switches per request.
constexpr double kMinRequestsPerCycle = 1e-2;
constexpr double kMinPeriodS = 1e-3;
constexpr double kMaxTimeS = 1e9;
constexpr double kMaxPreComputeMs = 1e6;
/// Closed-loop clients: each holds one request, so the queue never exceeds this.
constexpr double kMaxClients = 1e6;
/// Above it the trough rate is under 1% of the mean and single gaps span many periods.
constexpr double kMaxAmplitude = 0.99;
constexpr double kMinMultiplier = 1e-3;
constexpr double kMaxMultiplier = 1e6;
constexpr double kMinCv = 1e-3;
constexpr double kMaxArrivalCv = 100.0;
/// Beyond it almost every sampled service time is ~0 and the mean rests on a few giant ones.
constexpr double kMaxServiceCv = 10.0;
constexpr double kMaxServiceMs = 1e9;

std::string formatNumber(double v);

NumberRule rateRule()
{
    return {0.0, kMaxRatePerS, true, false};
}

/// Fails when value lies below min (after the rule's own checks passed).
void requireAtLeast(JsonFields& f, const char* key, double value, double min)
{
    if (f.ok() && value < min)
        f.fail(key, "must be at least " + formatNumber(min) + " (got " + formatNumber(value) + ")");
}

/// A coefficient of variation: 0 (no variability) or within [kMinCv, maxCv].
double readCv(JsonFields& f, double maxCv)
{
    const double cv = f.number("cv", NumberRule::range(0.0, maxCv));
    if (f.ok() && cv > 0.0 && cv < kMinCv)
        f.fail("cv",
               "must be 0 or at least " + formatNumber(kMinCv) + " (got " + formatNumber(cv) + ")");
    return cv;
}

double seconds(double milliseconds)
{
    return milliseconds / 1000.0;
}

std::string formatNumber(double v)
{
    std::ostringstream out;
    out << v;
    return out.str();
}

/// Fails unless `values` strictly increase (or merely never decrease when `allowEqual`).
void requireIncreasing(JsonFields& f, const char* key, const std::vector<double>& values,
                       bool allowEqual, const char* what)
{
    for (std::size_t i = 1; i < values.size(); ++i) {
        const bool bad = allowEqual ? values[i] < values[i - 1] : values[i] <= values[i - 1];
        if (bad) {
            f.fail(std::string(key) + "[" + std::to_string(i) + "]",
                   std::string(what) + " (" + formatNumber(values[i]) + " after " +
                       formatNumber(values[i - 1]) + ")");
            return;
        }
    }
}

Status readProfile(const json& object, const std::string& where, const std::string& path,
                   RateProfile& out)
{
    JsonFields f(object, where, path);
    const std::string kind = f.choice("kind", {"diurnal", "ramp"});
    if (kind == "diurnal") {
        out.kind = RateProfile::Kind::Diurnal;
        out.periodS = f.numberOr("period_s", 86400.0, NumberRule::range(kMinPeriodS, kMaxTimeS));
        out.amplitude = f.number("amplitude", NumberRule::nonNegative());
        out.peakS = f.numberOr("peak_s", 0.0, NumberRule::range(-kMaxTimeS, kMaxTimeS));
        if (f.ok() && out.amplitude >= 1.0)
            f.fail("amplitude", "must be less than 1 (got " + formatNumber(out.amplitude) +
                                    "); the rate would reach zero");
        if (f.ok() && out.amplitude > kMaxAmplitude)
            f.fail("amplitude", "must be at most " + formatNumber(kMaxAmplitude) + " (got " +
                                    formatNumber(out.amplitude) +
                                    "); the rate would almost stop at the trough");
    } else if (kind == "ramp") {
        out.kind = RateProfile::Kind::Ramp;
        out.timesS = f.numbers("times_s", NumberRule::range(-kMaxTimeS, kMaxTimeS));
        out.multipliers =
            f.numbers("multipliers", NumberRule::range(kMinMultiplier, kMaxMultiplier));
        requireIncreasing(f, "times_s", out.timesS, false, "times must increase");
        if (f.ok() && out.timesS.empty())
            f.fail("times_s", "needs at least one point");
        if (f.ok() && out.timesS.size() != out.multipliers.size())
            f.fail("multipliers", "must have as many entries as times_s (" +
                                      std::to_string(out.timesS.size()) + ", got " +
                                      std::to_string(out.multipliers.size()) + ")");
    }
    return f.finish();
}

void readMmpp(JsonFields& f, ArrivalSpec& out)
{
    const auto rates = f.numbers("rates_per_s", NumberRule::range(0.0, kMaxRatePerS));
    const auto dwell = f.numbers("mean_dwell_s", {0.0, kMaxDwellS, true, false});
    if (!f.ok())
        return;
    if (rates.size() != 2)
        return f.fail("rates_per_s",
                      "must list 2 rates [low, high] (got " + std::to_string(rates.size()) + ")");
    if (dwell.size() != 2)
        return f.fail("mean_dwell_s", "must list 2 mean dwell times [low, high] (got " +
                                          std::to_string(dwell.size()) + ")");
    if (rates[0] == 0.0 && rates[1] == 0.0)
        return f.fail("rates_per_s", "at least one state needs a positive rate");
    for (std::size_t i = 0; i < 2; ++i) {
        if (dwell[i] < kMinDwellS)
            return f.fail("mean_dwell_s[" + std::to_string(i) + "]",
                          "must be at least " + formatNumber(kMinDwellS) + " (got " +
                              formatNumber(dwell[i]) + ")");
        if (rates[i] > 0.0 && rates[i] < kMinRatePerS)
            return f.fail("rates_per_s[" + std::to_string(i) + "]",
                          "must be 0 or at least " + formatNumber(kMinRatePerS) + " (got " +
                              formatNumber(rates[i]) + ")");
    }
    if (rates[0] * dwell[0] + rates[1] * dwell[1] < kMinRequestsPerCycle)
        return f.fail("mean_dwell_s",
                      "too short for the rates: fewer than " + formatNumber(kMinRequestsPerCycle) +
                          " requests arrive per dwell cycle (rates_per_s x mean_dwell_s)");
    out.ratesPerS = {rates[0], rates[1]};
    out.meanDwellS = {dwell[0], dwell[1]};
}

void readReplay(JsonFields& f, ArrivalSpec& out)
{
    const bool hasFile = f.has("file");
    const bool hasTimes = f.has("times_s");
    if (hasFile && hasTimes)
        return f.fail("times_s", "give either file or times_s, not both");
    if (!hasFile && !hasTimes)
        return f.fail("file", "missing; expected a request trace file (or inline times_s)",
                      ErrorCode::Format);
    if (hasFile) {
        out.file = f.string("file");
        out.column = f.choice("column", {"arrival", "intended"}, "arrival");
        if (f.ok() && out.file.empty())
            f.fail("file", "must not be empty");
    } else {
        out.timesS = f.numbers("times_s", NumberRule::nonNegative());
        requireIncreasing(f, "times_s", out.timesS, true, "timestamps must not decrease");
        if (f.ok() && out.timesS.size() < 2)
            f.fail("times_s",
                   "needs at least 2 timestamps (got " + std::to_string(out.timesS.size()) + ")");
    }
    out.ratePerS = f.optionalNumber("rate_per_s", rateRule()).value_or(0.0);
    if (out.ratePerS > 0.0)
        requireAtLeast(f, "rate_per_s", out.ratePerS, kMinRatePerS);
    out.loop = f.boolean("loop", true);
}

/// perf_analyzer's concurrency mode: N clients, each with one request outstanding.
void readClosedLoop(JsonFields& f, ArrivalSpec& out)
{
    out.kind = ArrivalSpec::Kind::ClosedLoop;
    out.concurrency = int(f.integer("concurrency", wholeRange(1, kMaxClients)));
    out.thinkS = seconds(f.numberOr("think_ms", 0.0, NumberRule::range(0.0, kMaxTimeS * 1e3)));
    out.clientOverheadS =
        seconds(f.numberOr("client_overhead_ms", 0.0, NumberRule::range(0.0, kMaxTimeS * 1e3)));
    out.clientOverheadExponential = f.choice("client_overhead_distribution",
                                             {"fixed", "exponential"}, "fixed") == "exponential";
    out.clientOverheadFixedS = seconds(
        f.numberOr("client_overhead_fixed_ms", 0.0, NumberRule::range(0.0, kMaxTimeS * 1e3)));
    if (f.ok() && f.has("profile"))
        f.fail("profile", "a closed loop has no rate to modulate: its clients send when answered");
}

Status readArrivals(const json& object, const std::string& where, const std::string& path,
                    ArrivalSpec& out)
{
    JsonFields f(object, where, path);
    const std::string kind =
        f.choice("kind", {"poisson", "deterministic", "gamma", "mmpp2", "replay", "closed_loop"});
    if (kind == "poisson" || kind == "deterministic" || kind == "gamma") {
        out.kind = kind == "poisson"         ? ArrivalSpec::Kind::Poisson
                   : kind == "deterministic" ? ArrivalSpec::Kind::Deterministic
                                             : ArrivalSpec::Kind::Gamma;
        out.ratePerS = f.number("rate_per_s", rateRule());
        requireAtLeast(f, "rate_per_s", out.ratePerS, kMinRatePerS);
        if (kind == "gamma")
            out.cv = readCv(f, kMaxArrivalCv);
    } else if (kind == "mmpp2") {
        out.kind = ArrivalSpec::Kind::Mmpp2;
        readMmpp(f, out);
    } else if (kind == "replay") {
        out.kind = ArrivalSpec::Kind::Replay;
        readReplay(f, out);
    } else if (kind == "closed_loop") {
        readClosedLoop(f, out);
    }
    if (const auto* profile = f.object("profile"))
        f.adopt(readProfile(*profile, f.child("profile"), path, out.profile));
    return f.finish();
}

Status readStreams(JsonFields& f, const json& list, const std::string& path,
                   std::vector<StreamSpec>& out)
{
    if (list.empty())
        return makeError(ErrorCode::Value, path, 0, 0,
                         f.child("streams") + ": needs at least 1 stream");
    if (list.size() > std::size_t(kMaxStreams))
        return makeError(ErrorCode::Limit, path, 0, 0,
                         f.child("streams") + ": at most " + std::to_string(kMaxStreams) +
                             " streams (got " + std::to_string(list.size()) + ")");
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string where = f.child("streams") + "[" + std::to_string(i) + "]";
        JsonFields s(list[i], where, path);
        StreamSpec stream;
        stream.name = s.string("name");
        stream.weight = s.numberOr("weight", 1.0, NumberRule::positive());
        if (s.ok() && !names.insert(stream.name).second)
            s.fail("name", "'" + stream.name + "' is used by an earlier stream");
        if (const auto* arrivals = s.object("arrivals", true))
            s.adopt(readArrivals(*arrivals, s.child("arrivals"), path, stream.arrivals));
        if (auto status = s.finish(); !status)
            return status;
        out.push_back(std::move(stream));
    }
    return {};
}

void readDynamicOrAdaptive(JsonFields& f, PolicySpec& out, bool adaptive)
{
    out.maxBatch = int(f.integer("max_batch", wholeRange(1, kMaxBatch)));
    out.maxQueueDelayS = seconds(f.numberOr("max_queue_delay_ms", 0.0, NumberRule::nonNegative()));
    if (!adaptive) {
        const auto preferred = f.numbers("preferred_batch_sizes", wholeRange(1, kMaxBatch), false);
        requireIncreasing(f, "preferred_batch_sizes", preferred, false, "sizes must increase");
        for (std::size_t i = 0; f.ok() && i < preferred.size(); ++i) {
            if (preferred[i] > out.maxBatch)
                f.fail("preferred_batch_sizes[" + std::to_string(i) + "]",
                       "must be at most max_batch " + std::to_string(out.maxBatch) + " (got " +
                           formatNumber(preferred[i]) + ")");
            out.preferredBatchSizes.push_back(int(preferred[i]));
        }
        return;
    }
    out.targetP99S = seconds(f.number("target_p99_ms", NumberRule::positive()));
    out.minBatch = int(f.integerOr("min_batch", 1, wholeRange(1, kMaxBatch)));
    out.initialBatch = int(f.integerOr("initial_batch", out.minBatch, wholeRange(1, kMaxBatch)));
    out.windowRequests = int(f.integerOr("window_requests", 1000, wholeRange(10, 10000000)));
    out.increase = int(f.integerOr("increase", 1, wholeRange(1, kMaxBatch)));
    out.decrease = f.numberOr("decrease", 0.9, {0.0, 1.0, true, false});
    if (f.ok() && out.decrease >= 1.0)
        f.fail("decrease", "must be less than 1 (got " + formatNumber(out.decrease) + ")");
    if (f.ok() && out.minBatch > out.maxBatch)
        f.fail("min_batch", "must be at most max_batch " + std::to_string(out.maxBatch) + " (got " +
                                std::to_string(out.minBatch) + ")");
    if (f.ok() && (out.initialBatch < out.minBatch || out.initialBatch > out.maxBatch))
        f.fail("initial_batch", "must lie between min_batch " + std::to_string(out.minBatch) +
                                    " and max_batch " + std::to_string(out.maxBatch) + " (got " +
                                    std::to_string(out.initialBatch) + ")");
}

Status readPolicy(const json& object, const std::string& where, const std::string& path,
                  PolicySpec& out)
{
    JsonFields f(object, where, path);
    const std::string kind = f.choice("kind", {"dynamic", "static", "adaptive"});
    if (kind == "dynamic") {
        out.kind = PolicySpec::Kind::Dynamic;
        readDynamicOrAdaptive(f, out, false);
    } else if (kind == "adaptive") {
        out.kind = PolicySpec::Kind::Adaptive;
        readDynamicOrAdaptive(f, out, true);
    } else if (kind == "static") {
        out.kind = PolicySpec::Kind::Static;
        out.maxBatch = int(f.integer("batch", wholeRange(1, kMaxBatch)));
        const auto timeout = f.optionalNumber("timeout_ms", NumberRule::nonNegative());
        out.maxQueueDelayS = timeout ? seconds(*timeout) : PolicySpec::kNoTimeout;
    }
    return f.finish();
}

Status readServers(const json& object, const std::string& where, const std::string& path,
                   ServerSpec& out)
{
    JsonFields f(object, where, path);
    out.count = int(f.integerOr("count", 1, wholeRange(1, kMaxServers)));
    const std::string placement =
        f.choice("placement", {"shared", "round_robin", "least_loaded", "random"}, "shared");
    out.placement = placement == "round_robin"    ? ServerSpec::Placement::RoundRobin
                    : placement == "least_loaded" ? ServerSpec::Placement::LeastLoaded
                    : placement == "random"       ? ServerSpec::Placement::Random
                                                  : ServerSpec::Placement::Shared;
    out.streams = int(f.integerOr("streams", 1, wholeRange(1, kMaxStreamsPerServer)));
    for (const auto& [key, baseS, perItemS] :
         {std::tuple{"pre_compute", &out.preComputeBaseS, &out.preComputePerItemS},
          std::tuple{"post_compute", &out.postComputeBaseS, &out.postComputePerItemS}}) {
        if (const auto* stage = f.object(key)) {
            JsonFields p(*stage, f.child(key), path);
            const NumberRule delay = NumberRule::range(0.0, kMaxPreComputeMs);
            *baseS = seconds(p.numberOr("base_ms", 0.0, delay));
            *perItemS = seconds(p.numberOr("per_item_us", 0.0, delay) / 1000.0);
            f.adopt(p.finish());
        }
    }
    if (out.sharesDevices() && out.placement != ServerSpec::Placement::Shared)
        f.fail("placement", "streams > 1, pre_compute and post_compute are simulated with one "
                            "shared queue (placement \"shared\") only");
    return f.finish();
}

/// What the sharing engine does not model yet, refused rather than simulated wrongly.
void checkSharedDevices(JsonFields& f, const Scenario& scenario)
{
    if (!scenario.servers.sharesDevices())
        return;
    if (scenario.service.kind == ServiceSpec::Kind::Accelerator)
        f.fail("servers", "streams > 1 and pre_compute need a linear, table or exponential "
                          "service: the accelerator service keeps one thermal state per "
                          "batch, which batches sharing a device would not have");
    else if (scenario.power)
        f.fail("servers", "streams > 1 and pre_compute have no energy accounting yet (batches "
                          "sharing a device would count its busy power twice): remove power");
}

/// What the closed-loop engine (closedloopengine.h) does not model, refused with the key.
void checkClosedLoop(JsonFields& f, const Scenario& scenario)
{
    bool closedLoop = false;
    for (const auto& stream : scenario.streams)
        closedLoop = closedLoop || stream.arrivals.kind == ArrivalSpec::Kind::ClosedLoop;
    if (!closedLoop)
        return;
    if (scenario.namedStreams)
        f.fail("streams", "closed_loop arrivals are one population of clients: give them as "
                          "\"arrivals\", not as a stream");
    else if (scenario.policy.kind == PolicySpec::Kind::Adaptive)
        f.fail("policy", "the adaptive policy is not simulated with closed_loop arrivals yet");
    else if (scenario.servers.placement != ServerSpec::Placement::Shared)
        f.fail("servers", "closed_loop arrivals are simulated with one shared queue (placement "
                          "\"shared\") only");
}

Status readDistribution(const json& object, const std::string& where, const std::string& path,
                        Variability& out)
{
    JsonFields f(object, where, path);
    const std::string kind =
        f.choice("kind", {"deterministic", "exponential", "gamma", "lognormal"});
    out.cv = 0.0;
    if (kind == "deterministic") {
        out.kind = VariabilityKind::Deterministic;
    } else if (kind == "exponential") {
        out.kind = VariabilityKind::Exponential;
        out.cv = 1.0;
    } else if (kind == "gamma" || kind == "lognormal") {
        out.kind = kind == "gamma" ? VariabilityKind::Gamma : VariabilityKind::Lognormal;
        out.cv = readCv(f, kMaxServiceCv);
    }
    return f.finish();
}

/// The measured spread of a table's rows: optional p50_ms .. p99_ms columns, one value per batch
/// size, not decreasing from one percentile to the next.
void readTablePercentiles(JsonFields& f, ServiceSpec& out)
{
    out.tablePercentiles.clear();
    for (int percentile : {50, 90, 95, 99}) {
        const std::string key = "p" + std::to_string(percentile) + "_ms";
        if (!f.has(key.c_str()))
            continue;
        const auto ms = f.numbers(key.c_str(), {0.0, kMaxServiceMs, true, false});
        if (!f.ok())
            return;
        if (ms.size() != out.tableBatch.size())
            return f.fail(key.c_str(), "must have as many entries as batch (" +
                                           std::to_string(out.tableBatch.size()) + ", got " +
                                           std::to_string(ms.size()) + ")");
        TablePercentile column{percentile, {}};
        for (double v : ms)
            column.latencyS.push_back(seconds(v));
        if (!out.tablePercentiles.empty()) {
            const auto& lower = out.tablePercentiles.back();
            for (std::size_t i = 0; i < ms.size(); ++i)
                if (column.latencyS[i] < lower.latencyS[i])
                    return f.fail(key + "[" + std::to_string(i) + "]",
                                  "is below p" + std::to_string(lower.percentile) +
                                      "_ms at the same batch size (" + formatNumber(ms[i]) + " < " +
                                      formatNumber(lower.latencyS[i] * 1000.0) + ")");
        }
        out.tablePercentiles.push_back(std::move(column));
    }
}

void readTable(JsonFields& f, ServiceSpec& out)
{
    out.tableBatch = f.numbers("batch", wholeRange(1, kMaxBatch));
    const auto latencyMs = f.numbers("latency_ms", {0.0, kMaxServiceMs, true, false});
    requireIncreasing(f, "batch", out.tableBatch, false, "batch sizes must increase");
    if (!f.ok())
        return;
    if (out.tableBatch.empty())
        return f.fail("batch", "needs at least one measured batch size");
    if (latencyMs.size() != out.tableBatch.size())
        return f.fail("latency_ms", "must have as many entries as batch (" +
                                        std::to_string(out.tableBatch.size()) + ", got " +
                                        std::to_string(latencyMs.size()) + ")");
    for (double ms : latencyMs)
        out.tableLatencyS.push_back(seconds(ms));
    readTablePercentiles(f, out);
}

Status readService(const json& object, const std::string& where, const std::string& path,
                   ServiceSpec& out)
{
    JsonFields f(object, where, path);
    const std::string kind = f.choice("kind", {"linear", "table", "exponential", "accelerator"});
    out.distribution = {};
    if (kind == "linear") {
        out.kind = ServiceSpec::Kind::Linear;
        out.baseS = seconds(f.number("base_ms", NumberRule::range(0.0, kMaxServiceMs)));
        out.perItemS = seconds(f.number("per_item_ms", NumberRule::range(0.0, kMaxServiceMs)));
        if (f.ok() && out.baseS + out.perItemS <= 0.0)
            f.fail("per_item_ms", "base_ms and per_item_ms cannot both be 0");
    } else if (kind == "table") {
        out.kind = ServiceSpec::Kind::Table;
        readTable(f, out);
    } else if (kind == "exponential") {
        out.kind = ServiceSpec::Kind::Exponential;
        out.meanS = seconds(f.number("mean_ms", {0.0, kMaxServiceMs, true, false}));
        out.distribution = {VariabilityKind::Exponential, 1.0};
    } else if (kind == "accelerator") {
        out.kind = ServiceSpec::Kind::Accelerator;
        if (const auto* model = f.object("model", true)) {
            out.acceleratorModel = *model;
            // Validated here so a bad parameter is reported with its key when the file is read.
            if (auto built = accel::modelFromJson(*model, f.child("model"), path); !built)
                f.adopt(built.error());
        }
    }
    if (const auto* distribution = f.object("distribution"))
        f.adopt(readDistribution(*distribution, f.child("distribution"), path, out.distribution));
    if (f.ok() && !out.tablePercentiles.empty() && f.has("distribution"))
        f.fail("distribution", "give the measured percentiles (p50_ms .. p99_ms) or a "
                               "distribution, not both: the percentiles set each row's spread");
    if (f.ok() && out.kind == ServiceSpec::Kind::Accelerator &&
        out.distribution.kind != VariabilityKind::Deterministic)
        f.fail("distribution", "must be deterministic for the accelerator model (its thermal "
                               "state follows the service times it computes)");
    return f.finish();
}

Status readPower(const json& object, const std::string& where, const std::string& path,
                 PowerSpec& out)
{
    JsonFields f(object, where, path);
    out.idleW = f.number("idle_w", NumberRule::nonNegative());
    out.busyW = f.number("busy_w", NumberRule::nonNegative());
    return f.finish();
}

Status readOutput(const json& object, const std::string& where, const std::string& path,
                  OutputSpec& out)
{
    JsonFields f(object, where, path);
    out.windowS = f.numberOr("window_s", 0.0, NumberRule::nonNegative());
    out.records = f.boolean("records", false);
    return f.finish();
}

Status readRunLength(const json& object, const std::string& where, const std::string& path,
                     RunLengthSpec& out)
{
    JsonFields f(object, where, path);
    // More than 10^6 cycles per replication is never needed and would only exhaust the budget.
    out.minCycles = f.numberOr("min_cycles", out.minCycles, NumberRule::range(0.0, 1e6));
    out.maxRequests = f.unsignedOr("max_requests", out.maxRequests);
    if (f.ok() && (out.maxRequests < 1 || out.maxRequests > kMaxRequests))
        f.fail("max_requests", "must be from 1 to " + std::to_string(kMaxRequests) + " (got " +
                                   std::to_string(out.maxRequests) + ")");
    return f.finish();
}

void readCounts(JsonFields& f, const std::string& path, Scenario& out)
{
    out.name = f.stringOr("name", {});
    out.seed = f.unsignedOr("seed", 1);
    out.requests = f.unsignedOr("requests", 100000);
    if (f.ok() && (out.requests < 1 || out.requests > kMaxRequests))
        f.fail("requests", out.requests < 1 ? "must be at least 1 (got 0)"
                                            : "must be at most " + std::to_string(kMaxRequests) +
                                                  " (got " + std::to_string(out.requests) + ")");
    out.warmupRequests = f.unsignedOr("warmup_requests", out.requests / 10);
    if (f.ok() && out.warmupRequests > kMaxRequests)
        f.fail("warmup_requests", "must be at most " + std::to_string(kMaxRequests) + " (got " +
                                      std::to_string(out.warmupRequests) + ")");
    out.replications = int(f.integerOr("replications", 5, wholeRange(1, kMaxReplications)));
    if (const auto* runLength = f.object("run_length"))
        f.adopt(readRunLength(*runLength, f.child("run_length"), path, out.runLength));
    out.maxQueueRequests = f.unsignedOr("max_queue_requests", 1000000);
    if (f.ok() && out.maxQueueRequests < 1)
        f.fail("max_queue_requests", "must be at least 1 (got 0)");
}

void readTraffic(JsonFields& f, const std::string& path, Scenario& out)
{
    // Both are looked up, so each is a known key whichever one the scenario uses.
    const auto* streams = f.array("streams");
    const auto* arrivals = f.object("arrivals");
    if (!f.ok())
        return;
    if (streams && arrivals)
        return f.fail("streams", "give either arrivals or streams, not both");
    if (streams) {
        out.namedStreams = true;
        f.adopt(readStreams(f, *streams, path, out.streams));
        return;
    }
    if (!arrivals)
        return f.fail("arrivals", "missing; expected an object (or a streams list)",
                      ErrorCode::Format);
    StreamSpec stream;
    f.adopt(readArrivals(*arrivals, f.child("arrivals"), path, stream.arrivals));
    out.streams.push_back(std::move(stream));
}

} // namespace

Expected<Scenario> scenarioFromJson(const nlohmann::json& json, const std::string& path)
{
    Scenario out;
    JsonFields f(json, "scenario", path);
    readCounts(f, path, out);
    readTraffic(f, path, out);
    if (const auto* policy = f.object("policy", true))
        f.adopt(readPolicy(*policy, f.child("policy"), path, out.policy));
    if (const auto* servers = f.object("servers"))
        f.adopt(readServers(*servers, f.child("servers"), path, out.servers));
    if (const auto* service = f.object("service", true))
        f.adopt(readService(*service, f.child("service"), path, out.service));
    if (const auto* power = f.object("power")) {
        PowerSpec spec;
        f.adopt(readPower(*power, f.child("power"), path, spec));
        out.power = spec;
    }
    if (const auto* output = f.object("output"))
        f.adopt(readOutput(*output, f.child("output"), path, out.output));
    if (f.ok())
        checkSharedDevices(f, out);
    if (f.ok())
        checkClosedLoop(f, out);
    if (auto status = f.finish(); !status)
        return status.error();
    return out;
}

Expected<Scenario> loadScenario(const std::string& path)
{
    auto parsed = io::readJsonFile(path, std::uint64_t(256) << 20);
    if (!parsed)
        return parsed.error();
    return scenarioFromJson(*parsed, path);
}

} // namespace bs::sim
