#include "analysis/projectregion.h"

#include "analysis/llmregionpack.h"
#include "sim/scenariojson.h"

namespace bs::analysis {

namespace {

Expected<std::vector<double>> numbersAt(const nlohmann::json& region, const char* key,
                                        std::vector<double> fallback)
{
    if (!region.contains(key))
        return fallback;
    const auto& value = region[key];
    if (!value.is_array())
        return makeError(ErrorCode::Value,
                         std::string("region.") + key + ": must be a list of numbers");
    std::vector<double> numbers;
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (!value[i].is_number())
            return makeError(ErrorCode::Value, std::string("region.") + key + "[" +
                                                   std::to_string(i) + "]: must be a number");
        numbers.push_back(value[i].get<double>());
    }
    return numbers;
}

std::optional<double> optionalNumber(const nlohmann::json& region, const char* key)
{
    if (region.contains(key) && region[key].is_number())
        return region[key].get<double>();
    return std::nullopt;
}

} // namespace

Status checkRegionSection(const nlohmann::json& region, const std::string& where)
{
    if (region.is_null())
        return {};
    if (!region.is_object())
        return makeError(ErrorCode::Format, where + ": must be an object");
    // The keys other code reads with is_number() checks would otherwise drop a wrong type
    // silently (a limit of "x" vanished from the curve pack) or throw (robust: "yes").
    auto bad = [&where](const std::string& key, const char* what) {
        return makeError(ErrorCode::Format, where + "." + key + ": " + what);
    };
    for (const char* key : {"sla_p99_ms", "min_throughput_per_s", "max_power_w",
                            "max_temperature_c", "max_energy_per_inference_j"}) {
        if (region.contains(key) && !region[key].is_number())
            return bad(key, "must be a number");
    }
    for (const char* key : {"max_batch_values", "max_queue_delay_ms_values", "rate_per_s_values"}) {
        if (!region.contains(key))
            continue;
        if (!region[key].is_array())
            return bad(key, "must be a list of numbers");
        for (std::size_t i = 0; i < region[key].size(); ++i)
            if (!region[key][i].is_number())
                return bad(std::string(key) + "[" + std::to_string(i) + "]", "must be a number");
    }
    if (region.contains("robust") && !region["robust"].is_boolean())
        return bad("robust", "must be true or false");
    if (region.contains("objective") && (!region["objective"].is_string() ||
                                         !parseObjective(region["objective"].get<std::string>())))
        return bad("objective", "must be max-throughput, min-energy or min-p99");
    return {};
}

nlohmann::json scenarioWithProjectModel(const nlohmann::json& scenario, const nlohmann::json& model)
{
    nlohmann::json out = scenario;
    if (!out.is_object() || !out.contains("service") || !out["service"].is_object())
        return out;
    auto& service = out["service"];
    const bool accelerator = service.contains("kind") && service["kind"].is_string() &&
                             service["kind"].get<std::string>() == "accelerator";
    if (accelerator && !service.contains("model") && model.is_object() && !model.empty())
        service["model"] = model;
    return out;
}

Expected<std::optional<RegionSpec>> regionSpecFromSections(const nlohmann::json& scenario,
                                                           const nlohmann::json& model,
                                                           const nlohmann::json& region)
{
    if (region.is_object()) {
        if (auto status = checkRegionSection(region, "region"); !status)
            return status.error();
    }
    if (!region.is_object() || !optionalNumber(region, "sla_p99_ms") || !scenario.is_object())
        return std::optional<RegionSpec>();
    auto parsed = sim::scenarioFromJson(scenarioWithProjectModel(scenario, model), "scenario");
    if (!parsed)
        return parsed.error();
    RegionSpec spec;
    spec.scenario = std::move(*parsed);
    const struct
    {
        RegionAxisKind kind;
        const char* key;
        std::vector<double> fallback;
    } axes[] = {
        {RegionAxisKind::MaxBatch, "max_batch_values", {1, 2, 4, 8, 16, 32, 64}},
        {RegionAxisKind::MaxQueueDelayMs, "max_queue_delay_ms_values", {0, 0.5, 1, 2, 5, 10}},
        {RegionAxisKind::RatePerS, "rate_per_s_values", {}},
    };
    for (const auto& axis : axes) {
        auto values = numbersAt(region, axis.key, axis.fallback);
        if (!values)
            return values.error();
        if (!values->empty())
            spec.axes.push_back({axis.kind, std::move(*values), {}});
    }
    spec.constraints.slaP99S = *optionalNumber(region, "sla_p99_ms") / 1e3;
    spec.constraints.robust = region.value("robust", false);
    spec.constraints.minThroughputPerS = optionalNumber(region, "min_throughput_per_s");
    spec.constraints.maxPowerW = optionalNumber(region, "max_power_w");
    spec.constraints.maxTemperatureC = optionalNumber(region, "max_temperature_c");
    spec.constraints.maxEnergyPerInferenceJ = optionalNumber(region, "max_energy_per_inference_j");
    if (region.contains("objective")) {
        const auto objective = region["objective"].is_string()
                                   ? parseObjective(region["objective"].get<std::string>())
                                   : std::nullopt;
        if (!objective)
            return makeError(ErrorCode::Value,
                             "region.objective: must be max-throughput, min-energy or min-p99");
        spec.objective = *objective;
    }
    if (auto status = validate(spec, "region"); !status)
        return status.error();
    return std::optional<RegionSpec>(std::move(spec));
}

Expected<std::optional<RegionSpec>> regionSpecOfProject(const data::Project& project)
{
    if (!project.scenarios.is_array() || project.scenarios.empty())
        return std::optional<RegionSpec>();
    return regionSpecFromSections(project.scenarios[0], project.model, project.region);
}

Expected<std::optional<LlmRegionSpec>> llmRegionSpecOfProject(const data::Project& project,
                                                              const std::string& projectPath)
{
    if (project.llm.empty())
        return std::optional<LlmRegionSpec>();
    auto spec = llmRegionSpecFromJson(project.llm, projectPath, "llm");
    if (!spec)
        return spec.error();
    return std::optional<LlmRegionSpec>(std::move(*spec));
}

} // namespace bs::analysis
