#pragma once

#include "llmsim/enginestate.h"

namespace bs::llmsim {

/// vLLM V0's default scheduler (prefill first, no chunking): when the head of waiting can be
/// admitted whole the step is prefill-only, admitting FCFS while seats, budget and blocks
/// allow; otherwise every running request decodes, preempting from the tail when blocks run
/// out.
class VllmV0Policy final : public SchedulerPolicy
{
public:
    void schedule(EngineState& state, StepPlan& plan) const override;
    std::int64_t unsplittableTokens(const EngineConfig& config,
                                    const RequestSpec& request) const override;

private:
    static bool prefillStep(EngineState& state, StepPlan& plan);
    static void decodeStep(EngineState& state, StepPlan& plan);
};

} // namespace bs::llmsim
