#include "llmsim/vllmv1policy.h"

#include <algorithm>

namespace bs::llmsim {

std::int32_t VllmV1Policy::capChunk(const EngineConfig& config, std::int64_t k)
{
    if (config.longPrefillTokenThreshold > 0)
        k = std::min<std::int64_t>(k, config.longPrefillTokenThreshold);
    return std::int32_t(k);
}

void VllmV1Policy::runningPass(EngineState& state, StepPlan& plan, std::int64_t& budget)
{
    std::size_t index = 0;
    while (index < state.running.size() && budget > 0) {
        const std::int32_t id = state.running[index];
        Sequence& seq = state.sequences[std::size_t(id)];
        const std::int32_t k =
            capChunk(state.config, std::min<std::int64_t>(seq.tokens - seq.computed, budget));
        if (k <= 0) {
            ++index;
            continue;
        }
        if (!preemptUntilItFits(state, plan, id, k))
            return;
        state.allocate(id, k);
        plan.work.push_back({id, k});
        budget -= k;
        ++index;
    }
}

void VllmV1Policy::waitingPass(EngineState& state, StepPlan& plan, std::int64_t& budget)
{
    const auto seats = std::size_t(state.config.maxNumSeqs);
    while (!state.waiting.empty() && budget > 0 && state.running.size() < seats) {
        const std::int32_t id = state.waiting.front();
        Sequence& seq = state.sequences[std::size_t(id)];
        // A readmitted request skips the leading blocks still in the prefix cache; they are
        // free blocks until claimed, so the block check below counts them.
        const std::int32_t hitTokens = state.cachedTokens(seq);
        const std::int64_t remaining = seq.tokens - seq.computed - hitTokens;
        if (!state.config.enableChunkedPrefill && remaining > budget)
            return;
        const std::int32_t k = capChunk(state.config, std::min(remaining, budget));
        const std::int64_t needBlocks =
            state.blocksFor(std::int64_t(hitTokens) + k) - std::int64_t(seq.blocks.size());
        if (needBlocks > state.freeBlocks())
            return; // a waiting request never preempts
        admitHead(state, plan);
        state.claimHits(id, hitTokens);
        state.allocate(id, k);
        plan.work.push_back({id, k});
        budget -= k;
    }
}

void VllmV1Policy::schedule(EngineState& state, StepPlan& plan) const
{
    std::int64_t budget = state.config.maxNumBatchedTokens;
    runningPass(state, plan, budget);
    if (plan.preempted == 0)
        waitingPass(state, plan, budget);
}

std::int64_t VllmV1Policy::unsplittableTokens(const EngineConfig& config,
                                              const RequestSpec& request) const
{
    // Without chunking a recompute after preemption needs prompt + all but the last output.
    if (config.enableChunkedPrefill)
        return 0;
    return std::int64_t(request.promptTokens) + request.outputTokens - 1;
}

} // namespace bs::llmsim
