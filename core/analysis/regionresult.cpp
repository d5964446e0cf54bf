// RegionResult: names, summary and the JSON writer (the reader is regionresultread.cpp).
#include "analysis/regionresult.h"

#include "util/version.h"

#include <algorithm>
#include <cmath>

namespace bs::analysis {

namespace {

using nlohmann::json;

bool same(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

json number(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

/// [value, ci_low, ci_high]; null entries where absent.
json estimate(const sim::Estimate& e)
{
    return json::array({number(e.value), number(e.ciLow), number(e.ciHigh)});
}

json metrics(const CellMetrics& m)
{
    return {{"stable", m.stable},
            {"offered_rate_per_s", number(m.offeredRatePerS)},
            {"capacity_rate_per_s", number(m.capacityRatePerS)},
            {"rho", number(m.rho)},
            {"throughput_per_s", estimate(m.throughputPerS)},
            {"p99_s", estimate(m.p99S)},
            {"energy_per_inference_j", estimate(m.energyPerInferenceJ)},
            {"power_per_server_w", estimate(m.powerPerServerW)},
            {"peak_temperature_c", estimate(m.peakTemperatureC)},
            {"mean_batch", estimate(m.meanBatch)}};
}

json check(const ConstraintCheck& c)
{
    return {{"constraint", constraintName(c.kind)},
            {"value", number(c.value)},
            {"limit", number(c.limit)},
            {"margin", number(c.margin)},
            {"satisfied", c.satisfied},
            {"decided", c.decided}};
}

json headroom(const Headroom& h)
{
    return {{"load_multiplier", number(h.loadMultiplier)},
            {"max_rate_per_s", number(h.maxRatePerS)},
            {"load_binding", constraintName(h.loadBinding)},
            {"load_converged", h.loadConverged},
            {"base_arrival_cv", number(h.baseArrivalCv)},
            {"max_arrival_cv", number(h.maxArrivalCv)},
            {"burst_binding", constraintName(h.burstBinding)},
            {"burst_converged", h.burstConverged},
            {"evaluations", h.evaluations},
            {"note", h.note}};
}

json summary(const RegionSummary& s)
{
    return {{"feasible", s.feasible},
            {"infeasible", s.infeasible},
            {"unstable", s.unstable},
            {"errors", s.errors},
            {"analytic", s.analytic},
            {"short_run", s.shortRun},
            {"simulated", s.simulated},
            {"not_confident", s.notConfident},
            {"simulated_requests", s.simulatedRequests}};
}

} // namespace

const char* cellStatusName(CellStatus status)
{
    switch (status) {
    case CellStatus::Feasible:
        return "feasible";
    case CellStatus::Infeasible:
        return "infeasible";
    case CellStatus::Unstable:
        return "unstable";
    case CellStatus::Error:
        return "error";
    }
    return "?";
}

std::string cellEvidence(const RegionCell& c)
{
    const std::string runs =
        std::to_string(c.replications) + " x " + std::to_string(c.requests) + " requests";
    std::string out;
    switch (c.method) {
    case CellMethod::Analytic:
        out = c.status == CellStatus::Error ? "not simulated (error)"
                                            : "capacity check (rho >= 1), not simulated";
        break;
    case CellMethod::ShortRun:
        out = "short run, " + runs;
        break;
    case CellMethod::Simulated:
        out = "full run, " + runs;
        break;
    }
    if (!c.confident && c.method != CellMethod::Analytic)
        out += ", not confident";
    return out;
}

const char* cellMethodName(CellMethod method)
{
    switch (method) {
    case CellMethod::Analytic:
        return "analytic";
    case CellMethod::ShortRun:
        return "short_run";
    case CellMethod::Simulated:
        return "simulated";
    }
    return "?";
}

const char* regionStageName(RegionStage stage)
{
    switch (stage) {
    case RegionStage::Preview:
        return "preview";
    case RegionStage::Shard:
        return "shard";
    case RegionStage::Complete:
        return "complete";
    }
    return "?";
}

bool operator==(const CapacityPoint& a, const CapacityPoint& b)
{
    return a.policy == b.policy && a.axisIndex == b.axisIndex &&
           same(a.maxRatePerS, b.maxRatePerS) && same(a.infeasibleRatePerS, b.infeasibleRatePerS) &&
           same(a.stabilityLimitPerS, b.stabilityLimitPerS) && a.binding == b.binding &&
           a.evaluations == b.evaluations && a.simulatedRequests == b.simulatedRequests &&
           a.converged == b.converged && a.note == b.note;
}

bool operator==(const Headroom& a, const Headroom& b)
{
    return same(a.loadMultiplier, b.loadMultiplier) && same(a.maxRatePerS, b.maxRatePerS) &&
           a.loadBinding == b.loadBinding && a.loadConverged == b.loadConverged &&
           same(a.baseArrivalCv, b.baseArrivalCv) && same(a.maxArrivalCv, b.maxArrivalCv) &&
           a.burstBinding == b.burstBinding && a.burstConverged == b.burstConverged &&
           a.evaluations == b.evaluations && a.note == b.note;
}

const RegionCell* RegionResult::cell(std::size_t index) const
{
    const auto it =
        std::lower_bound(cells.begin(), cells.end(), index,
                         [](const RegionCell& c, std::size_t i) { return c.index < i; });
    return it != cells.end() && it->index == index ? &*it : nullptr;
}

RegionSummary summarize(const std::vector<RegionCell>& cells)
{
    RegionSummary s;
    for (const auto& c : cells) {
        s.feasible += c.status == CellStatus::Feasible;
        s.infeasible += c.status == CellStatus::Infeasible;
        s.unstable += c.status == CellStatus::Unstable;
        s.errors += c.status == CellStatus::Error;
        s.analytic += c.method == CellMethod::Analytic;
        s.shortRun += c.method == CellMethod::ShortRun;
        s.simulated += c.method == CellMethod::Simulated;
        s.notConfident += c.status != CellStatus::Error && !c.confident;
        s.simulatedRequests += c.simulatedRequests;
    }
    return s;
}

nlohmann::json toJson(const RegionCell& c)
{
    json checks = json::array();
    for (const auto& k : c.checks)
        checks.push_back(check(k));
    return {{"index", c.index},
            {"axis_index", c.axisIndex},
            {"status", cellStatusName(c.status)},
            {"method", cellMethodName(c.method)},
            {"confident", c.confident},
            {"pending", c.pending},
            {"binding", constraintName(c.binding)},
            {"checks", checks},
            {"metrics", metrics(c.metrics)},
            {"requests", c.requests},
            {"replications", c.replications},
            {"seed", c.seed},
            {"simulated_requests", c.simulatedRequests},
            {"pareto_optimal", c.paretoOptimal},
            {"note", c.note}};
}

nlohmann::json toJson(const CapacityPoint& p)
{
    return {{"policy", p.policy},
            {"axis_index", p.axisIndex},
            {"max_rate_per_s", number(p.maxRatePerS)},
            {"infeasible_rate_per_s", number(p.infeasibleRatePerS)},
            {"stability_limit_per_s", number(p.stabilityLimitPerS)},
            {"binding", constraintName(p.binding)},
            {"evaluations", p.evaluations},
            {"simulated_requests", p.simulatedRequests},
            {"converged", p.converged},
            {"note", p.note}};
}

nlohmann::json toJson(const Recommendation& r)
{
    return {{"objective", objectiveName(r.objective)},
            {"cell", r.cell},
            {"indistinguishable_cells", r.indistinguishableCells},
            {"headroom", r.headroom ? headroom(*r.headroom) : json(nullptr)},
            {"reason", r.reason}};
}

nlohmann::json toJson(const RegionResult& r)
{
    json cells = json::array();
    for (const auto& c : r.cells)
        cells.push_back(toJson(c));
    json capacity = json::array();
    for (const auto& p : r.capacity)
        capacity.push_back(toJson(p));
    return {
        {"kind", "batchscope.region.result"},
        {"schema", 1},
        {"batchscope_version", kVersionString},
        {"stage", regionStageName(r.stage)},
        {"shard", {{"index", r.shardIndex}, {"count", r.shardCount}}},
        {"spec", toJson(r.spec)},
        {"base_directory", r.baseDirectory},
        {"seeds",
         {{"scenario_seed", r.spec.scenario.seed},
          {"rule", "every cell and search point uses the scenario seed (common random "
                   "numbers); replication r uses splitmix64-derived replicationSeed(seed, r)"}}},
        {"cell_count", r.cellCount},
        {"summary", summary(r.summary)},
        {"cells", cells},
        {"capacity", capacity},
        {"pareto_cells", r.paretoCells},
        {"recommendation", r.recommendation ? toJson(*r.recommendation) : json(nullptr)},
        {"warnings", r.warnings}};
}

} // namespace bs::analysis
