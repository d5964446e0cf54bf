#pragma once

#include "accel/precision.h"
#include "llmsim/modelshape.h"
#include "llmsim/steptimemodel.h"

#include <cstdint>
#include <memory>
#include <string>

namespace bs::llmsim {

/// The terms of one roofline step, per GPU of the replica (README.md: "Step time: roofline").
/// Times at full clock; seconds, FLOPs, bytes, watts.
struct RooflineTerms
{
    double flops = 0.0;       ///< Matmuls (2 per weight and token) plus attention.
    double weightBytes = 0.0; ///< Weights streamed once per step (touched experts only).
    double kvBytes = 0.0;     ///< KV cache read (Σ c + k tokens) and written (Σ k tokens).
    double computeS = 0.0;    ///< flops / (peak · η_c).
    double memoryS = 0.0;     ///< (weightBytes + kvBytes) / (bandwidth · η_m).
    double allReduceS = 0.0;  ///< Tensor-parallel all-reduces, 2 per layer.
    double overheadS = 0.0;   ///< overhead_ms + kernel launches.
    double dynamicW = 0.0;    ///< (P_max − P_idle) · activity, at full clock.

    double fullClockS() const;
    bool computeBound() const { return computeS >= memoryS; }
};

/// Step time from the model's shape on an accelerator preset: compute- or memory-bound per step
/// (a roofline), plus launch overhead and tensor-parallel all-reduces; board power from the
/// accelerator's power model (idle + activity · s^γ), with the power cap and thermal throttling
/// setting the clock s as core/accel does. Immutable; the temperature travels in the
/// accel::ThermalState the engine passes to stepCost.
class RooflineStepTime final : public StepTimeModel
{
public:
    /// `spec` must have been validated (loadRooflineStepTime does it).
    RooflineStepTime(const ModelShape& shape, const StepSpec& spec);

    /// A cool device (below the throttle temperature), the power cap applied.
    double stepS(std::span<const ScheduledChunk> chunks) const override;
    StepCost stepCost(std::span<const ScheduledChunk> chunks, accel::ThermalState& state,
                      double startS) const override;
    double idlePowerW() const override;
    accel::ThermalState initialState() const override;
    bool modelsTemperature() const override { return m_spec.thermal; }

    RooflineTerms terms(std::span<const ScheduledChunk> chunks) const;
    /// The fewest prompt tokens whose prefill step (one chunk, empty cache) is compute-bound;
    /// 0 when none up to 2^24 is.
    std::int32_t crossoverPrefillTokens() const;
    /// Distinct experts per layer that `tokens` tokens touch (uniform routing), or 0 for a dense
    /// model.
    double touchedExperts(double tokens) const;

    double weightBytesPerGpu() const { return m_streamedWeightBytes; }
    std::int64_t kvBytesPerTokenPerGpu() const { return m_kvBytesPerToken; }
    accel::Precision precision() const { return m_precision; }
    std::int32_t kernelsPerStep() const;

private:
    /// The clock the power cap (and, when hot, the throttle hold power) allows.
    double clockFor(double dynamicW, bool throttled) const;
    double clockForPower(double limitW, double dynamicW) const;

    ModelShape m_shape;
    StepSpec m_spec;
    accel::Precision m_precision = accel::Precision::Bf16;
    double m_bodyFlopsPerToken = 0.0;     ///< 2 · matmul weights a token passes, per GPU.
    double m_lmHeadFlopsPerSeq = 0.0;     ///< 2 · vocab · hidden, per GPU.
    double m_attentionFlopsPerPair = 0.0; ///< 4 · layers · heads · head_dim, per GPU.
    double m_streamedWeightBytes = 0.0;   ///< Dense: every weight but the input embedding, per GPU.
    double m_expertBytes = 0.0;           ///< One expert of one layer, per GPU (MoE).
    std::int64_t m_kvBytesPerToken = 0;
    double m_allReduceSPerToken = 0.0;
    double m_allReduceFixedS = 0.0;
    double m_overheadS = 0.0;
    double m_rate = 0.0;      ///< peak · η_c, FLOP/s.
    double m_bandwidth = 0.0; ///< bandwidth · η_m, bytes/s.
    double m_idleW = 0.0;
    double m_spanW = 0.0;
    double m_capW = 0.0; ///< +inf without a cap.
    double m_holdW = 0.0;
    double m_tauS = 1.0;
};

/// Reads the model's config.json (at `modelConfigPath`) and checks the spec against it and the
/// accelerator: tensor parallelism dividing the heads, a peak for the weights' precision, an
/// interconnect for tensor parallelism, a power cap above idle. Errors name the key.
Expected<std::shared_ptr<const RooflineStepTime>>
loadRooflineStepTime(const StepSpec& spec, const std::string& modelConfigPath);

} // namespace bs::llmsim
