// regionResultFromJson: reads what toJson(RegionResult) wrote (shards for merge, region.json
// for the GUI), checking every key.
#include "analysis/regionresult.h"
#include "io/jsonfields.h"

#include <cmath>

namespace bs::analysis {

namespace {

using io::JsonFields;
using nlohmann::json;

double nullable(JsonFields& f, const char* key)
{
    return f.optionalNumber(key).value_or(sim::kNaN);
}

sim::Estimate estimate(JsonFields& f, const char* key)
{
    sim::Estimate out;
    const json* array = f.array(key, true);
    if (!array)
        return out;
    if (array->size() != 3) {
        f.fail(key, "must be [value, ci_low, ci_high]", ErrorCode::Format);
        return out;
    }
    double* slots[] = {&out.value, &out.ciLow, &out.ciHigh};
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& item = (*array)[i];
        if (item.is_number())
            *slots[i] = item.get<double>();
        else if (!item.is_null())
            f.fail(key, "must hold numbers or null", ErrorCode::Format);
    }
    return out;
}

std::vector<std::size_t> indices(JsonFields& f, const char* key)
{
    std::vector<std::size_t> out;
    for (double v : f.numbers(key, io::NumberRule::count(0)))
        out.push_back(std::size_t(v));
    return out;
}

std::size_t count(JsonFields& f, const char* key)
{
    return std::size_t(f.integer(key, io::NumberRule::count(0)));
}

ConstraintKind constraint(JsonFields& f, const char* key)
{
    const std::string name = f.string(key);
    const auto kind = parseConstraint(name);
    if (!kind)
        f.fail(key, "unknown constraint '" + name + "'");
    return kind.value_or(ConstraintKind::None);
}

Status readMetrics(const json& object, const std::string& where, const std::string& path,
                   CellMetrics& m)
{
    JsonFields f(object, where, path);
    m.stable = f.boolean("stable", false);
    m.offeredRatePerS = nullable(f, "offered_rate_per_s");
    m.capacityRatePerS = nullable(f, "capacity_rate_per_s");
    m.rho = nullable(f, "rho");
    m.throughputPerS = estimate(f, "throughput_per_s");
    m.p99S = estimate(f, "p99_s");
    m.energyPerInferenceJ = estimate(f, "energy_per_inference_j");
    m.powerPerServerW = estimate(f, "power_per_server_w");
    m.peakTemperatureC = estimate(f, "peak_temperature_c");
    m.meanBatch = estimate(f, "mean_batch");
    return f.finish();
}

Status readCheck(const json& object, const std::string& where, const std::string& path,
                 ConstraintCheck& c)
{
    JsonFields f(object, where, path);
    c.kind = constraint(f, "constraint");
    c.value = nullable(f, "value");
    c.limit = nullable(f, "limit");
    c.margin = nullable(f, "margin");
    c.satisfied = f.boolean("satisfied", false);
    c.decided = f.boolean("decided", false);
    return f.finish();
}

Expected<RegionCell> readCell(const json& object, const std::string& where, const std::string& path)
{
    JsonFields f(object, where, path);
    RegionCell c;
    c.index = count(f, "index");
    c.axisIndex = indices(f, "axis_index");
    const std::string statusName =
        f.choice("status", {"feasible", "infeasible", "unstable", "error"});
    const std::string methodName = f.choice("method", {"analytic", "short_run", "simulated"});
    c.confident = f.boolean("confident", false);
    c.pending = f.boolean("pending", false);
    c.binding = constraint(f, "binding");
    const json* checks = f.array("checks", true);
    const json* metrics = f.object("metrics", true);
    c.requests = f.unsignedOr("requests", 0);
    c.replications = int(f.integer("replications", io::NumberRule::count(0)));
    c.seed = f.unsignedOr("seed", 0);
    c.simulatedRequests = f.unsignedOr("simulated_requests", 0);
    c.paretoOptimal = f.boolean("pareto_optimal", false);
    c.note = f.stringOr("note", {});
    if (auto status = f.finish(); !status)
        return status.error();
    for (auto s :
         {CellStatus::Feasible, CellStatus::Infeasible, CellStatus::Unstable, CellStatus::Error})
        c.status = statusName == cellStatusName(s) ? s : c.status;
    for (auto m : {CellMethod::Analytic, CellMethod::ShortRun, CellMethod::Simulated})
        c.method = methodName == cellMethodName(m) ? m : c.method;
    for (std::size_t i = 0; i < checks->size(); ++i) {
        ConstraintCheck check;
        if (auto s =
                readCheck((*checks)[i], where + ".checks[" + std::to_string(i) + "]", path, check);
            !s)
            return s.error();
        c.checks.push_back(check);
    }
    if (auto s = readMetrics(*metrics, where + ".metrics", path, c.metrics); !s)
        return s.error();
    return c;
}

Expected<CapacityPoint> readCapacity(const json& object, const std::string& where,
                                     const std::string& path)
{
    JsonFields f(object, where, path);
    CapacityPoint p;
    p.policy = count(f, "policy");
    p.axisIndex = indices(f, "axis_index");
    p.maxRatePerS = nullable(f, "max_rate_per_s");
    p.infeasibleRatePerS = nullable(f, "infeasible_rate_per_s");
    p.stabilityLimitPerS = nullable(f, "stability_limit_per_s");
    p.binding = constraint(f, "binding");
    p.evaluations = int(f.integer("evaluations", io::NumberRule::count(0)));
    p.simulatedRequests = f.unsignedOr("simulated_requests", 0);
    p.converged = f.boolean("converged", false);
    p.note = f.stringOr("note", {});
    if (auto status = f.finish(); !status)
        return status.error();
    return p;
}

Expected<Headroom> readHeadroom(const json& object, const std::string& where,
                                const std::string& path)
{
    JsonFields f(object, where, path);
    Headroom h;
    h.loadMultiplier = nullable(f, "load_multiplier");
    h.maxRatePerS = nullable(f, "max_rate_per_s");
    h.loadBinding = constraint(f, "load_binding");
    h.loadConverged = f.boolean("load_converged", false);
    h.baseArrivalCv = nullable(f, "base_arrival_cv");
    h.maxArrivalCv = nullable(f, "max_arrival_cv");
    h.burstBinding = constraint(f, "burst_binding");
    h.burstConverged = f.boolean("burst_converged", false);
    h.evaluations = int(f.integer("evaluations", io::NumberRule::count(0)));
    h.note = f.stringOr("note", {});
    if (auto status = f.finish(); !status)
        return status.error();
    return h;
}

Expected<Recommendation> readRecommendation(const json& object, const std::string& path)
{
    JsonFields f(object, "region.recommendation", path);
    Recommendation r;
    const std::string objective =
        f.choice("objective", {"max-throughput", "min-energy", "min-p99"});
    r.cell = count(f, "cell");
    if (f.has("indistinguishable_cells"))
        r.indistinguishableCells = indices(f, "indistinguishable_cells");
    const json* headroom = f.object("headroom");
    r.reason = f.stringOr("reason", {});
    if (auto status = f.finish(); !status)
        return status.error();
    r.objective = *parseObjective(objective);
    if (headroom) {
        auto h = readHeadroom(*headroom, "region.recommendation.headroom", path);
        if (!h)
            return h.error();
        r.headroom = *h;
    }
    return r;
}

Status readSummary(const json& object, const std::string& path, RegionSummary& s)
{
    JsonFields f(object, "region.summary", path);
    s.feasible = count(f, "feasible");
    s.infeasible = count(f, "infeasible");
    s.unstable = count(f, "unstable");
    s.errors = count(f, "errors");
    s.analytic = count(f, "analytic");
    s.shortRun = count(f, "short_run");
    s.simulated = count(f, "simulated");
    s.notConfident = count(f, "not_confident");
    s.simulatedRequests = f.unsignedOr("simulated_requests", 0);
    return f.finish();
}

Status readShard(const json& object, const std::string& path, RegionResult& out)
{
    JsonFields f(object, "region.shard", path);
    out.shardIndex = count(f, "index");
    out.shardCount = std::size_t(f.integer("count", io::NumberRule::count(1)));
    if (auto status = f.finish(); !status)
        return status;
    if (out.shardIndex >= out.shardCount)
        return makeError(ErrorCode::Value, path, 0, 0,
                         "region.shard.index: must be below the count (" +
                             std::to_string(out.shardCount) + ")");
    return {};
}

template <typename T, typename Reader>
Status readList(const json& array, const char* key, const std::string& path, Reader reader,
                std::vector<T>& out)
{
    for (std::size_t i = 0; i < array.size(); ++i) {
        auto item =
            reader(array[i], "region." + std::string(key) + "[" + std::to_string(i) + "]", path);
        if (!item)
            return item.error();
        out.push_back(std::move(*item));
    }
    return {};
}

} // namespace

Expected<RegionResult> regionResultFromJson(const nlohmann::json& json, const std::string& path)
{
    JsonFields f(json, "region", path);
    RegionResult out;
    f.choice("kind", {"batchscope.region.result"});
    f.integer("schema", io::NumberRule::range(1, 1));
    f.string("batchscope_version");
    const std::string stage = f.choice("stage", {"preview", "shard", "complete"});
    const auto* shard = f.object("shard", true);
    const auto* spec = f.object("spec", true);
    out.baseDirectory = f.stringOr("base_directory", {});
    f.object("seeds");
    out.cellCount = count(f, "cell_count");
    const auto* summary = f.object("summary", true);
    const auto* cells = f.array("cells", true);
    const auto* capacity = f.array("capacity", true);
    out.paretoCells = indices(f, "pareto_cells");
    const auto* recommendation = f.object("recommendation");
    const auto* warnings = f.array("warnings");
    if (auto status = f.finish(); !status)
        return status.error();
    for (auto s : {RegionStage::Preview, RegionStage::Shard, RegionStage::Complete})
        out.stage = stage == regionStageName(s) ? s : out.stage;
    auto parsedSpec = regionSpecFromJson(*spec, path);
    if (!parsedSpec)
        return parsedSpec.error();
    out.spec = std::move(*parsedSpec);
    for (auto status : {readShard(*shard, path, out), readSummary(*summary, path, out.summary),
                        readList(*cells, "cells", path, readCell, out.cells),
                        readList(*capacity, "capacity", path, readCapacity, out.capacity)}) {
        if (!status)
            return status.error();
    }
    if (recommendation) {
        auto r = readRecommendation(*recommendation, path);
        if (!r)
            return r.error();
        out.recommendation = std::move(*r);
    }
    if (warnings) {
        for (const auto& w : *warnings)
            out.warnings.push_back(w.is_string() ? w.get<std::string>() : w.dump());
    }
    return out;
}

} // namespace bs::analysis
