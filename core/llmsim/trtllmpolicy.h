#pragma once

#include "llmsim/enginestate.h"

namespace bs::llmsim {

/// TensorRT-LLM's batch scheduler: a capacity scheduler picks the requests the KV cache can
/// hold (guaranteed_no_evict: a request starts only when the blocks for its whole prompt and
/// output are free after every running request's remaining need; max_utilization: blocks for
/// the next step only, pausing the newest started requests when they run out), then the
/// micro-batch scheduler fills max_num_tokens: generation tokens first, then context chunks.
class TrtllmPolicy final : public SchedulerPolicy
{
public:
    void schedule(EngineState& state, StepPlan& plan) const override;
    std::int64_t unsplittableTokens(const EngineConfig& config,
                                    const RequestSpec& request) const override;

private:
    /// What the capacity scheduler let through, each list in arrival order.
    struct Fitting
    {
        std::vector<std::int32_t> generation; ///< Running, one token left (blocks allocated).
        std::vector<std::int32_t> contexts;   ///< Running, partway through their prompt.
        std::size_t newcomers = 0;            ///< Heads of waiting that may start.
    };
    static void guaranteedNoEvict(EngineState& state, Fitting& fit);
    static void maxUtilization(EngineState& state, StepPlan& plan, Fitting& fit);
    static void microBatch(EngineState& state, StepPlan& plan, const Fitting& fit);
};

} // namespace bs::llmsim
