#pragma once

#include "llmsim/enginestate.h"

namespace bs::llmsim {

/// SGLang's Scheduler (get_next_batch_to_run, no mixed chunks, no radix cache): a step is a
/// prefill batch whenever one can be formed (the ongoing chunked prefill first, then new
/// requests FCFS within max_prefill_tokens and chunked_prefill_size, each needing its input
/// plus its remaining output tokens free after the running requests' reservation of
/// new_token_ratio x their remaining outputs), otherwise a decode step of every running
/// request, retracting the ones with the fewest generated tokens when the cache runs out.
class SglangPolicy final : public SchedulerPolicy
{
public:
    /// SGLang's constants: the ratio starts at 0.7 x schedule_conservativeness (at most 1),
    /// decays over 600 decode steps to 0.14 of that, a retraction leaves room for 20 decode
    /// steps, a reservation counts at most 4096 output tokens.
    static constexpr double kInitRatio = 0.7;
    static constexpr double kMinRatioFactor = 0.14;
    static constexpr double kDecaySteps = 600.0;
    static constexpr std::int64_t kRetractDecodeSteps = 20;
    static constexpr std::int64_t kClipMaxNewTokens = 4096;

    void schedule(EngineState& state, StepPlan& plan) const override;
    std::int64_t unsplittableTokens(const EngineConfig&, const RequestSpec&) const override
    {
        return 0; // a lone request may exceed max_prefill_tokens
    }
    std::int64_t aloneKvTokens(const EngineConfig& config,
                               const RequestSpec& request) const override;

    static double initialRatio(const EngineConfig& config);
    static double minimumRatio(const EngineConfig& config);

private:
    static bool prefillBatch(EngineState& state, StepPlan& plan);
    static void decodeBatch(EngineState& state, StepPlan& plan);
    static void retract(EngineState& state, StepPlan& plan);
};

} // namespace bs::llmsim
