#include "accel/modelparams.h"

#include "accel/presetlibrary.h"
#include "accel/specjson.h"
#include "io/jsonfields.h"

#include <cmath>

namespace bs::accel {

namespace {

constexpr double kMicro = 1e-6;
using io::NumberRule;

NumberRule fraction()
{
    return {0.0, 1.0, true, false}; // (0, 1]
}

/// A preset name looked up in the library, or an inline object.
template <typename Spec, typename Lookup, typename Parse>
std::optional<Spec> readSpec(io::JsonFields& fields, const nlohmann::json& object, const char* key,
                             Lookup lookup, Parse parse)
{
    const bool isName = object.is_object() && object.contains(key) && object[key].is_string();
    if (isName) {
        auto spec = lookup(fields.string(key));
        if (!spec) {
            fields.fail(key, spec.error().message);
            return std::nullopt;
        }
        return std::move(*spec);
    }
    const bool isObject = object.is_object() && object.contains(key) && object[key].is_object();
    if (!isObject) {
        fields.fail(key,
                    fields.has(key) ? "must be a preset name or an object"
                                    : "missing; expected a preset name or an object",
                    ErrorCode::Format);
        fields.object(key); // marks the key as read
        return std::nullopt;
    }
    auto spec = parse(*fields.object(key), fields.child(key), fields.path());
    if (!spec) {
        fields.adopt(spec.error());
        return std::nullopt;
    }
    return std::move(*spec);
}

void readThermal(io::JsonFields& fields, ThermalOverrides& thermal)
{
    const nlohmann::json* object = fields.object("thermal");
    if (!object)
        return;
    io::JsonFields t(*object, fields.child("thermal"), fields.path());
    thermal.enabled = t.boolean("enabled", true);
    thermal.ambientC = t.optionalNumber("ambient_c", NumberRule::range(-50, 100));
    thermal.resistanceCPerW = t.optionalNumber("resistance_c_per_w", NumberRule::positive());
    thermal.capacitanceJPerC = t.optionalNumber("capacitance_j_per_c", NumberRule::positive());
    thermal.throttleC = t.optionalNumber("throttle_c", NumberRule::range(-50, 200));
    fields.adopt(t.finish());
}

void readKnobs(io::JsonFields& fields, ModelParams& params)
{
    params.fusionFactor = fields.numberOr("fusion_factor", 1.0, NumberRule::atLeast(1.0));
    params.powerCapW = fields.optionalNumber("power_cap_w", NumberRule::positive());
    params.smoothMaxP = fields.optionalNumber("smooth_max_p", NumberRule::range(1.0, 64.0));
    if (auto us = fields.optionalNumber("host_overhead_us", NumberRule::nonNegative()))
        params.hostOverheadS = *us * kMicro;
    params.etaCompute = fields.optionalNumber("eta_compute", fraction());
    params.etaMemory = fields.optionalNumber("eta_memory", fraction());
    params.powerIdleW = fields.optionalNumber("power_idle_w", NumberRule::nonNegative());
    params.powerMaxW = fields.optionalNumber("power_max_w", NumberRule::positive());
    params.memoryActivity = fields.optionalNumber("memory_activity", NumberRule::range(0.0, 1.0));
    readThermal(fields, params.thermal);
}

} // namespace

ThermalSpec ModelParams::effectiveThermal() const
{
    ThermalSpec t = accelerator.thermal;
    t.ambientC = thermal.ambientC.value_or(t.ambientC);
    t.resistanceCPerW = thermal.resistanceCPerW.value_or(t.resistanceCPerW);
    t.capacitanceJPerC = thermal.capacitanceJPerC.value_or(t.capacitanceJPerC);
    t.throttleC = thermal.throttleC.value_or(t.throttleC);
    return t;
}

Status validate(const ModelParams& params, const std::string& where, const std::string& path)
{
    auto fail = [&](const std::string& key, const std::string& message) {
        return makeError(ErrorCode::Value, path, 0, 0, where + "." + key + ": " + message);
    };
    if (!params.accelerator.peak(params.precision)) {
        return fail("precision", "accelerator '" + params.accelerator.name + "' has no peak for " +
                                     precisionName(params.precision) +
                                     " (it has: " + params.accelerator.precisionsText() + ")");
    }
    const double idle = params.effectivePowerIdleW();
    const double max = params.effectivePowerMaxW();
    if (max <= idle) {
        return fail("power_max_w", "must be greater than the idle power (" + formatNumber(max) +
                                       " W <= " + formatNumber(idle) + " W)");
    }
    if (params.powerCapW && *params.powerCapW <= idle) {
        return fail("power_cap_w", "must be above the idle power of " + formatNumber(idle) +
                                       " W (got " + formatNumber(*params.powerCapW) + ")");
    }
    if (params.fusionFactor < 1.0 || !std::isfinite(params.fusionFactor))
        return fail("fusion_factor",
                    "must be at least 1 (got " + formatNumber(params.fusionFactor) + ")");
    const ThermalSpec t = params.effectiveThermal();
    if (t.throttleC <= t.ambientC) {
        return fail("thermal.throttle_c", "must be above the ambient temperature (" +
                                              formatNumber(t.throttleC) +
                                              " <= " + formatNumber(t.ambientC) + ")");
    }
    return {};
}

Expected<ModelParams> paramsFromJson(const nlohmann::json& object, const std::string& where,
                                     const std::string& path, const PresetLibrary& library)
{
    io::JsonFields fields(object, where, path);
    ModelParams params;
    fields.choice("kind", {"accelerator"}, "accelerator");
    auto accelerator = readSpec<AcceleratorSpec>(
        fields, object, "accelerator", [&](const std::string& n) { return library.accelerator(n); },
        acceleratorFromJson);
    auto workload = readSpec<WorkloadSpec>(
        fields, object, "workload", [&](const std::string& n) { return library.workload(n); },
        workloadFromJson);
    const std::string precision =
        fields.choice("precision", {"fp32", "tf32", "bf16", "fp16", "fp8", "int8"},
                      workload ? precisionName(workload->defaultPrecision) : "bf16");
    readKnobs(fields, params);
    if (auto status = fields.finish(); !status)
        return status.error();
    params.accelerator = std::move(*accelerator);
    params.workload = std::move(*workload);
    params.precision = parsePrecision(precision).value_or(Precision::Bf16);
    if (auto status = validate(params, where, path); !status)
        return status.error();
    return params;
}

nlohmann::json toJson(const ModelParams& params)
{
    const auto& builtIn = PresetLibrary::builtIn();
    auto builtInAccelerator = builtIn.accelerator(params.accelerator.name);
    auto builtInWorkload = builtIn.workload(params.workload.name);
    nlohmann::json out = nlohmann::json::object();
    out["accelerator"] = builtInAccelerator && *builtInAccelerator == params.accelerator
                             ? nlohmann::json(params.accelerator.name)
                             : toJson(params.accelerator);
    out["workload"] = builtInWorkload && *builtInWorkload == params.workload
                          ? nlohmann::json(params.workload.name)
                          : toJson(params.workload);
    out["precision"] = precisionName(params.precision);
    out["fusion_factor"] = params.fusionFactor;
    io::putOptional(out, "power_cap_w", params.powerCapW);
    io::putOptional(out, "smooth_max_p", params.smoothMaxP);
    if (params.hostOverheadS)
        out["host_overhead_us"] = *params.hostOverheadS / kMicro;
    io::putOptional(out, "eta_compute", params.etaCompute);
    io::putOptional(out, "eta_memory", params.etaMemory);
    io::putOptional(out, "power_idle_w", params.powerIdleW);
    io::putOptional(out, "power_max_w", params.powerMaxW);
    io::putOptional(out, "memory_activity", params.memoryActivity);
    if (params.thermal != ThermalOverrides{}) {
        nlohmann::json thermal = {{"enabled", params.thermal.enabled}};
        io::putOptional(thermal, "ambient_c", params.thermal.ambientC);
        io::putOptional(thermal, "resistance_c_per_w", params.thermal.resistanceCPerW);
        io::putOptional(thermal, "capacitance_j_per_c", params.thermal.capacitanceJPerC);
        io::putOptional(thermal, "throttle_c", params.thermal.throttleC);
        out["thermal"] = std::move(thermal);
    }
    return out;
}

} // namespace bs::accel
