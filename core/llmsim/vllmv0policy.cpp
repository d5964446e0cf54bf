#include "llmsim/vllmv0policy.h"

namespace bs::llmsim {

bool VllmV0Policy::prefillStep(EngineState& state, StepPlan& plan)
{
    std::int64_t budget = state.config.maxNumBatchedTokens;
    const auto seats = std::size_t(state.config.maxNumSeqs);
    while (!state.waiting.empty() && state.running.size() < seats) {
        Sequence& seq = state.sequences[std::size_t(state.waiting.front())];
        const std::int32_t k = seq.tokens - seq.computed;
        if (k > budget || state.extraBlocks(seq, k) > state.freeBlocks())
            break;
        const std::int32_t id = state.waiting.front();
        admitHead(state, plan);
        state.allocate(id, k);
        plan.work.push_back({id, k});
        budget -= k;
    }
    return !plan.work.empty();
}

void VllmV0Policy::decodeStep(EngineState& state, StepPlan& plan)
{
    std::size_t index = 0;
    while (index < state.running.size()) {
        const std::int32_t id = state.running[index];
        if (!preemptUntilItFits(state, plan, id, 1))
            return;
        state.allocate(id, 1);
        plan.work.push_back({id, 1});
        ++index;
    }
}

void VllmV0Policy::schedule(EngineState& state, StepPlan& plan) const
{
    if (!prefillStep(state, plan))
        decodeStep(state, plan);
}

std::int64_t VllmV0Policy::unsplittableTokens(const EngineConfig&, const RequestSpec& request) const
{
    // A recompute after preemption runs prompt + all but the last output token in one step.
    return std::int64_t(request.promptTokens) + request.outputTokens - 1;
}

} // namespace bs::llmsim
