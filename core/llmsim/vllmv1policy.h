#pragma once

#include "llmsim/enginestate.h"

namespace bs::llmsim {

/// vLLM V1's Scheduler.schedule(): a running pass that preempts the last running request when
/// the KV cache is full, then (only when nothing was preempted) a waiting pass in FCFS order.
class VllmV1Policy final : public SchedulerPolicy
{
public:
    void schedule(EngineState& state, StepPlan& plan) const override;
    std::int64_t unsplittableTokens(const EngineConfig& config,
                                    const RequestSpec& request) const override;

private:
    /// Ends early when a request preempts itself (nothing is left to free).
    static void runningPass(EngineState& state, StepPlan& plan, std::int64_t& budget);
    static void waitingPass(EngineState& state, StepPlan& plan, std::int64_t& budget);
    static std::int32_t capChunk(const EngineConfig& config, std::int64_t k);
};

} // namespace bs::llmsim
