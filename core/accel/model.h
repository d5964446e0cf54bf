#pragma once

#include "accel/modelparams.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace bs::accel {

class PresetLibrary;

/// Which term dominates the service time of a batch.
enum class Bound
{
    Overhead, ///< Host time and kernel launches exceed the kernel time.
    Memory,   ///< Moving weights and activations takes longer than the math.
    Compute,  ///< The math takes longer than the data movement.
};

const char* boundName(Bound bound);

/// What the model predicts for one batch size on a cool device (below the throttle
/// temperature), with the power cap applied. Units: s, 1/s, W, J, FLOP/byte.
struct Prediction
{
    int batch = 1;
    double serviceS = 0.0;            ///< t(b): host + launches + kernel time.
    double throughputPerS = 0.0;      ///< b / t(b), items per second.
    double powerW = 0.0;              ///< Board power while the batch runs.
    double energyPerInferenceJ = 0.0; ///< P(b)·t(b)/b.
    double arithmeticIntensity = 0.0; ///< F(b)/M(b), FLOP per byte.
    double ridgePoint = 0.0;          ///< Achievable rate / achievable bandwidth, FLOP per byte.
    Bound bound = Bound::Overhead;
    double clockScale = 1.0;     ///< f/f_max under the power cap.
    bool powerCapped = false;    ///< The cap lowered the clock.
    bool capUnreachable = false; ///< Even the lowest clock draws more than the cap.
    double overheadS = 0.0;      ///< t_host + launches.
    double computeS = 0.0;       ///< F(b)/(P·η_c) at this clock.
    double memoryS = 0.0;        ///< M(b)/(BW·η_m).
    /// Weights + resident activation bytes of b items + the runtime's workspace.
    double memoryBytesNeeded = 0.0;
    bool fitsInMemory = true; ///< False when the device capacity is known and exceeded.
};

/// Temperature of one device and the time it was last brought up to date. Start from
/// Model::initialThermalState() (ambient).
struct ThermalState
{
    double temperatureC = 25.0;
    double lastUpdateS = 0.0;
};

/// What serving one batch cost, from Model::serveBatch.
struct BatchCost
{
    double serviceS = 0.0;
    double powerW = 0.0;
    double energyJ = 0.0;
    double clockScale = 1.0;   ///< Under the power cap and thermal throttling.
    double temperatureC = 0.0; ///< At the end of the batch.
    bool throttled = false;    ///< The device was at or above the throttle temperature.
};

/// Back-to-back batches of one size, run for a long time from ambient.
struct SustainedLoad
{
    int batch = 1;
    double powerW = 0.0;          ///< Before any throttling (power cap applied).
    double steadyStateC = 0.0;    ///< Where the temperature settles (throttled or not).
    bool throttles = false;       ///< The unthrottled steady state lies above the limit.
    double timeToThrottleS = 0.0; ///< From ambient; +inf when it never throttles.
    double clockScale = 1.0;      ///< Once settled.
    double serviceS = 0.0;        ///< Once settled.
    double throughputPerS = 0.0;  ///< Once settled.
    double settledPowerW = 0.0;   ///< Once settled.
};

/// The accelerator model (see core/accel/README.md for the equations):
///
///   t(b) = t_host + (n_kernels/φ)·t_launch + smax_p(F·b/(P·η_c·s), (W + A·φ^β·b)/(BW·η_m))
///   P(b) = P_idle + (P_max − P_idle)·activity(b)·s^γ,  activity = max(u_c, κ·u_m)
///
/// with s the clock scale the power cap (and, in serveBatch, thermal throttling) imposes.
/// Immutable after creation; all methods are const, allocation-free and thread-safe.
class Model
{
public:
    /// Validates the parameters and precomputes the per-item constants.
    static Expected<Model> create(const ModelParams& params);

    const ModelParams& params() const { return m_params; }

    /// The prediction for `batch` items (batch < 1 is treated as 1).
    Prediction predict(int batch) const;
    /// The same batch at an offered load of `offeredRatePerS` items per second, as a sweep run
    /// at that load measures it: throughput min(offered, b / t(b)), board power averaged over
    /// busy (P(b)) and idle time at utilisation min(1, offered t(b) / b), energy per inference
    /// = that power / throughput. Service time and the bound stay those of the batch.
    Prediction predictAtLoad(int batch, double offeredRatePerS) const;
    /// b*: the (real-valued) batch size above which the work is compute-bound at full clock;
    /// +inf when memory traffic grows faster per item than math, 0 when always compute-bound.
    double crossoverBatch() const;
    /// The smallest whole batch size that is compute-bound, or 0 when none is.
    int firstComputeBoundBatch() const;
    /// Achievable rate / achievable bandwidth (FLOP/byte): AI above it means compute-bound.
    double ridgePoint() const { return m_ridge; }

    /// The device at ambient temperature at time `startS`.
    ThermalState initialThermalState(double startS = 0.0) const;
    /// Serves one batch starting at `startS` (seconds, simulation time): cools the device over
    /// the idle gap since state.lastUpdateS at idle power, picks the clock (power cap; thermal
    /// throttling when the temperature at the start is at or above the limit), then heats it
    /// over the busy interval and updates `state`. Closed-form RC solutions: exact for any
    /// gap or batch length. A start before state.lastUpdateS is taken as no gap.
    /// Cost: one exp and a table lookup for batches up to kServeTableBatches (the table of
    /// per-batch costs is built once per model, on the first call, thread-safely, and shared
    /// by copies); batches above are computed directly (a few pow). No allocation after that.
    BatchCost serveBatch(int batch, ThermalState& state, double startS) const;
    /// Time to throttle and steady state for back-to-back batches of `batch` items.
    SustainedLoad sustained(int batch) const;

    /// Batch sizes whose serving cost serveBatch precomputes.
    static constexpr int kServeTableBatches = 1024;

private:
    explicit Model(const ModelParams& params);

    struct Terms
    {
        double computeS; ///< At full clock.
        double memoryS;
        double dynamicW; ///< (P_max − P_idle)·activity at full clock.
    };
    Terms terms(double batch) const;
    double kernelS(double computeS, double memoryS) const;
    /// The clock at which idle + dynamic·s^γ meets `limitW`, floored at the minimum clock.
    double clockForPower(double limitW, double dynamicW) const;
    double powerAt(double dynamicW, double clock) const;
    double relax(double temperatureC, double targetC, double durationS) const;

    /// The cost of a batch at one throttle state, with what the thermal update needs.
    struct ServeEntry
    {
        double serviceS;
        double powerW;
        double clock;
        double targetC; ///< T_amb + P·R: where the temperature heads while it runs.
        double decay;   ///< e^(−t/τ) over the batch.
    };
    struct ServeRow
    {
        ServeEntry normal;
        ServeEntry throttled;
    };
    struct ServeTable;
    ServeRow serveRow(int batch) const;
    ServeEntry serveEntry(const Terms& terms, double clock) const;
    const ServeTable& serveTable() const;

    ModelParams m_params;
    double m_computeSPerItem = 0.0;
    double m_weightS = 0.0;
    double m_activationSPerItem = 0.0;
    double m_flopsPerItem = 0.0;
    double m_weightBytes = 0.0;
    double m_activationBytesPerItem = 0.0;
    double m_residentBytesPerItem = 0.0; ///< Activation bytes alive at once, per item.
    double m_workspaceBytes = 0.0;       ///< The runtime's own memory (workload spec).
    double m_overheadS = 0.0;
    double m_smoothP = 0.0; ///< 0 = hard max.
    double m_ridge = 0.0;
    double m_idleW = 0.0;
    double m_spanW = 0.0; ///< P_max − P_idle.
    double m_memoryActivity = 1.0;
    double m_gamma = 3.0;
    double m_minClock = 0.3;
    double m_capW = 0.0; ///< +inf without a cap.
    ThermalSpec m_thermal;
    bool m_thermalEnabled = true;
    double m_tauS = 1.0;  ///< R·C.
    double m_holdW = 0.0; ///< Power that holds the throttle temperature: (T_thr − T_amb)/R.
    std::shared_ptr<ServeTable> m_serveTable;
};

/// Reads model parameters (see paramsFromJson) with preset names looked up in the built-in
/// presets, and creates the model.
Expected<Model> modelFromJson(const nlohmann::json& params, const std::string& where,
                              const std::string& path);
/// The same, with preset names looked up in `library` (built-in plus user folders).
Expected<Model> modelFromJson(const nlohmann::json& params, const std::string& where,
                              const std::string& path, const PresetLibrary& library);
/// The model's parameters as JSON (toJson(model.params())).
nlohmann::json toJson(const Model& model);
/// One prediction as JSON (SI units, names carry units).
nlohmann::json toJson(const Prediction& prediction);
nlohmann::json toJson(const SustainedLoad& sustained);

} // namespace bs::accel
