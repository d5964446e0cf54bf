#pragma once

#include "llmsim/blockpool.h"
#include "llmsim/llmscenario.h"
#include "llmsim/steptimemodel.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace bs::llmsim {

/// One request inside the engine. n (tokens) = prompt + generated so far; c (computed) = tokens
/// whose keys and values are in the KV cache.
struct Sequence
{
    RequestSpec spec;
    std::int32_t tokens = 0;
    std::int32_t computed = 0;
    std::int32_t generated = 0;
    std::vector<std::int32_t> blocks; ///< KV blocks held, in token order.
    /// After a preemption with prefix caching: the blocks its computed tokens filled, in order;
    /// the first `cachedValid` are still free and untouched (a readmission can reuse them).
    std::vector<std::int32_t> cachedBlocks;
    std::int32_t cachedValid = 0;
    std::int32_t preemptions = 0;
    double firstScheduledS = -1.0;
    double firstTokenS = -1.0;
    double lastTokenS = -1.0;
    double maxGapS = 0.0; ///< Longest gap between two of its tokens.
};

/// The work of one step: which sequence computes how many tokens.
struct ScheduledWork
{
    std::int32_t sequence = 0;
    std::int32_t newTokens = 0;
};

/// What the scheduler decided for one step.
struct StepPlan
{
    std::vector<ScheduledWork> work;
    std::int32_t preempted = 0;
    std::int32_t admitted = 0; ///< Requests moved from waiting to running.

    void clear()
    {
        work.clear();
        preempted = 0;
        admitted = 0;
    }
};

/// Running and waiting queues, and the KV-cache block pool. Sequences are indices into
/// `sequences` (one per request, in arrival order).
struct EngineState
{
    EngineConfig config;
    std::vector<Sequence> sequences;
    /// Admission order (sarathi and trtllm sort it into arrival order each step).
    std::vector<std::int32_t> running;
    /// Head first. Preempted sequences return to the head (trtllm: to their place in arrival
    /// order; sglang: to the tail).
    std::deque<std::int32_t> waiting;
    BlockPool pool;
    /// sglang: the share of a running request's remaining output tokens a prefill reserves in
    /// the KV cache (SGLang's new_token_ratio); below 0 until the policy's first step.
    double newTokenRatio = -1.0;

    std::int64_t freeBlocks() const { return pool.freeCount(); }
    /// Blocks a sequence must hold to keep `tokens` tokens in the cache.
    std::int64_t blocksFor(std::int64_t tokenCount) const
    {
        return (tokenCount + config.blockSize - 1) / config.blockSize;
    }
    /// Extra blocks sequence s needs to compute k more tokens (0 when it holds enough).
    std::int64_t extraBlocks(const Sequence& s, std::int32_t k) const
    {
        const std::int64_t need =
            blocksFor(std::int64_t(s.computed) + k) - std::int64_t(s.blocks.size());
        return need > 0 ? need : 0;
    }
    /// Gives sequence `id` the blocks for k more tokens, from the head of the free queue.
    void allocate(std::int32_t id, std::int32_t k);
    /// Takes `count` more blocks for sequence `id` (reservations).
    void allocateBlocks(std::int32_t id, std::int64_t count);
    /// Frees every block of sequence `id`. With `keepCache` its filled blocks stay cached in
    /// the free queue (prefix caching) until handed out again.
    void release(std::int32_t id, bool keepCache);
    /// With prefix caching, a sequence finds the whole blocks of prefix_cache_hit_rate x its
    /// prompt in the cache (the shared prefix); readmitted after a preemption, it finds its own
    /// leading blocks that are still intact if they are more (at most n - 1 tokens either
    /// way, so one token is always computed). Returns the tokens it can skip; claimHits (called at
    /// every admission) takes those blocks and drops the rest of its cache.
    std::int32_t cachedTokens(const Sequence& s) const;
    void claimHits(std::int32_t id, std::int32_t tokens);
    std::int64_t usedBlocks() const { return config.numGpuBlocks - freeBlocks(); }
};

/// A scheduling policy: fills `plan` from the state at one step start, admitting, chunking and
/// preempting as the policy's engine does (README.md: "Policies").
class SchedulerPolicy
{
public:
    virtual ~SchedulerPolicy() = default;
    virtual void schedule(EngineState& state, StepPlan& plan) const = 0;
    /// The most tokens of this request the policy computes in one step when it cannot split
    /// them (0 when it always can): a request needing more than the token budget never runs.
    virtual std::int64_t unsplittableTokens(const EngineConfig& config,
                                            const RequestSpec& request) const = 0;
    /// The KV-cache tokens a request must find free when it runs alone, or it never runs:
    /// prompt + output - 1 (the last output token is never fed back) unless the policy's
    /// admission asks for more.
    virtual std::int64_t aloneKvTokens(const EngineConfig&, const RequestSpec& request) const
    {
        return std::int64_t(request.promptTokens) + request.outputTokens - 1;
    }
};

/// Frees the most recently admitted request: it goes to the head of waiting and will recompute
/// its prompt and generated tokens. Returns its id.
std::int32_t preemptLastRunning(EngineState& state, StepPlan& plan);

/// Preempts from the tail of running until running request `id` can hold `tokens` more tokens.
/// Returns false when `id` itself had to go (the pass then ends, as vLLM's does).
bool preemptUntilItFits(EngineState& state, StepPlan& plan, std::int32_t id, std::int32_t tokens);

/// Frees running request `running[index]` (recompute later). It goes to the head of waiting, or
/// with `byArrival` to its place in arrival order (waiting must then be in arrival order).
std::int32_t preemptRunningAt(EngineState& state, StepPlan& plan, std::size_t index,
                              bool byArrival);

/// Moves the head of waiting to the tail of running.
void admitHead(EngineState& state, StepPlan& plan);

/// Puts running in arrival order (request ids are arrival order).
void sortRunningByArrival(EngineState& state);

/// True when a running request has one token left to compute: it decodes (a prompt's last
/// one-token chunk counts as a decode too, as the step model counts it).
inline bool isDecoding(const Sequence& s)
{
    return s.tokens - s.computed == 1;
}

/// The policy named `name` (vllm_v1, vllm_v0, orca, sarathi, trtllm, sglang), or nullptr.
std::unique_ptr<SchedulerPolicy> makePolicy(const std::string& name);

} // namespace bs::llmsim
