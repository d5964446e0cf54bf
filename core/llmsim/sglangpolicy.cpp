#include "llmsim/sglangpolicy.h"

#include <algorithm>
#include <limits>

namespace bs::llmsim {

namespace {

/// Output tokens a request may still generate, as a reservation counts them.
std::int64_t outputsLeft(const Sequence& seq)
{
    return std::min<std::int64_t>(seq.spec.outputTokens - seq.generated,
                                  SglangPolicy::kClipMaxNewTokens);
}

} // namespace

double SglangPolicy::initialRatio(const EngineConfig& config)
{
    return std::min(kInitRatio * config.scheduleConservativeness, 1.0);
}

double SglangPolicy::minimumRatio(const EngineConfig& config)
{
    return std::min(initialRatio(config) * kMinRatioFactor, 1.0);
}

bool SglangPolicy::prefillBatch(EngineState& state, StepPlan& plan)
{
    const EngineConfig& config = state.config;
    const bool chunking = config.chunkedPrefillSize > 0;
    std::int64_t remInput = config.maxPrefillTokens;
    std::int64_t remChunk =
        chunking ? config.chunkedPrefillSize : std::numeric_limits<std::int64_t>::max();
    // KV tokens free after reserving ratio x remaining outputs for every running decode.
    double remTotal = double(state.freeBlocks()) * config.blockSize;
    std::int32_t chunkedId = -1; // the request partway through its prompt (at most one)
    for (const std::int32_t id : state.running) {
        const Sequence& seq = state.sequences[std::size_t(id)];
        if (isDecoding(seq))
            remTotal -= state.newTokenRatio * double(outputsLeft(seq));
        else
            chunkedId = id;
    }
    if (chunkedId >= 0) {
        // The chunked request goes first; no reservation check (it passed one to start).
        Sequence& seq = state.sequences[std::size_t(chunkedId)];
        const std::int64_t remaining = seq.tokens - seq.computed;
        const std::int64_t k = std::min(remaining, remChunk);
        if (state.extraBlocks(seq, std::int32_t(k)) > state.freeBlocks())
            return false;
        state.allocate(chunkedId, std::int32_t(k));
        plan.work.push_back({chunkedId, std::int32_t(k)});
        remTotal -= double(k + (k < remaining ? 0 : outputsLeft(seq)));
        remInput -= k;
        remChunk -= k;
    }
    const auto seats = std::size_t(config.maxNumSeqs);
    while (!state.waiting.empty() && state.running.size() < seats) {
        if (remTotal <= 0.0 || remInput <= 0 || (chunking && remChunk <= 0))
            break;
        const std::int32_t id = state.waiting.front();
        Sequence& seq = state.sequences[std::size_t(id)];
        const std::int64_t input = seq.tokens - seq.computed;
        const std::int64_t total = input + outputsLeft(seq);
        if (double(total) >= remTotal)
            break; // not enough KV for its input and output
        if (input >= remInput && !plan.work.empty())
            break; // the batch's input budget (a lone request may exceed it)
        const bool whole = !chunking || input <= remChunk;
        const std::int64_t k = whole ? input : remChunk;
        if (state.extraBlocks(seq, std::int32_t(k)) > state.freeBlocks())
            break;
        admitHead(state, plan);
        state.allocate(id, std::int32_t(k));
        plan.work.push_back({id, std::int32_t(k)});
        remTotal -= double(whole ? total : k);
        remInput -= k;
        remChunk -= k;
        if (!whole)
            break; // it becomes the chunked request
    }
    return !plan.work.empty();
}

void SglangPolicy::retract(EngineState& state, StepPlan& plan)
{
    // Victims: the fewest generated tokens first, then the longest prompt, then the newest.
    // Retract at least one, until the free cache holds kRetractDecodeSteps tokens for each
    // request left and every decode's next block; the last request is never retracted.
    auto victimIndex = [&state]() {
        std::size_t best = 0;
        for (std::size_t i = 1; i < state.running.size(); ++i) {
            const Sequence& a = state.sequences[std::size_t(state.running[i])];
            const Sequence& b = state.sequences[std::size_t(state.running[best])];
            if (a.generated != b.generated ? a.generated < b.generated
                                           : a.spec.promptTokens >= b.spec.promptTokens)
                best = i;
        }
        return best;
    };
    auto decodeBlocks = [&state]() {
        std::int64_t need = 0;
        for (const std::int32_t id : state.running) {
            const Sequence& seq = state.sequences[std::size_t(id)];
            if (isDecoding(seq))
                need += state.extraBlocks(seq, 1);
        }
        return need;
    };
    bool first = true;
    while (state.running.size() > 1 &&
           (first ||
            state.freeBlocks() * state.config.blockSize <
                kRetractDecodeSteps * std::int64_t(state.running.size()) ||
            decodeBlocks() > state.freeBlocks())) {
        first = false;
        const std::size_t index = victimIndex();
        const std::int32_t id = state.running[index];
        preemptRunningAt(state, plan, index, false);
        // SGLang appends retracted requests to the waiting queue.
        state.waiting.pop_front();
        state.waiting.push_back(id);
    }
    std::int64_t decoded = 0, maxNew = 0;
    for (const std::int32_t id : state.running) {
        const Sequence& seq = state.sequences[std::size_t(id)];
        decoded += seq.generated;
        maxNew += seq.spec.outputTokens;
    }
    state.newTokenRatio =
        std::min(1.0, double(decoded + kRetractDecodeSteps * std::int64_t(state.running.size())) /
                          double(std::max<std::int64_t>(maxNew, 1)));
}

void SglangPolicy::decodeBatch(EngineState& state, StepPlan& plan)
{
    std::int64_t need = 0;
    bool anyDecode = false;
    for (const std::int32_t id : state.running) {
        const Sequence& seq = state.sequences[std::size_t(id)];
        if (isDecoding(seq)) {
            need += state.extraBlocks(seq, 1);
            anyDecode = true;
        }
    }
    if (!anyDecode)
        return;
    if (need > state.freeBlocks())
        retract(state, plan);
    else
        state.newTokenRatio =
            std::max(state.newTokenRatio -
                         (initialRatio(state.config) - minimumRatio(state.config)) / kDecaySteps,
                     minimumRatio(state.config));
    for (const std::int32_t id : state.running) {
        const Sequence& seq = state.sequences[std::size_t(id)];
        if (!isDecoding(seq) || state.extraBlocks(seq, 1) > state.freeBlocks())
            continue;
        state.allocate(id, 1);
        plan.work.push_back({id, 1});
    }
}

void SglangPolicy::schedule(EngineState& state, StepPlan& plan) const
{
    if (state.newTokenRatio < 0.0)
        state.newTokenRatio = initialRatio(state.config);
    if (!prefillBatch(state, plan))
        decodeBatch(state, plan);
    if (plan.work.empty() && plan.preempted == 0)
        state.newTokenRatio = initialRatio(state.config); // idle: SGLang starts over
}

std::int64_t SglangPolicy::aloneKvTokens(const EngineConfig&, const RequestSpec& request) const
{
    // Alone it starts when its input + remaining outputs (at most the clip) are fewer than the
    // free tokens; after a retraction with g tokens generated that is prompt + g +
    // min(output - g, clip), at most prompt + output (g = output - 1).
    return std::int64_t(request.promptTokens) + request.outputTokens + 1;
}

} // namespace bs::llmsim
