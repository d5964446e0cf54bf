#pragma once

#include "accel/model.h"
#include "llmsim/llmscenario.h"
#include "util/expected.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>

namespace bs::llmsim {

/// The work one request does in one engine step: k new tokens on top of c already in its KV
/// cache. A chunk of one token on a non-empty cache is a decode; anything else is prefill
/// (prompt chunks, and recomputation after a preemption).
struct ScheduledChunk
{
    std::int32_t computedTokens = 0; ///< c: tokens already in the KV cache.
    std::int32_t newTokens = 0;      ///< k: tokens computed in this step.

    bool isDecode() const { return newTokens == 1 && computedTokens > 0; }
};

/// What one step costs: its duration and, for a model that knows the accelerator, the board
/// power of the replica's GPUs (all tensor-parallel ranks) while it runs.
struct StepCost
{
    double durationS = 0.0;
    double powerW = std::numeric_limits<double>::quiet_NaN(); ///< NaN: no power model.
};

/// The duration of an engine step from what it computes. Implementations are immutable and
/// shared by replications running on different threads; a run's device temperature lives in
/// the accel::ThermalState its engine loop passes in.
class StepTimeModel
{
public:
    virtual ~StepTimeModel() = default;
    /// Seconds the step takes; `chunks` is never empty.
    virtual double stepS(std::span<const ScheduledChunk> chunks) const = 0;
    /// The step starting at `startS` on a device in `state`, which is brought to the step's
    /// end (a model with a thermal state cools it over the idle gap first). Default: stepS and
    /// no power.
    virtual StepCost stepCost(std::span<const ScheduledChunk> chunks, accel::ThermalState& state,
                              double startS) const
    {
        (void)state;
        (void)startS;
        return {stepS(chunks)};
    }
    /// Board power of the replica while no step runs; NaN without a power model.
    virtual double idlePowerW() const { return std::numeric_limits<double>::quiet_NaN(); }
    /// The device state a run starts from (ambient temperature at time 0).
    virtual accel::ThermalState initialState() const { return {}; }
    /// Whether stepCost brings the state's temperature along (a thermal model), so that its
    /// peak over a run means something.
    virtual bool modelsTemperature() const { return false; }
};

/// base + per_prefill_token * prefill tokens + per_decode_seq * decoding sequences
/// + per_context_token * sum(c + k).
class LinearStepTime final : public StepTimeModel
{
public:
    explicit LinearStepTime(const StepSpec& spec)
        : m_spec(spec)
    {}
    double stepS(std::span<const ScheduledChunk> chunks) const override;

private:
    StepSpec m_spec;
};

/// The model of `spec`; relative profile paths resolve against `baseDirectory`. Errors name the
/// file (and line) that could not be read.
Expected<std::shared_ptr<const StepTimeModel>> makeStepTimeModel(const StepSpec& spec,
                                                                 const std::string& baseDirectory);

} // namespace bs::llmsim
