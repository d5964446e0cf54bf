// regionSpecFromJson: the JSON reader of RegionSpec (checked key by key).
#include "analysis/regionspec.h"
#include "io/jsonfields.h"
#include "sim/scenariojson.h"

namespace bs::analysis {

namespace {

using nlohmann::json;

std::vector<std::string> axisKindList()
{
    std::vector<std::string> out;
    for (auto kind :
         {RegionAxisKind::MaxBatch, RegionAxisKind::MaxQueueDelayMs, RegionAxisKind::RatePerS,
          RegionAxisKind::RateMultiplier, RegionAxisKind::Servers, RegionAxisKind::Precision,
          RegionAxisKind::PowerCapW})
        out.emplace_back(axisKindName(kind));
    return out;
}

Expected<RegionAxis> readAxis(const json& object, const std::string& where, const std::string& path)
{
    io::JsonFields f(object, where, path);
    const std::string name = f.string("name");
    const json* values = f.array("values", true);
    if (auto status = f.finish(); !status)
        return status.error();
    const auto kind = parseAxisKind(name);
    if (!kind) {
        std::string list;
        for (const auto& k : axisKindList())
            list += (list.empty() ? "" : ", ") + k;
        return makeError(ErrorCode::Value, path, 0, 0,
                         where + ".name: unknown axis '" + name + "'; expected one of: " + list);
    }
    RegionAxis axis;
    axis.kind = *kind;
    for (std::size_t i = 0; i < values->size(); ++i) {
        const auto& item = (*values)[i];
        const std::string itemWhere = where + ".values[" + std::to_string(i) + "]";
        if (axis.kind == RegionAxisKind::Precision) {
            if (!item.is_string())
                return makeError(ErrorCode::Format, path, 0, 0,
                                 itemWhere + ": must be a precision name such as \"int8\"");
            axis.names.push_back(item.get<std::string>());
        } else {
            if (!item.is_number())
                return makeError(ErrorCode::Format, path, 0, 0, itemWhere + ": must be a number");
            axis.values.push_back(item.get<double>());
        }
    }
    return axis;
}

Status readAxes(io::JsonFields& f, const std::string& path, RegionSpec& out)
{
    const json* axes = f.array("axes", true);
    if (!axes)
        return f.finish();
    for (std::size_t a = 0; a < axes->size(); ++a) {
        auto axis = readAxis((*axes)[a], "region.axes[" + std::to_string(a) + "]", path);
        if (!axis)
            return axis.error();
        out.axes.push_back(std::move(*axis));
    }
    return {};
}

Status readConstraints(const json& object, const std::string& path, RegionConstraints& out)
{
    io::JsonFields f(object, "region.constraints", path);
    // Range checks (> 0) are validate()'s, so code-built specs get the same messages.
    out.slaP99S = f.number("sla_p99_ms") / 1000.0;
    out.robust = f.boolean("robust", false);
    out.minThroughputPerS = f.optionalNumber("min_throughput_per_s");
    out.maxPowerW = f.optionalNumber("max_power_w");
    out.maxTemperatureC = f.optionalNumber("max_temperature_c");
    out.maxEnergyPerInferenceJ = f.optionalNumber("max_energy_per_inference_j");
    return f.finish();
}

Status readRefinement(const json* object, const std::string& path, RegionRefinement& out)
{
    if (!object)
        return {};
    io::JsonFields f(*object, "region.refinement", path);
    out.screen = f.boolean("screen", out.screen);
    out.screenRequests = f.unsignedOr("screen_requests", out.screenRequests);
    out.screenWarmupRequests = f.unsignedOr("screen_warmup_requests", out.screenWarmupRequests);
    out.screenReplications =
        int(f.integerOr("screen_replications", out.screenReplications, {-1e9, 1e9}));
    out.screenStages = int(f.integerOr("screen_stages", out.screenStages, {-1e9, 1e9}));
    out.screenHalfWidths = f.numberOr("screen_half_widths", out.screenHalfWidths);
    out.screenMaxRho = f.numberOr("screen_max_rho", out.screenMaxRho);
    out.screenMinCycles = f.numberOr("screen_min_cycles", out.screenMinCycles);
    out.confirmMargin = f.numberOr("confirm_margin", out.confirmMargin);
    out.maxReplications = int(f.integerOr("max_replications", out.maxReplications, {-1e9, 1e9}));
    return f.finish();
}

Status readSearch(const json* object, const char* where, bool cv, const std::string& path,
                  RegionSearch& out)
{
    if (!object)
        return {};
    io::JsonFields f(*object, where, path);
    out.enabled = f.boolean("enabled", out.enabled);
    out.relativeTolerance = f.numberOr("relative_tolerance", out.relativeTolerance);
    out.maxEvaluations = int(f.integerOr("max_evaluations", out.maxEvaluations, {-1e9, 1e9}));
    if (cv)
        out.maxArrivalCv = f.numberOr("max_arrival_cv", out.maxArrivalCv);
    return f.finish();
}

} // namespace

Expected<RegionSpec> regionSpecFromJson(const nlohmann::json& json, const std::string& path)
{
    io::JsonFields f(json, "region", path);
    RegionSpec out;
    if (f.has("kind"))
        f.choice("kind", {"batchscope.region.spec"});
    if (f.has("schema"))
        f.integer("schema", io::NumberRule::range(1, 1));
    const auto* scenario = f.object("scenario", true);
    const auto* constraints = f.object("constraints", true);
    const std::string objective =
        f.choice("objective", {"max-throughput", "min-energy", "min-p99"}, "max-throughput");
    const auto* refinement = f.object("refinement");
    const auto* capacity = f.object("capacity");
    const auto* headroom = f.object("headroom");
    if (auto status = readAxes(f, path, out); !status)
        return status.error();
    if (auto status = f.finish(); !status)
        return status.error();
    out.objective = *parseObjective(objective);
    auto parsed = sim::scenarioFromJson(*scenario, path);
    if (!parsed)
        return parsed.error();
    out.scenario = std::move(*parsed);
    for (auto status : {readConstraints(*constraints, path, out.constraints),
                        readRefinement(refinement, path, out.refinement),
                        readSearch(capacity, "region.capacity", false, path, out.capacity),
                        readSearch(headroom, "region.headroom", true, path, out.headroom)}) {
        if (!status)
            return status.error();
    }
    if (auto status = validate(out, path); !status)
        return status.error();
    return out;
}

} // namespace bs::analysis
