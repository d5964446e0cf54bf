#include "llmsim/trtllmpolicy.h"

#include <algorithm>
#include <limits>

namespace bs::llmsim {

namespace {

/// Blocks a request holds when it has computed its prompt and all but its last output token.
std::int64_t blocksToCompletion(const EngineState& state, const Sequence& seq)
{
    return state.blocksFor(std::int64_t(seq.spec.promptTokens) + seq.spec.outputTokens - 1);
}

void sortRunning(EngineState& state, std::vector<std::int32_t>& generation,
                 std::vector<std::int32_t>& contexts, std::int32_t id)
{
    (isDecoding(state.sequences[std::size_t(id)]) ? generation : contexts).push_back(id);
}

} // namespace

void TrtllmPolicy::guaranteedNoEvict(EngineState& state, Fitting& fit)
{
    // Every running request was admitted with its whole need counted, so it runs; what is
    // left after their remaining needs is what new requests may claim, whole.
    std::int64_t available = state.freeBlocks();
    for (const std::int32_t id : state.running) {
        const Sequence& seq = state.sequences[std::size_t(id)];
        available -= blocksToCompletion(state, seq) - std::int64_t(seq.blocks.size());
        sortRunning(state, fit.generation, fit.contexts, id);
    }
    for (const std::int32_t id : fit.generation)
        state.allocate(id, 1); // within its counted need, so always free
    const auto seats = std::size_t(state.config.maxNumSeqs);
    for (const std::int32_t id : state.waiting) {
        if (state.running.size() + fit.newcomers >= seats)
            return;
        const std::int64_t need = blocksToCompletion(state, state.sequences[std::size_t(id)]);
        if (need > available)
            return; // FCFS: one that does not fit stops the rest
        available -= need;
        ++fit.newcomers;
    }
}

void TrtllmPolicy::maxUtilization(EngineState& state, StepPlan& plan, Fitting& fit)
{
    // One pass over running and waiting merged in arrival order. A request that needs more
    // blocks than are free pauses the newest running request after it (which then leaves the
    // pass, with everything after it); with none to pause the pass ends.
    constexpr auto kNoEnd = std::numeric_limits<std::int32_t>::max();
    const auto seats = std::size_t(state.config.maxNumSeqs);
    std::int32_t end = kNoEnd;
    std::int64_t reserved = 0; // blocks promised to newcomers, allocated when they start
    std::size_t r = 0;
    while (true) {
        const std::int32_t nextRunning = r < state.running.size() ? state.running[r] : kNoEnd;
        const std::int32_t nextWaiting =
            fit.newcomers < state.waiting.size() ? state.waiting[fit.newcomers] : kNoEnd;
        const std::int32_t id = std::min({nextRunning, nextWaiting, end});
        if (id == kNoEnd || id == end)
            return;
        if (fit.generation.size() + fit.contexts.size() + fit.newcomers >= seats)
            return;
        const Sequence& seq = state.sequences[std::size_t(id)];
        const bool running = id == nextRunning;
        // A running context holds its prompt's blocks; a decode may need one more; a new (or
        // paused) request needs its whole prompt (with generated tokens) at once.
        const std::int64_t need = running ? (isDecoding(seq) ? state.extraBlocks(seq, 1) : 0)
                                          : state.blocksFor(seq.tokens);
        if (need <= state.freeBlocks() - reserved) {
            if (running) {
                state.allocate(id, isDecoding(seq) ? 1 : 0);
                sortRunning(state, fit.generation, fit.contexts, id);
                ++r;
            } else {
                reserved += need;
                ++fit.newcomers;
            }
            continue;
        }
        const std::size_t firstAfter = running ? r + 1 : r;
        if (firstAfter >= state.running.size())
            return; // nothing started after it to pause
        end = preemptRunningAt(state, plan, state.running.size() - 1, true);
    }
}

void TrtllmPolicy::microBatch(EngineState& state, StepPlan& plan, const Fitting& fit)
{
    std::int64_t budget = state.config.maxNumBatchedTokens;
    for (const std::int32_t id : fit.generation) {
        if (budget < 1)
            return;
        plan.work.push_back({id, 1});
        --budget;
    }
    const bool chunked = state.config.enableChunkedPrefill;
    // The context tokens a request gets from what is left of the budget (0: it waits, and so
    // do the contexts after it).
    auto contextTokens = [&](const Sequence& seq) -> std::int64_t {
        const std::int64_t remaining = seq.tokens - seq.computed;
        if (chunked)
            return std::min(remaining, budget);
        return remaining <= budget ? remaining : 0;
    };
    for (const std::int32_t id : fit.contexts) {
        const std::int64_t k = contextTokens(state.sequences[std::size_t(id)]);
        if (k <= 0)
            return;
        plan.work.push_back({id, std::int32_t(k)});
        budget -= k;
    }
    for (std::size_t i = 0; i < fit.newcomers; ++i) {
        const std::int32_t id = state.waiting.front();
        const Sequence& seq = state.sequences[std::size_t(id)];
        const std::int64_t k = contextTokens(seq);
        if (k <= 0)
            return;
        admitHead(state, plan);
        state.allocateBlocks(id, state.blocksFor(seq.tokens)); // the whole context at once
        plan.work.push_back({id, std::int32_t(k)});
        budget -= k;
    }
}

void TrtllmPolicy::schedule(EngineState& state, StepPlan& plan) const
{
    sortRunningByArrival(state);
    Fitting fit;
    if (state.config.capacitySchedulerPolicy == "max_utilization")
        maxUtilization(state, plan, fit);
    else
        guaranteedNoEvict(state, fit);
    microBatch(state, plan, fit);
}

std::int64_t TrtllmPolicy::unsplittableTokens(const EngineConfig& config,
                                              const RequestSpec& request) const
{
    if (config.enableChunkedPrefill)
        return 0;
    // A paused request recomputes prompt + all but its last output token as one context.
    if (config.capacitySchedulerPolicy == "max_utilization")
        return std::int64_t(request.promptTokens) + request.outputTokens - 1;
    return request.promptTokens;
}

} // namespace bs::llmsim
