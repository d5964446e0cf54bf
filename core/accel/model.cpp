#include "accel/model.h"

#include "accel/presetlibrary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <vector>

namespace bs::accel {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// JSON has no infinity: write null instead.
nlohmann::json finiteOrNull(double value)
{
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

} // namespace

const char* boundName(Bound bound)
{
    switch (bound) {
    case Bound::Overhead:
        return "overhead";
    case Bound::Memory:
        return "memory";
    case Bound::Compute:
        return "compute";
    }
    return "overhead";
}

Expected<Model> Model::create(const ModelParams& params)
{
    if (auto status = validate(params, "model", {}); !status)
        return status.error();
    return Model(params);
}

Model::Model(const ModelParams& params)
    : m_params(params)
{
    const AcceleratorSpec& a = params.accelerator;
    const WorkloadSpec& w = params.workload;
    const double bytes = bytesPerElement(params.precision);
    const double rate = a.peak(params.precision).value_or(1.0) * params.effectiveEtaCompute();
    const double bandwidth = a.memoryBandwidthBytesPerS * params.effectiveEtaMemory();
    const double phi = params.fusionFactor;

    m_flopsPerItem = w.flopsPerItem;
    m_weightBytes = w.weightElements * bytes;
    m_activationBytesPerItem =
        w.activationElementsPerItem * bytes * std::pow(phi, w.fusionTrafficExponent);
    // Resident memory counts what is alive at once, not what is moved: intermediate tensors
    // are freed layer by layer, a KV cache stays.
    m_residentBytesPerItem =
        (w.residentActivationElementsPerItem > 0.0 ? w.residentActivationElementsPerItem
                                                   : w.activationElementsPerItem) *
        bytes;
    m_workspaceBytes = w.workspaceBytes;
    m_computeSPerItem = m_flopsPerItem / rate;
    m_weightS = m_weightBytes / bandwidth;
    m_activationSPerItem = m_activationBytesPerItem / bandwidth;
    m_overheadS = params.effectiveHostOverheadS() + (w.kernels / phi) * a.launchOverheadS;
    m_smoothP = params.smoothMaxP.value_or(0.0);
    m_ridge = rate / bandwidth;

    m_idleW = params.effectivePowerIdleW();
    m_spanW = params.effectivePowerMaxW() - m_idleW;
    m_memoryActivity = params.effectiveMemoryActivity();
    m_gamma = a.powerExponent;
    m_minClock = a.minClockScale;
    m_capW = params.powerCapW.value_or(kInf);

    m_thermal = params.effectiveThermal();
    m_thermalEnabled = params.thermal.enabled;
    m_tauS = m_thermal.resistanceCPerW * m_thermal.capacitanceJPerC;
    m_holdW = (m_thermal.throttleC - m_thermal.ambientC) / m_thermal.resistanceCPerW;
    m_serveTable = std::make_shared<ServeTable>();
}

double Model::kernelS(double computeS, double memoryS) const
{
    const double hi = std::max(computeS, memoryS);
    if (m_smoothP <= 0.0 || hi <= 0.0)
        return hi;
    // (c^p + m^p)^(1/p), factored so neither power overflows.
    const double lo = std::min(computeS, memoryS);
    return hi * std::pow(1.0 + std::pow(lo / hi, m_smoothP), 1.0 / m_smoothP);
}

Model::Terms Model::terms(double batch) const
{
    Terms t;
    t.computeS = m_computeSPerItem * batch;
    t.memoryS = m_weightS + m_activationSPerItem * batch;
    const double total = m_overheadS + kernelS(t.computeS, t.memoryS);
    const double activity =
        total > 0.0 ? std::max(t.computeS, m_memoryActivity * t.memoryS) / total : 0.0;
    t.dynamicW = m_spanW * std::min(activity, 1.0);
    return t;
}

double Model::clockForPower(double limitW, double dynamicW) const
{
    if (m_idleW + dynamicW <= limitW)
        return 1.0;
    if (limitW <= m_idleW)
        return m_minClock;
    const double clock = std::pow((limitW - m_idleW) / dynamicW, 1.0 / m_gamma);
    return std::max(clock, m_minClock);
}

double Model::powerAt(double dynamicW, double clock) const
{
    return m_idleW + dynamicW * std::pow(clock, m_gamma);
}

double Model::relax(double temperatureC, double targetC, double durationS) const
{
    return targetC + (temperatureC - targetC) * std::exp(-durationS / m_tauS);
}

Prediction Model::predict(int batch) const
{
    Prediction p;
    p.batch = std::max(batch, 1);
    const double b = p.batch;
    const Terms t = terms(b);
    p.clockScale = clockForPower(m_capW, t.dynamicW);
    p.powerCapped = p.clockScale < 1.0;
    p.powerW = powerAt(t.dynamicW, p.clockScale);
    p.capUnreachable = p.powerW > m_capW * (1.0 + 1e-12);
    p.overheadS = m_overheadS;
    p.computeS = t.computeS / p.clockScale;
    p.memoryS = t.memoryS;
    p.serviceS = m_overheadS + kernelS(p.computeS, p.memoryS);
    p.throughputPerS = b / p.serviceS;
    p.energyPerInferenceJ = p.powerW * p.serviceS / b;
    p.arithmeticIntensity = m_flopsPerItem * b / (m_weightBytes + m_activationBytesPerItem * b);
    p.memoryBytesNeeded = m_weightBytes + m_residentBytesPerItem * b + m_workspaceBytes;
    p.ridgePoint = m_ridge;
    if (m_overheadS >= std::max(p.computeS, p.memoryS))
        p.bound = Bound::Overhead;
    else
        p.bound = p.computeS >= p.memoryS ? Bound::Compute : Bound::Memory;
    const double capacity = m_params.accelerator.memoryBytes;
    p.fitsInMemory = capacity <= 0.0 || p.memoryBytesNeeded <= capacity;
    return p;
}

Prediction Model::predictAtLoad(int batch, double offeredRatePerS) const
{
    Prediction p = predict(batch);
    if (!(offeredRatePerS > 0.0) || !std::isfinite(offeredRatePerS))
        return p;
    const double utilisation = std::min(1.0, offeredRatePerS / p.throughputPerS);
    p.throughputPerS = std::min(offeredRatePerS, p.throughputPerS);
    p.powerW = m_idleW + utilisation * (p.powerW - m_idleW);
    p.energyPerInferenceJ = p.powerW / p.throughputPerS;
    return p;
}

double Model::crossoverBatch() const
{
    // τ_c·b = τ_w + τ_a·b  ⇒  b* = τ_w / (τ_c − τ_a)
    const double slope = m_computeSPerItem - m_activationSPerItem;
    if (slope <= 0.0)
        return kInf;
    return m_weightS / slope;
}

int Model::firstComputeBoundBatch() const
{
    const double b = crossoverBatch();
    if (!std::isfinite(b) || b > double(std::numeric_limits<int>::max() - 1))
        return 0;
    return std::max(1, int(std::ceil(b)));
}

ThermalState Model::initialThermalState(double startS) const
{
    return {m_thermal.ambientC, startS};
}

struct Model::ServeTable
{
    std::once_flag once;
    std::vector<ServeRow> rows; ///< Index = batch size; row 0 unused.
};

Model::ServeEntry Model::serveEntry(const Terms& t, double clock) const
{
    ServeEntry e;
    e.clock = clock;
    e.serviceS = m_overheadS + kernelS(t.computeS / clock, t.memoryS);
    e.powerW = clock < 1.0 ? powerAt(t.dynamicW, clock) : m_idleW + t.dynamicW;
    e.targetC = m_thermal.ambientC + e.powerW * m_thermal.resistanceCPerW;
    e.decay = std::exp(-e.serviceS / m_tauS);
    return e;
}

Model::ServeRow Model::serveRow(int batch) const
{
    const Terms t = terms(batch);
    const double capClock = clockForPower(m_capW, t.dynamicW);
    // At the limit the firmware holds the power that keeps the die at T_throttle in steady
    // state, (T_thr − T_amb)/R, so throttling acts like a second power cap.
    const double hotClock = std::min(capClock, clockForPower(m_holdW, t.dynamicW));
    return {serveEntry(t, capClock), serveEntry(t, hotClock)};
}

const Model::ServeTable& Model::serveTable() const
{
    std::call_once(m_serveTable->once, [this] {
        m_serveTable->rows.resize(kServeTableBatches + 1);
        for (int b = 1; b <= kServeTableBatches; ++b)
            m_serveTable->rows[b] = serveRow(b);
    });
    return *m_serveTable;
}

BatchCost Model::serveBatch(int batch, ThermalState& state, double startS) const
{
    batch = std::max(batch, 1);
    double temperature = state.temperatureC;
    const double begin = std::max(startS, state.lastUpdateS);
    if (m_thermalEnabled && begin > state.lastUpdateS) {
        temperature = relax(temperature, m_thermal.ambientC + m_idleW * m_thermal.resistanceCPerW,
                            begin - state.lastUpdateS);
    }
    const bool throttled = m_thermalEnabled && temperature >= m_thermal.throttleC;
    ServeEntry e;
    if (batch <= kServeTableBatches) {
        const ServeRow& row = serveTable().rows[batch];
        e = throttled ? row.throttled : row.normal;
    } else {
        // The same numbers serveRow would give, computing only the entry needed.
        const Terms t = terms(batch);
        double clock = clockForPower(m_capW, t.dynamicW);
        if (throttled)
            clock = std::min(clock, clockForPower(m_holdW, t.dynamicW));
        e = serveEntry(t, clock);
    }
    if (m_thermalEnabled)
        temperature = e.targetC + (temperature - e.targetC) * e.decay;
    state.temperatureC = temperature;
    state.lastUpdateS = begin + e.serviceS;
    return {e.serviceS, e.powerW, e.powerW * e.serviceS, e.clock, temperature, throttled};
}

SustainedLoad Model::sustained(int batch) const
{
    const Prediction p = predict(batch);
    const Terms t = terms(p.batch);
    SustainedLoad s;
    s.batch = p.batch;
    s.powerW = p.powerW;
    s.clockScale = p.clockScale;
    s.serviceS = p.serviceS;
    s.throughputPerS = p.throughputPerS;
    s.settledPowerW = p.powerW;
    const double rise = p.powerW * m_thermal.resistanceCPerW;
    s.steadyStateC = m_thermal.ambientC + (m_thermalEnabled ? rise : 0.0);
    s.timeToThrottleS = kInf;
    if (!m_thermalEnabled || s.steadyStateC <= m_thermal.throttleC)
        return s;
    s.throttles = true;
    // T(t) = T_amb + rise·(1 − e^(−t/τ)) reaches T_thr at t = τ·ln(rise / (T_ss − T_thr)).
    s.timeToThrottleS = m_tauS * std::log(rise / (s.steadyStateC - m_thermal.throttleC));
    s.clockScale = std::min(p.clockScale, clockForPower(m_holdW, t.dynamicW));
    s.settledPowerW = powerAt(t.dynamicW, s.clockScale);
    s.serviceS = m_overheadS + kernelS(t.computeS / s.clockScale, t.memoryS);
    s.throughputPerS = p.batch / s.serviceS;
    s.steadyStateC = m_thermal.ambientC + s.settledPowerW * m_thermal.resistanceCPerW;
    return s;
}

Expected<Model> modelFromJson(const nlohmann::json& params, const std::string& where,
                              const std::string& path)
{
    return modelFromJson(params, where, path, PresetLibrary::builtIn());
}

Expected<Model> modelFromJson(const nlohmann::json& params, const std::string& where,
                              const std::string& path, const PresetLibrary& library)
{
    auto parsed = paramsFromJson(params, where, path, library);
    if (!parsed)
        return parsed.error();
    return Model::create(*parsed);
}

nlohmann::json toJson(const Model& model)
{
    return toJson(model.params());
}

nlohmann::json toJson(const Prediction& p)
{
    return {
        {"batch", p.batch},
        {"service_s", p.serviceS},
        {"throughput_per_s", p.throughputPerS},
        {"power_w", p.powerW},
        {"energy_per_inference_j", p.energyPerInferenceJ},
        {"arithmetic_intensity_flop_per_byte", p.arithmeticIntensity},
        {"ridge_point_flop_per_byte", p.ridgePoint},
        {"bound", boundName(p.bound)},
        {"clock_scale", p.clockScale},
        {"power_capped", p.powerCapped},
        {"cap_unreachable", p.capUnreachable},
        {"overhead_s", p.overheadS},
        {"compute_s", p.computeS},
        {"memory_s", p.memoryS},
        {"memory_bytes_needed", p.memoryBytesNeeded},
        {"fits_in_memory", p.fitsInMemory},
    };
}

nlohmann::json toJson(const SustainedLoad& s)
{
    return {
        {"batch", s.batch},
        {"power_w", s.powerW},
        {"steady_state_c", s.steadyStateC},
        {"throttles", s.throttles},
        {"time_to_throttle_s", finiteOrNull(s.timeToThrottleS)},
        {"clock_scale", s.clockScale},
        {"service_s", s.serviceS},
        {"throughput_per_s", s.throughputPerS},
        {"settled_power_w", s.settledPowerW},
    };
}

} // namespace bs::accel
