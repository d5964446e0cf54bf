#include "llmsim/sarathipolicy.h"

#include <algorithm>

namespace bs::llmsim {

std::vector<std::int32_t> SarathiPolicy::decodePass(EngineState& state, StepPlan& plan,
                                                    std::int64_t& used)
{
    std::vector<std::int32_t> prefills;
    std::size_t index = 0;
    while (index < state.running.size()) {
        const std::int32_t id = state.running[index];
        Sequence& seq = state.sequences[std::size_t(id)];
        if (!isDecoding(seq)) {
            prefills.push_back(id); // its prompt blocks were allocated when it started
            ++index;
            continue;
        }
        // The victim is the newest running request the pass has not reached: partial prefills
        // set aside earlier arrived before this one and are safe.
        if (!preemptUntilItFits(state, plan, id, 1))
            break;
        state.allocate(id, 1);
        plan.work.push_back({id, 1});
        ++used; // decodes are never limited by the budget
        ++index;
    }
    return prefills;
}

void SarathiPolicy::waitingPass(EngineState& state, StepPlan& plan, std::int64_t& used)
{
    const auto seats = std::size_t(state.config.maxNumSeqs);
    while (!state.waiting.empty() && state.running.size() < seats) {
        const std::int32_t id = state.waiting.front();
        const Sequence& seq = state.sequences[std::size_t(id)];
        // Sarathi's block manager allocates the whole prompt (a recompute: prompt + generated)
        // when a request starts.
        const std::int64_t needBlocks = state.blocksFor(seq.tokens);
        if (needBlocks > state.freeBlocks())
            return;
        const std::int64_t k = std::min<std::int64_t>(seq.tokens - seq.computed,
                                                      state.config.maxNumBatchedTokens - used);
        if (k <= 0)
            return;
        admitHead(state, plan);
        state.allocateBlocks(id, needBlocks);
        plan.work.push_back({id, std::int32_t(k)});
        used += k;
    }
}

void SarathiPolicy::schedule(EngineState& state, StepPlan& plan) const
{
    sortRunningByArrival(state);
    std::int64_t used = 0;
    for (const std::int32_t id : decodePass(state, plan, used)) {
        const Sequence& seq = state.sequences[std::size_t(id)];
        const std::int64_t k = std::min<std::int64_t>(seq.tokens - seq.computed,
                                                      state.config.maxNumBatchedTokens - used);
        if (k <= 0)
            continue;
        plan.work.push_back({id, std::int32_t(k)});
        used += k;
    }
    // Unlike vllm_v1, new requests are admitted even in a step that preempted.
    waitingPass(state, plan, used);
}

} // namespace bs::llmsim
