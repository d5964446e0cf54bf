#pragma once

#include "llmsim/llmscenario.h"
#include "util/expected.h"

#include <cstdint>
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

/// The duration of an engine step from what it computes. Implementations are immutable and
/// shared by replications running on different threads.
class StepTimeModel
{
public:
    virtual ~StepTimeModel() = default;
    /// Seconds the step takes; `chunks` is never empty.
    virtual double stepS(std::span<const ScheduledChunk> chunks) const = 0;
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
