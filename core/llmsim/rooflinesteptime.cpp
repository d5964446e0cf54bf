// The roofline step model: FLOPs and bytes of a step from the model's shape, time from the
// accelerator's achievable peak and bandwidth, power from its power model (README.md: "Step
// time: roofline"; the power and clock equations are core/accel/README.md's).
#include "llmsim/rooflinesteptime.h"

#include "accel/modelparams.h"
#include "llmsim/kvcapacity.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bs::llmsim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// Kernels per layer and per step besides the layers, as the decoder-8b-decode workload preset
/// assumes (norms, projections, rotary, attention, activation; embedding, final norm, LM head,
/// sampler): each is one launch of the preset's launch_overhead_us.
constexpr std::int32_t kKernelsPerLayer = 12;
constexpr std::int32_t kKernelsPerStep = 4;
/// Activations travel between tensor-parallel ranks in 16-bit floats.
constexpr double kActivationBytes = 2.0;

KvMemorySpec dtypeSpec(const StepSpec& spec)
{
    KvMemorySpec kv;
    kv.tensorParallel = spec.tensorParallel;
    kv.weightDtype = spec.weightDtype;
    kv.kvCacheDtype = spec.kvCacheDtype;
    return kv;
}

/// The tensor-core precision the weights run in: fp8 weights use the fp8 peak, float16 the
/// fp16 one, everything else (bfloat16, float32 served as bfloat16) bf16.
accel::Precision precisionOf(const StepSpec& spec, const ModelShape& shape)
{
    if (weightBytesPerParameter(dtypeSpec(spec), shape) == 1)
        return accel::Precision::Fp8;
    const std::string dtype = spec.weightDtype == "auto" ? shape.dtype : spec.weightDtype;
    return dtype == "float16" ? accel::Precision::Fp16 : accel::Precision::Bf16;
}

double expertWidth(const ModelShape& s)
{
    return s.expertIntermediate > 0 ? s.expertIntermediate : s.intermediate;
}

} // namespace

double RooflineTerms::fullClockS() const
{
    return overheadS + allReduceS + std::max(computeS, memoryS);
}

RooflineStepTime::RooflineStepTime(const ModelShape& shape, const StepSpec& spec)
    : m_shape(shape)
    , m_spec(spec)
    , m_precision(precisionOf(spec, shape))
{
    const accel::AcceleratorSpec& a = spec.accelerator;
    const double tp = spec.tensorParallel;
    const double embedding = double(shape.vocab) * shape.hidden;
    const double weightBytes = weightBytesPerParameter(dtypeSpec(spec), shape);
    // Matmul weights a token passes: all active ones but the input embedding (a row lookup) and
    // the LM head, which runs once per scheduled request (its last position), not per token.
    const double tableCount = shape.tiedEmbeddings ? 1.0 : 2.0;
    m_bodyFlopsPerToken = 2.0 * (double(activeParameterCount(shape)) - tableCount * embedding) / tp;
    m_lmHeadFlopsPerSeq = 2.0 * embedding / tp;
    m_attentionFlopsPerPair =
        4.0 * shape.layers * double(shape.attentionHeads) * shape.headDim / tp;
    // Streamed once per step: every weight but the untied input embedding (T rows are read);
    // the experts are counted per step from the tokens (touchedExperts).
    const double expertParameters = 3.0 * shape.hidden * expertWidth(shape);
    const double allExperts = double(shape.layers) * shape.experts * expertParameters;
    const double untiedInput = shape.tiedEmbeddings ? 0.0 : embedding;
    m_streamedWeightBytes =
        (double(parameterCount(shape)) - untiedInput - allExperts) * weightBytes / tp;
    m_expertBytes = expertParameters * weightBytes / tp;
    m_kvBytesPerToken = llmsim::kvBytesPerTokenPerGpu(dtypeSpec(spec), shape);
    if (spec.tensorParallel > 1) {
        // Ring all-reduce: each rank sends and receives 2 (n − 1)/n of the message.
        const double messageBytesPerToken = double(shape.hidden) * kActivationBytes;
        const double perAllReduce =
            2.0 * (tp - 1.0) / tp * messageBytesPerToken / (spec.interconnectGbPerS * 1e9);
        m_allReduceSPerToken = 2.0 * shape.layers * perAllReduce;
        m_allReduceFixedS = 2.0 * shape.layers * spec.allreduceLatencyUs * 1e-6;
    }
    m_overheadS = spec.overheadMs * 1e-3 + kernelsPerStep() * a.launchOverheadS;
    m_rate = a.peak(m_precision).value_or(0.0) * a.etaCompute;
    m_bandwidth = a.memoryBandwidthBytesPerS * a.etaMemory;
    m_idleW = a.powerIdleW;
    m_spanW = a.powerMaxW - a.powerIdleW;
    m_capW = spec.powerCapW.value_or(kInf);
    m_holdW = (a.thermal.throttleC - a.thermal.ambientC) / a.thermal.resistanceCPerW;
    m_tauS = a.thermal.resistanceCPerW * a.thermal.capacitanceJPerC;
}

std::int32_t RooflineStepTime::kernelsPerStep() const
{
    return kKernelsPerLayer * m_shape.layers + kKernelsPerStep;
}

double RooflineStepTime::touchedExperts(double tokens) const
{
    if (m_shape.experts == 0)
        return 0.0;
    // Each token picks k of E experts; with uniform independent routing an expert stays
    // untouched by T tokens with probability (1 − k/E)^T. Real routers are skewed, so fewer
    // distinct experts are read: this errs towards more weight traffic.
    const double e = m_shape.experts;
    const double miss = 1.0 - double(m_shape.expertsPerToken) / e;
    return e * (1.0 - std::pow(miss, tokens));
}

RooflineTerms RooflineStepTime::terms(std::span<const ScheduledChunk> chunks) const
{
    double tokens = 0.0, context = 0.0, pairs = 0.0;
    for (const ScheduledChunk& chunk : chunks) {
        const double k = chunk.newTokens;
        const double c = chunk.computedTokens;
        tokens += k;
        context += c + k;
        pairs += k * (c + 0.5 * (k + 1.0)); // causal: new token i sees c + i keys
    }
    RooflineTerms t;
    t.flops = m_bodyFlopsPerToken * tokens + m_lmHeadFlopsPerSeq * double(chunks.size()) +
              m_attentionFlopsPerPair * pairs;
    t.weightBytes = m_streamedWeightBytes + m_shape.layers * touchedExperts(tokens) * m_expertBytes;
    t.kvBytes = (context + tokens) * double(m_kvBytesPerToken);
    t.computeS = t.flops / m_rate;
    t.memoryS = (t.weightBytes + t.kvBytes) / m_bandwidth;
    t.allReduceS =
        m_spec.tensorParallel > 1 ? m_allReduceFixedS + m_allReduceSPerToken * tokens : 0.0;
    // Host-side work per sequence (sampling, stop checks, streaming) grows with the batch.
    t.overheadS = m_overheadS + m_spec.overheadPerSeqMs * 1e-3 * double(chunks.size());
    // core/accel's activity: the busier of compute and (κ-weighted) memory, over the step.
    const double activity =
        std::max(t.computeS, m_spec.accelerator.memoryActivity * t.memoryS) / t.fullClockS();
    t.dynamicW = m_spanW * std::min(activity, 1.0);
    return t;
}

double RooflineStepTime::clockForPower(double limitW, double dynamicW) const
{
    // core/accel Model::clockForPower: P_idle + P_dyn · s^γ = limit, floored at min clock.
    const accel::AcceleratorSpec& a = m_spec.accelerator;
    if (m_idleW + dynamicW <= limitW)
        return 1.0;
    if (limitW <= m_idleW)
        return a.minClockScale;
    return std::max(std::pow((limitW - m_idleW) / dynamicW, 1.0 / a.powerExponent),
                    a.minClockScale);
}

double RooflineStepTime::clockFor(double dynamicW, bool throttled) const
{
    const double capClock = clockForPower(m_capW, dynamicW);
    // Hot: the firmware holds the power that keeps the die at the limit, a second cap.
    return throttled ? std::min(capClock, clockForPower(m_holdW, dynamicW)) : capClock;
}

double RooflineStepTime::stepS(std::span<const ScheduledChunk> chunks) const
{
    const RooflineTerms t = terms(chunks);
    const double clock = clockFor(t.dynamicW, false);
    return t.overheadS + t.allReduceS + std::max(t.computeS / clock, t.memoryS);
}

StepCost RooflineStepTime::stepCost(std::span<const ScheduledChunk> chunks,
                                    accel::ThermalState& state, double startS) const
{
    const accel::ThermalSpec& th = m_spec.accelerator.thermal;
    const RooflineTerms t = terms(chunks);
    const double begin = std::max(startS, state.lastUpdateS);
    double temperature = state.temperatureC;
    if (m_spec.thermal && begin > state.lastUpdateS) // idle cooling towards T_amb + P_idle · R
        temperature = th.ambientC + m_idleW * th.resistanceCPerW +
                      (temperature - th.ambientC - m_idleW * th.resistanceCPerW) *
                          std::exp(-(begin - state.lastUpdateS) / m_tauS);
    const bool throttled = m_spec.thermal && temperature >= th.throttleC;
    const double clock = clockFor(t.dynamicW, throttled);
    StepCost cost;
    cost.durationS = t.overheadS + t.allReduceS + std::max(t.computeS / clock, t.memoryS);
    const double gpuW =
        m_idleW +
        (clock < 1.0 ? t.dynamicW * std::pow(clock, m_spec.accelerator.powerExponent) : t.dynamicW);
    cost.powerW = gpuW * m_spec.tensorParallel;
    if (m_spec.thermal) {
        const double targetC = th.ambientC + gpuW * th.resistanceCPerW;
        temperature = targetC + (temperature - targetC) * std::exp(-cost.durationS / m_tauS);
    }
    state.temperatureC = temperature;
    state.lastUpdateS = begin + cost.durationS;
    return cost;
}

double RooflineStepTime::idlePowerW() const
{
    return m_idleW * m_spec.tensorParallel;
}

accel::ThermalState RooflineStepTime::initialState() const
{
    return {m_spec.accelerator.thermal.ambientC, 0.0};
}

std::int32_t RooflineStepTime::crossoverPrefillTokens() const
{
    const auto computeBound = [this](std::int32_t tokens) {
        const ScheduledChunk chunk{0, tokens};
        return terms(std::span(&chunk, 1)).computeBound();
    };
    std::int32_t lo = 0, hi = 1 << 24; // computeBound(hi) is checked, lo is never compute-bound
    if (!computeBound(hi))
        return 0;
    while (hi - lo > 1) {
        const std::int32_t mid = lo + (hi - lo) / 2;
        (computeBound(mid) ? hi : lo) = mid;
    }
    return hi;
}

Expected<std::shared_ptr<const RooflineStepTime>>
loadRooflineStepTime(const StepSpec& spec, const std::string& modelConfigPath)
{
    auto shape = readHfConfig(modelConfigPath);
    if (!shape)
        return shape.error();
    const auto fail = [&](const std::string& key, const std::string& message) {
        return makeError(ErrorCode::Value, modelConfigPath, 0, 0,
                         "scenario.step." + key + ": " + message);
    };
    const std::int32_t tp = spec.tensorParallel;
    if (tp < 1 || shape->attentionHeads % tp != 0)
        return fail("tensor_parallel", std::to_string(tp) + " does not divide the model's " +
                                           std::to_string(shape->attentionHeads) +
                                           " attention heads");
    if (tp > 1 && !(spec.interconnectGbPerS > 0.0))
        return fail("interconnect_gb_per_s",
                    "tensor_parallel " + std::to_string(tp) +
                        " needs the GPU-to-GPU bandwidth for its all-reduces (accelerator "
                        "presets carry none; NVLink 4 on H100 SXM is 450 GB/s per direction)");
    const accel::Precision precision = precisionOf(spec, *shape);
    const accel::AcceleratorSpec& a = spec.accelerator;
    if (!a.peak(precision))
        return fail("weight_dtype", std::string("accelerator '") + a.name + "' has no " +
                                        accel::precisionName(precision) +
                                        " peak (it has: " + a.precisionsText() + ")");
    if (!(a.memoryBandwidthBytesPerS > 0.0))
        return fail("accelerator", "'" + a.name + "' has no memory bandwidth");
    // The power and thermal checks of core/accel (cap above idle, P_max above idle, ...).
    accel::ModelParams params;
    params.accelerator = a;
    params.precision = precision;
    params.powerCapW = spec.powerCapW;
    if (auto status = accel::validate(params, "scenario.step", modelConfigPath); !status)
        return status.error();
    return std::make_shared<const RooflineStepTime>(*shape, spec);
}

} // namespace bs::llmsim
