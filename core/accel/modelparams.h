#pragma once

#include "accel/acceleratorspec.h"
#include "accel/workloadspec.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace bs::accel {

class PresetLibrary;

/// Thermal settings of a model: the accelerator's RC values, each optionally replaced.
struct ThermalOverrides
{
    bool enabled = true; ///< false: no throttling, temperature stays at ambient.
    std::optional<double> ambientC;
    std::optional<double> resistanceCPerW;
    std::optional<double> capacitanceJPerC;
    std::optional<double> throttleC;

    friend bool operator==(const ThermalOverrides&, const ThermalOverrides&) = default;
};

/// Everything that defines a Model: the accelerator and workload (resolved specs), the knobs
/// (precision, fusion, power cap, smooth maximum) and calibrated values that replace the spec's
/// (a fit writes these). A JSON-serialisable value: toJson/paramsFromJson round-trip it.
struct ModelParams
{
    AcceleratorSpec accelerator;
    WorkloadSpec workload;
    Precision precision = Precision::Bf16;
    double fusionFactor = 1.0;       ///< φ ≥ 1: kernels/φ launches, bytes/item × φ^β.
    std::optional<double> powerCapW; ///< Board power limit; absent = none.
    std::optional<double>
        smoothMaxP; ///< p-norm exponent of the compute/memory max; absent = hard max.
    std::optional<double> hostOverheadS;  ///< Replaces workload.hostOverheadS.
    std::optional<double> etaCompute;     ///< Replaces accelerator.etaCompute.
    std::optional<double> etaMemory;      ///< Replaces accelerator.etaMemory.
    std::optional<double> powerIdleW;     ///< Replaces accelerator.powerIdleW.
    std::optional<double> powerMaxW;      ///< Replaces accelerator.powerMaxW.
    std::optional<double> memoryActivity; ///< Replaces accelerator.memoryActivity (κ, 0…1).
    ThermalOverrides thermal;

    double effectiveEtaCompute() const { return etaCompute.value_or(accelerator.etaCompute); }
    double effectiveEtaMemory() const { return etaMemory.value_or(accelerator.etaMemory); }
    double effectiveHostOverheadS() const { return hostOverheadS.value_or(workload.hostOverheadS); }
    double effectivePowerIdleW() const { return powerIdleW.value_or(accelerator.powerIdleW); }
    double effectivePowerMaxW() const { return powerMaxW.value_or(accelerator.powerMaxW); }
    double effectiveMemoryActivity() const
    {
        return memoryActivity.value_or(accelerator.memoryActivity);
    }
    /// The accelerator's thermal values with the overrides applied.
    ThermalSpec effectiveThermal() const;

    friend bool operator==(const ModelParams&, const ModelParams&) = default;
};

/// Checks what the JSON rules cannot: the accelerator has a peak for the precision, the power
/// cap lies above idle power, overrides keep P_max > P_idle. Messages start with `where`.
Status validate(const ModelParams& params, const std::string& where, const std::string& path);

/// Reads model parameters. "accelerator" and "workload" are each a preset name (looked up in
/// `library`) or an inline object; other keys: precision (default: the workload's),
/// fusion_factor, power_cap_w, smooth_max_p, host_overhead_us, eta_compute, eta_memory,
/// power_idle_w, power_max_w, memory_activity, thermal {enabled, ambient_c, resistance_c_per_w,
/// capacitance_j_per_c, throttle_c}, and an optional "kind": "accelerator" (so a simulator's
/// `service` object can be passed as it is). Unknown keys are errors.
Expected<ModelParams> paramsFromJson(const nlohmann::json& object, const std::string& where,
                                     const std::string& path, const PresetLibrary& library);

/// Writes the parameters. A spec equal to the built-in preset of its name is written as that
/// name; any other spec (user preset, inline, fitted) is written inline, so the JSON is
/// self-contained wherever it is read.
nlohmann::json toJson(const ModelParams& params);

} // namespace bs::accel
