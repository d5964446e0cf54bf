#pragma once

#include "accel/precision.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>

namespace bs::accel {

/// First-order thermal (RC) parameters of one device and its cooling:
/// C·dT/dt = P − (T − T_amb)/R. The time constant is R·C seconds.
struct ThermalSpec
{
    double ambientC = 25.0;          ///< Inlet/ambient temperature, °C.
    double resistanceCPerW = 0.09;   ///< R: steady temperature rise per watt, °C/W.
    double capacitanceJPerC = 450.0; ///< C: heat capacity of die, package and heatsink, J/°C.
    double throttleC = 87.0;         ///< Temperature at which the firmware lowers the clock, °C.

    friend bool operator==(const ThermalSpec&, const ThermalSpec&) = default;
};

/// What the model needs to know about an accelerator. All values are per device, dense (no
/// structured-sparsity speed-ups), in SI units: FLOP/s, bytes/s, bytes, seconds, watts.
/// Presets name the public source of every number in `sources` (key → text).
struct AcceleratorSpec
{
    std::string name = "custom";
    std::string description;
    std::map<Precision, double> peakFlopsPerS; ///< Dense peak per precision (ops/s for int8).
    double memoryBandwidthBytesPerS = 0.0;
    double memoryBytes = 0.0;     ///< Capacity; 0 = unknown (no fit-in-memory check).
    double launchOverheadS = 0.0; ///< Per kernel launch, host + device side.
    /// Host-to-device link (PCIe, per direction); 0 = unknown. Sizes input copy times.
    double hostLinkBytesPerS = 0.0;
    double etaCompute = 0.7; ///< Achievable fraction of the peak rate in real kernels.
    double etaMemory = 0.85; ///< Achievable fraction of the memory bandwidth.
    double powerIdleW = 0.0; ///< Board power when idle at the operating clock.
    double powerMaxW = 0.0;  ///< Board power at full activity and full clock (TDP).
    /// Dynamic power of a memory-bound kernel relative to a compute-bound one at equal
    /// utilisation (streaming data moves less silicon than dense math); 0 < κ ≤ 1.
    double memoryActivity = 0.6;
    /// γ in P_dyn ∝ s^γ for clock scale s = f/f_max (dynamic power ∝ f·V², V roughly ∝ f).
    double powerExponent = 3.0;
    double minClockScale = 0.3; ///< Lowest clock the firmware goes to, as a fraction of max.
    ThermalSpec thermal;
    std::map<std::string, std::string> sources;

    /// The dense peak for a precision, or nothing when the device has none.
    std::optional<double> peak(Precision precision) const;
    /// "fp32, fp16, int8": the precisions this device has a peak for.
    std::string precisionsText() const;

    friend bool operator==(const AcceleratorSpec&, const AcceleratorSpec&) = default;
};

/// Reads an accelerator object (a preset file or an inline object in model parameters).
/// Keys: name, description, peak_tflops {precision: TFLOP/s}, memory_bandwidth_tb_per_s,
/// memory_gb, launch_overhead_us, eta_compute, eta_memory, power_idle_w, power_max_w,
/// memory_activity, power_exponent, min_clock_scale, thermal {ambient_c, resistance_c_per_w,
/// capacitance_j_per_c, throttle_c}, sources {key: text}. `where` prefixes error messages.
Expected<AcceleratorSpec> acceleratorFromJson(const nlohmann::json& object,
                                              const std::string& where, const std::string& path);

/// The inverse of acceleratorFromJson (same keys and units).
nlohmann::json toJson(const AcceleratorSpec& spec);

} // namespace bs::accel
