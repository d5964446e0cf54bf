#include "llmsim/enginestate.h"

#include "llmsim/orcapolicy.h"
#include "llmsim/sarathipolicy.h"
#include "llmsim/sglangpolicy.h"
#include "llmsim/trtllmpolicy.h"
#include "llmsim/vllmv0policy.h"
#include "llmsim/vllmv1policy.h"

#include <algorithm>
#include <cmath>

namespace bs::llmsim {

std::int32_t preemptLastRunning(EngineState& state, StepPlan& plan)
{
    return preemptRunningAt(state, plan, state.running.size() - 1, false);
}

bool preemptUntilItFits(EngineState& state, StepPlan& plan, std::int32_t id, std::int32_t tokens)
{
    const Sequence& seq = state.sequences[std::size_t(id)];
    while (state.extraBlocks(seq, tokens) > state.freeBlocks())
        if (preemptLastRunning(state, plan) == id)
            return false;
    return true;
}

std::int32_t preemptRunningAt(EngineState& state, StepPlan& plan, std::size_t index, bool byArrival)
{
    const std::int32_t victimId = state.running[index];
    state.running.erase(state.running.begin() + std::ptrdiff_t(index));
    Sequence& victim = state.sequences[std::size_t(victimId)];
    state.release(victimId, state.config.enablePrefixCaching);
    victim.computed = 0;
    ++victim.preemptions;
    ++plan.preempted;
    if (byArrival)
        state.waiting.insert(std::upper_bound(state.waiting.begin(), state.waiting.end(), victimId),
                             victimId);
    else
        state.waiting.push_front(victimId);
    return victimId;
}

void sortRunningByArrival(EngineState& state)
{
    if (!std::is_sorted(state.running.begin(), state.running.end()))
        std::sort(state.running.begin(), state.running.end());
}

void admitHead(EngineState& state, StepPlan& plan)
{
    state.running.push_back(state.waiting.front());
    state.waiting.pop_front();
    ++plan.admitted;
}

void EngineState::allocateBlocks(std::int32_t id, std::int64_t count)
{
    Sequence& seq = sequences[std::size_t(id)];
    for (std::int64_t i = 0; i < count; ++i) {
        std::int32_t owner = BlockPool::kNone, index = 0;
        seq.blocks.push_back(pool.takeHead(owner, index));
        // Reusing a cached block breaks its owner's cached prefix from that block on.
        if (owner != BlockPool::kNone) {
            Sequence& evicted = sequences[std::size_t(owner)];
            evicted.cachedValid = std::min(evicted.cachedValid, index);
        }
    }
}

void EngineState::allocate(std::int32_t id, std::int32_t k)
{
    allocateBlocks(id, extraBlocks(sequences[std::size_t(id)], k));
}

void EngineState::release(std::int32_t id, bool keepCache)
{
    Sequence& seq = sequences[std::size_t(id)];
    // Only full blocks are cached (a partly filled block is never shared).
    const std::size_t full = keepCache ? std::size_t(seq.computed / config.blockSize) : 0;
    pool.release(seq.blocks, id, full);
    seq.cachedBlocks.assign(seq.blocks.begin(), seq.blocks.begin() + std::ptrdiff_t(full));
    seq.cachedValid = std::int32_t(full);
    if (keepCache)
        seq.blocks.clear(); // it will grow back to the same size
    else
        std::vector<std::int32_t>().swap(seq.blocks); // finished: give the memory back
}

std::int32_t EngineState::cachedTokens(const Sequence& s) const
{
    if (!config.enablePrefixCaching || s.computed != 0)
        return 0;
    // One token is always computed, so at most (n - 1) / block_size whole blocks hit.
    const std::int32_t maxBlocks = (s.tokens - 1) / config.blockSize;
    // A hair above the product: 0.58 x 800 is 463.99999999999994 in doubles.
    const auto warmTokens =
        std::int32_t(std::floor(config.prefixCacheHitRate * s.spec.promptTokens + 1e-9));
    // Readmitted, a request finds the shared prefix as any new prompt does, or more of its own
    // blocks if they are still intact.
    const std::int32_t own = s.preemptions == 0 ? 0 : s.cachedValid;
    return std::min(std::max(warmTokens / config.blockSize, own), maxBlocks) * config.blockSize;
}

void EngineState::claimHits(std::int32_t id, std::int32_t tokens)
{
    Sequence& seq = sequences[std::size_t(id)];
    const auto hits = std::size_t(tokens / config.blockSize);
    // Its own intact blocks come back as they are ...
    const std::size_t own = std::min(hits, std::size_t(seq.cachedValid));
    for (std::size_t i = 0; i < own; ++i) {
        pool.take(seq.cachedBlocks[i]);
        seq.blocks.push_back(seq.cachedBlocks[i]);
    }
    // ... the cached blocks it does not reuse are plain free blocks from now on ...
    for (std::size_t i = own; i < seq.cachedBlocks.size(); ++i)
        pool.untag(seq.cachedBlocks[i], id, std::int32_t(i));
    seq.cachedBlocks.clear();
    seq.cachedValid = 0;
    // ... and the shared prefix beyond them is another request's blocks: their keys and
    // values are there, the blocks come as any new block does.
    allocateBlocks(id, std::int64_t(hits - own));
    seq.computed += tokens;
}

std::unique_ptr<SchedulerPolicy> makePolicy(const std::string& name)
{
    if (name == "vllm_v1")
        return std::make_unique<VllmV1Policy>();
    if (name == "vllm_v0")
        return std::make_unique<VllmV0Policy>();
    if (name == "orca")
        return std::make_unique<OrcaPolicy>();
    if (name == "sarathi")
        return std::make_unique<SarathiPolicy>();
    if (name == "trtllm")
        return std::make_unique<TrtllmPolicy>();
    if (name == "sglang")
        return std::make_unique<SglangPolicy>();
    return nullptr;
}

} // namespace bs::llmsim
