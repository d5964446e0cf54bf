#include "accel/acceleratorspec.h"

#include "accel/specjson.h"
#include "io/jsonfields.h"

namespace bs::accel {

namespace {

constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;
constexpr double kMicro = 1e-6;

using io::NumberRule;

NumberRule fraction()
{
    return {0.0, 1.0, true, false}; // (0, 1]
}

void readPeaks(io::JsonFields& fields, AcceleratorSpec& spec)
{
    const nlohmann::json* peaks = fields.object("peak_tflops", true);
    if (!peaks)
        return;
    io::JsonFields peakFields(*peaks, fields.child("peak_tflops"), fields.path());
    for (Precision p : kAllPrecisions) {
        if (auto tflops = peakFields.optionalNumber(precisionName(p), NumberRule::positive()))
            spec.peakFlopsPerS[p] = *tflops * kTera;
    }
    fields.adopt(peakFields.finish());
    if (fields.ok() && spec.peakFlopsPerS.empty())
        fields.fail("peak_tflops", "needs a peak for at least one of: " + precisionList());
}

void readThermal(io::JsonFields& fields, ThermalSpec& thermal)
{
    const nlohmann::json* object = fields.object("thermal");
    if (!object)
        return;
    io::JsonFields t(*object, fields.child("thermal"), fields.path());
    thermal.ambientC = t.numberOr("ambient_c", thermal.ambientC, NumberRule::range(-50, 100));
    thermal.resistanceCPerW =
        t.numberOr("resistance_c_per_w", thermal.resistanceCPerW, NumberRule::positive());
    thermal.capacitanceJPerC =
        t.numberOr("capacitance_j_per_c", thermal.capacitanceJPerC, NumberRule::positive());
    thermal.throttleC = t.numberOr("throttle_c", thermal.throttleC, NumberRule::range(-50, 200));
    if (t.ok() && thermal.throttleC <= thermal.ambientC) {
        t.fail("throttle_c", "must be above ambient_c (" + formatNumber(thermal.throttleC) +
                                 " <= " + formatNumber(thermal.ambientC) + ")");
    }
    fields.adopt(t.finish());
}

void readPower(io::JsonFields& fields, AcceleratorSpec& spec)
{
    spec.powerIdleW = fields.number("power_idle_w", NumberRule::nonNegative());
    spec.powerMaxW = fields.number("power_max_w", NumberRule::positive());
    spec.memoryActivity = fields.numberOr("memory_activity", spec.memoryActivity, fraction());
    spec.powerExponent =
        fields.numberOr("power_exponent", spec.powerExponent, NumberRule::range(1.0, 4.0));
    spec.minClockScale = fields.numberOr("min_clock_scale", spec.minClockScale, fraction());
    if (fields.ok() && spec.powerMaxW <= spec.powerIdleW) {
        fields.fail("power_max_w", "must be greater than power_idle_w (" +
                                       formatNumber(spec.powerMaxW) +
                                       " <= " + formatNumber(spec.powerIdleW) + ")");
    }
}

} // namespace

std::optional<double> AcceleratorSpec::peak(Precision precision) const
{
    const auto it = peakFlopsPerS.find(precision);
    if (it == peakFlopsPerS.end())
        return std::nullopt;
    return it->second;
}

std::string AcceleratorSpec::precisionsText() const
{
    std::string text;
    for (const auto& [precision, flops] : peakFlopsPerS)
        text += (text.empty() ? "" : ", ") + std::string(precisionName(precision));
    return text;
}

Expected<AcceleratorSpec> acceleratorFromJson(const nlohmann::json& object,
                                              const std::string& where, const std::string& path)
{
    io::JsonFields fields(object, where, path);
    AcceleratorSpec spec;
    spec.name = fields.stringOr("name", spec.name);
    spec.description = fields.stringOr("description", "");
    readPeaks(fields, spec);
    spec.memoryBandwidthBytesPerS =
        fields.number("memory_bandwidth_tb_per_s", NumberRule::positive()) * kTera;
    spec.memoryBytes = fields.numberOr("memory_gb", 0.0, NumberRule::nonNegative()) * kGiga;
    spec.launchOverheadS =
        fields.numberOr("launch_overhead_us", 0.0, NumberRule::nonNegative()) * kMicro;
    spec.hostLinkBytesPerS =
        fields.numberOr("host_link_gb_per_s", 0.0, NumberRule::nonNegative()) * kGiga;
    spec.etaCompute = fields.numberOr("eta_compute", spec.etaCompute, fraction());
    spec.etaMemory = fields.numberOr("eta_memory", spec.etaMemory, fraction());
    readPower(fields, spec);
    readThermal(fields, spec.thermal);
    spec.sources = readSources(fields);
    if (auto status = fields.finish(); !status)
        return status.error();
    return spec;
}

nlohmann::json toJson(const AcceleratorSpec& spec)
{
    nlohmann::json peaks = nlohmann::json::object();
    for (const auto& [precision, flops] : spec.peakFlopsPerS)
        peaks[precisionName(precision)] = flops / kTera;
    nlohmann::json out = {
        {"name", spec.name},
        {"description", spec.description},
        {"peak_tflops", peaks},
        {"memory_bandwidth_tb_per_s", spec.memoryBandwidthBytesPerS / kTera},
        {"memory_gb", spec.memoryBytes / kGiga},
        {"launch_overhead_us", spec.launchOverheadS / kMicro},
        {"eta_compute", spec.etaCompute},
        {"eta_memory", spec.etaMemory},
        {"power_idle_w", spec.powerIdleW},
        {"power_max_w", spec.powerMaxW},
        {"memory_activity", spec.memoryActivity},
        {"power_exponent", spec.powerExponent},
        {"min_clock_scale", spec.minClockScale},
        {"thermal",
         {{"ambient_c", spec.thermal.ambientC},
          {"resistance_c_per_w", spec.thermal.resistanceCPerW},
          {"capacitance_j_per_c", spec.thermal.capacitanceJPerC},
          {"throttle_c", spec.thermal.throttleC}}},
    };
    if (spec.hostLinkBytesPerS > 0.0)
        out["host_link_gb_per_s"] = spec.hostLinkBytesPerS / kGiga;
    writeSources(out, spec.sources);
    return out;
}

} // namespace bs::accel
