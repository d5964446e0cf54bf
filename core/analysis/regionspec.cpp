// Reading, writing and checking a region spec (core/analysis/REGION.md).
#include "analysis/regionspec.h"

#include "accel/precision.h"
#include "io/jsonfields.h"
#include "sim/scenariojson.h"

#include <cmath>
#include <set>
#include <sstream>

namespace bs::analysis {

namespace {

using nlohmann::json;

struct AxisInfo
{
    RegionAxisKind kind;
    const char* name;
    const char* title;
};

constexpr AxisInfo kAxes[] = {
    {RegionAxisKind::MaxBatch, "max_batch", "max batch (requests)"},
    {RegionAxisKind::MaxQueueDelayMs, "max_queue_delay_ms", "max queue delay (ms)"},
    {RegionAxisKind::RatePerS, "rate_per_s", "arrival rate (req/s)"},
    {RegionAxisKind::RateMultiplier, "rate_multiplier", "rate multiplier (x base)"},
    {RegionAxisKind::Servers, "servers", "servers (replicas)"},
    {RegionAxisKind::Precision, "precision", "precision"},
    {RegionAxisKind::PowerCapW, "power_cap_w", "power cap (W)"},
};

std::string formatNumber(double v)
{
    std::ostringstream out;
    out << v;
    return out.str();
}

/// Milliseconds that read back (ms / 1000) to exactly `s` (as sim/scenariowrite.cpp does).
double milliseconds(double s)
{
    double ms = s * 1000.0;
    double down = ms;
    double up = ms;
    for (int i = 0; i < 8 && ms / 1000.0 != s; ++i) {
        down = std::nextafter(down, -INFINITY);
        up = std::nextafter(up, INFINITY);
        if (up / 1000.0 == s)
            return up;
        if (down / 1000.0 == s)
            return down;
    }
    return ms;
}

bool isAccelerator(const sim::Scenario& scenario)
{
    return scenario.service.kind == sim::ServiceSpec::Kind::Accelerator;
}

bool hasPower(const sim::Scenario& scenario)
{
    return scenario.power.has_value() || isAccelerator(scenario);
}

/// The rule a numeric axis value must meet, as a sentence end ("a whole number from 1 to 65536").
std::optional<std::string> valueProblem(RegionAxisKind kind, double v)
{
    const auto whole = [&](double lo, double hi) -> std::optional<std::string> {
        if (v == std::floor(v) && v >= lo && v <= hi)
            return std::nullopt;
        return "a whole number from " + formatNumber(lo) + " to " + formatNumber(hi);
    };
    switch (kind) {
    case RegionAxisKind::MaxBatch:
        return whole(1, sim::kMaxBatch);
    case RegionAxisKind::Servers:
        return whole(1, sim::kMaxServers);
    case RegionAxisKind::MaxQueueDelayMs:
        return v >= 0.0 && std::isfinite(v) ? std::nullopt
                                            : std::optional<std::string>("at least 0");
    default:
        return v > 0.0 && std::isfinite(v) ? std::nullopt
                                           : std::optional<std::string>("greater than 0");
    }
}

std::string axisWhere(std::size_t index)
{
    return "region.axes[" + std::to_string(index) + "]";
}

Error valueError(const std::string& path, std::string message)
{
    return makeError(ErrorCode::Value, path, 0, 0, std::move(message));
}

/// Values present, in range, not repeated; precision names known.
Status checkAxisValues(const RegionAxis& axis, std::size_t index, const std::string& path)
{
    const std::string where = axisWhere(index) + ".values";
    if (axis.size() == 0)
        return valueError(path, where + ": must not be empty (give at least one value)");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < axis.size(); ++i) {
        const std::string item = where + "[" + std::to_string(i) + "]";
        if (axis.kind == RegionAxisKind::Precision) {
            if (!accel::parsePrecision(axis.names[i]))
                return valueError(path, item + ": unknown precision '" + axis.names[i] +
                                            "'; expected one of: " + accel::precisionList());
        } else if (const auto problem = valueProblem(axis.kind, axis.values[i])) {
            return valueError(path, item + ": " + axisKindName(axis.kind) + " must be " + *problem +
                                        " (got " + formatNumber(axis.values[i]) + ")");
        }
        if (!seen.insert(axis.label(i)).second)
            return valueError(path, item + ": " + axis.label(i) + " appears twice");
    }
    return {};
}

Status checkAxes(const RegionSpec& spec, const std::string& path)
{
    std::set<RegionAxisKind> kinds;
    bool rate = false;
    std::size_t cells = 1;
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
        const auto& axis = spec.axes[a];
        const std::string where = axisWhere(a) + ".name";
        if (!kinds.insert(axis.kind).second)
            return valueError(path, where + ": " + axisKindName(axis.kind) + " appears twice");
        if (axis.isRate() && rate)
            return valueError(path, where + ": rate_per_s and rate_multiplier cannot both be axes "
                                            "(both set the arrival rate)");
        rate = rate || axis.isRate();
        const bool needsAccelerator =
            axis.kind == RegionAxisKind::Precision || axis.kind == RegionAxisKind::PowerCapW;
        if (needsAccelerator && !isAccelerator(spec.scenario))
            return valueError(path, where + ": " + axisKindName(axis.kind) +
                                        " needs the accelerator service model (the scenario's "
                                        "service.kind is not \"accelerator\")");
        if (auto status = checkAxisValues(axis, a, path); !status)
            return status;
        cells *= axis.size();
        if (cells > kMaxRegionCells)
            return makeError(ErrorCode::Limit, path, 0, 0,
                             "region.axes: the grid has more than " +
                                 std::to_string(kMaxRegionCells) +
                                 " cells; use fewer values or split it into several regions");
    }
    return {};
}

Status checkConstraints(const RegionSpec& spec, const std::string& path)
{
    const auto& c = spec.constraints;
    const std::string where = "region.constraints.";
    if (!(c.slaP99S > 0.0) || !std::isfinite(c.slaP99S))
        return valueError(path, where + "sla_p99_ms: must be greater than 0 (got " +
                                    formatNumber(milliseconds(c.slaP99S)) + ")");
    const auto positive = [&](const std::optional<double>& v, const char* key) -> Status {
        if (v && (!(*v > 0.0) || !std::isfinite(*v)))
            return valueError(path, where + key + ": must be greater than 0 (got " +
                                        formatNumber(*v) + ")");
        return {};
    };
    for (auto status :
         {positive(c.minThroughputPerS, "min_throughput_per_s"),
          positive(c.maxPowerW, "max_power_w"), positive(c.maxTemperatureC, "max_temperature_c"),
          positive(c.maxEnergyPerInferenceJ, "max_energy_per_inference_j")}) {
        if (!status)
            return status;
    }
    const std::string noPower = ": the scenario has no power information; add \"power\" "
                                "{idle_w, busy_w} or use the accelerator service model";
    if (c.maxPowerW && !hasPower(spec.scenario))
        return valueError(path, where + "max_power_w" + noPower);
    if (c.maxEnergyPerInferenceJ && !hasPower(spec.scenario))
        return valueError(path, where + "max_energy_per_inference_j" + noPower);
    if (spec.objective == RegionObjective::MinEnergy && !hasPower(spec.scenario))
        return valueError(path, "region.objective: min-energy" + noPower);
    if (c.maxTemperatureC && !isAccelerator(spec.scenario))
        return valueError(path, where + "max_temperature_c: needs the accelerator service model "
                                        "(only it has a thermal model)");
    return {};
}

Status checkSettings(const RegionSpec& spec, const std::string& path)
{
    const auto& r = spec.refinement;
    const auto bad = [&](const std::string& key, const std::string& rule, double got) {
        return valueError(path, "region." + key + ": must be " + rule + " (got " +
                                    formatNumber(got) + ")");
    };
    if (r.screenRequests < 1)
        return bad("refinement.screen_requests", "at least 1", double(r.screenRequests));
    if (r.screenReplications < 2 || r.screenReplications > sim::kMaxReplications)
        return bad("refinement.screen_replications", "a whole number from 2 to 1000",
                   r.screenReplications);
    if (r.screenStages < 1 || r.screenStages > 4)
        return bad("refinement.screen_stages", "a whole number from 1 to 4", r.screenStages);
    if (!(r.screenHalfWidths >= 1.0))
        return bad("refinement.screen_half_widths", "at least 1", r.screenHalfWidths);
    if (!(r.screenMaxRho > 0.0 && r.screenMaxRho <= 1.0))
        return bad("refinement.screen_max_rho", "in (0, 1]", r.screenMaxRho);
    if (!(r.screenMinCycles > 0.0 && r.screenMinCycles <= 1e6))
        return bad("refinement.screen_min_cycles", "in (0, 1000000]", r.screenMinCycles);
    if (!(r.confirmMargin >= 0.0 && r.confirmMargin <= 1e6))
        return bad("refinement.confirm_margin", "from 0 to 1000000", r.confirmMargin);
    if (r.maxReplications < 1 || r.maxReplications > sim::kMaxReplications)
        return bad("refinement.max_replications", "a whole number from 1 to 1000",
                   r.maxReplications);
    for (const auto* search : {&spec.capacity, &spec.headroom}) {
        const std::string key = search == &spec.capacity ? "capacity." : "headroom.";
        if (!(search->relativeTolerance > 0.0 && search->relativeTolerance < 1.0))
            return bad(key + "relative_tolerance", "in (0, 1)", search->relativeTolerance);
        if (search->maxEvaluations < 1 || search->maxEvaluations > 100)
            return bad(key + "max_evaluations", "a whole number from 1 to 100",
                       search->maxEvaluations);
        if (!(search->maxArrivalCv > 1.0 && search->maxArrivalCv <= 100.0))
            return bad(key + "max_arrival_cv", "in (1, 100]", search->maxArrivalCv);
    }
    return {};
}

} // namespace

const char* axisKindName(RegionAxisKind kind)
{
    for (const auto& info : kAxes) {
        if (info.kind == kind)
            return info.name;
    }
    return "?";
}

std::optional<RegionAxisKind> parseAxisKind(const std::string& name)
{
    for (const auto& info : kAxes) {
        if (name == info.name)
            return info.kind;
    }
    return std::nullopt;
}

std::string axisTitle(RegionAxisKind kind)
{
    for (const auto& info : kAxes) {
        if (info.kind == kind)
            return info.title;
    }
    return "?";
}

std::string RegionAxis::label(std::size_t index) const
{
    if (kind == RegionAxisKind::Precision)
        return names.at(index);
    return formatNumber(values.at(index));
}

const char* objectiveName(RegionObjective objective)
{
    switch (objective) {
    case RegionObjective::MaxThroughput:
        return "max-throughput";
    case RegionObjective::MinEnergy:
        return "min-energy";
    case RegionObjective::MinP99:
        return "min-p99";
    }
    return "?";
}

std::optional<RegionObjective> parseObjective(const std::string& name)
{
    for (auto o :
         {RegionObjective::MaxThroughput, RegionObjective::MinEnergy, RegionObjective::MinP99}) {
        if (name == objectiveName(o))
            return o;
    }
    return std::nullopt;
}

Status validate(const RegionSpec& spec, const std::string& path)
{
    if (auto status = checkAxes(spec, path); !status)
        return status;
    if (auto status = checkConstraints(spec, path); !status)
        return status;
    return checkSettings(spec, path);
}

nlohmann::json toJson(const RegionSpec& spec)
{
    json axes = json::array();
    for (const auto& axis : spec.axes) {
        json values = axis.kind == RegionAxisKind::Precision ? json(axis.names) : json(axis.values);
        axes.push_back({{"name", axisKindName(axis.kind)}, {"values", values}});
    }
    const auto& c = spec.constraints;
    json constraints = {{"sla_p99_ms", milliseconds(c.slaP99S)}, {"robust", c.robust}};
    io::putOptional(constraints, "min_throughput_per_s", c.minThroughputPerS);
    io::putOptional(constraints, "max_power_w", c.maxPowerW);
    io::putOptional(constraints, "max_temperature_c", c.maxTemperatureC);
    io::putOptional(constraints, "max_energy_per_inference_j", c.maxEnergyPerInferenceJ);
    const auto& r = spec.refinement;
    const auto search = [](const RegionSearch& s, bool cv) {
        json out = {{"enabled", s.enabled},
                    {"relative_tolerance", s.relativeTolerance},
                    {"max_evaluations", s.maxEvaluations}};
        if (cv)
            out["max_arrival_cv"] = s.maxArrivalCv;
        return out;
    };
    return {{"kind", "batchscope.region.spec"},
            {"schema", 1},
            {"scenario", sim::scenarioToJson(spec.scenario)},
            {"axes", axes},
            {"constraints", constraints},
            {"objective", objectiveName(spec.objective)},
            {"refinement",
             {{"screen", r.screen},
              {"screen_requests", r.screenRequests},
              {"screen_warmup_requests", r.screenWarmupRequests},
              {"screen_replications", r.screenReplications},
              {"screen_stages", r.screenStages},
              {"screen_half_widths", r.screenHalfWidths},
              {"screen_max_rho", r.screenMaxRho},
              {"screen_min_cycles", r.screenMinCycles},
              {"confirm_margin", r.confirmMargin},
              {"max_replications", r.maxReplications}}},
            {"capacity", search(spec.capacity, false)},
            {"headroom", search(spec.headroom, true)}};
}

} // namespace bs::analysis
