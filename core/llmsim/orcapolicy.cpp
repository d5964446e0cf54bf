#include "llmsim/orcapolicy.h"

namespace bs::llmsim {

void OrcaPolicy::schedule(EngineState& state, StepPlan& plan) const
{
    std::int64_t budget = state.config.maxNumBatchedTokens;
    // Blocks were reserved at admission, so a running request never waits for the cache.
    for (const std::int32_t id : state.running) {
        const Sequence& seq = state.sequences[std::size_t(id)];
        const std::int32_t k = seq.tokens - seq.computed;
        plan.work.push_back({id, k});
        budget -= k;
    }
    const auto seats = std::size_t(state.config.maxNumSeqs);
    while (!state.waiting.empty() && state.running.size() < seats) {
        const std::int32_t id = state.waiting.front();
        Sequence& seq = state.sequences[std::size_t(id)];
        const std::int32_t k = seq.tokens - seq.computed;
        const std::int64_t reserve =
            state.blocksFor(std::int64_t(seq.spec.promptTokens) + seq.spec.outputTokens - 1);
        if (k > budget || reserve > state.freeBlocks())
            return;
        admitHead(state, plan);
        state.allocateBlocks(id, reserve);
        plan.work.push_back({id, k});
        budget -= k;
    }
}

std::int64_t OrcaPolicy::unsplittableTokens(const EngineConfig&, const RequestSpec& request) const
{
    return request.promptTokens; // the prompt runs whole; nothing is ever recomputed
}

} // namespace bs::llmsim
