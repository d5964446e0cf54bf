#include "llmsim/runreplay.h"

#include "llmsim/llmsimulator.h"

namespace bs::llmsim {

namespace {

const std::vector<std::string> kBlockSizeKeys = {"kv_cache.block_size", "block_size"};
const std::vector<std::string> kChunkedKeys = {"engine.enable_chunked_prefill",
                                               "enable_chunked_prefill"};

bool startsWith(const std::string& text, const char* prefix)
{
    return text.rfind(prefix, 0) == 0;
}

} // namespace

const std::vector<std::string>& llmPolicies()
{
    static const std::vector<std::string> policies = {"vllm_v1", "vllm_v0", "orca",
                                                      "sarathi", "trtllm",  "sglang"};
    return policies;
}

RunEngine runEngineOf(const data::LlmRun& run)
{
    RunEngine out;
    EngineConfig& e = out.engine;
    out.engineName = run.backend.empty() ? run.tool : run.backend;
    if (startsWith(out.engineName, "vllm")) {
        e.policy = "vllm_v1";
        out.policyRecorded = true;
    } else if (startsWith(out.engineName, "sglang")) {
        e.policy = "sglang";
        out.policyRecorded = true;
    }
    if (const auto blocks = data::llmKnobNumber(run, kNumGpuBlocksKeys); blocks && *blocks >= 1.0) {
        e.numGpuBlocks = std::int64_t(*blocks);
        out.kvBlocksRecorded = true;
    }
    e.blockSize = std::int32_t(data::llmKnobNumber(run, kBlockSizeKeys).value_or(e.blockSize));
    e.maxNumSeqs = std::int32_t(data::llmKnobNumber(run, kMaxNumSeqsKeys).value_or(e.maxNumSeqs));
    e.maxNumBatchedTokens = std::int32_t(
        data::llmKnobNumber(run, kMaxNumBatchedTokensKeys).value_or(e.maxNumBatchedTokens));
    // sglang's budget, where recorded as the engine accepts it (-1: no chunking).
    if (const auto chunk = data::llmKnobNumber(run, kChunkedPrefillSizeKeys);
        chunk && (*chunk == -1.0 || (*chunk >= 1.0 && *chunk <= 1e7)))
        e.chunkedPrefillSize = std::int32_t(*chunk);
    if (const auto prefill = data::llmKnobNumber(run, kMaxPrefillTokensKeys);
        prefill && *prefill >= 1.0 && *prefill <= 1e7)
        e.maxPrefillTokens = std::int32_t(*prefill);
    const auto chunked = data::llmKnob(run, kChunkedKeys);
    if (!chunked.empty())
        e.enableChunkedPrefill = chunked == "true" || chunked == "True" || chunked == "1";
    return out;
}

Expected<EngineConfig> recordedEngineOf(const data::LlmRun& run)
{
    const RunEngine recorded = runEngineOf(run);
    if (!recorded.policyRecorded)
        return makeError(ErrorCode::Unsupported,
                         "the simulator has no scheduling policy for engine '" +
                             recorded.engineName + "'");
    if (!recorded.kvBlocksRecorded)
        return makeError(ErrorCode::Unsupported,
                         "the run does not record its KV cache size (num_gpu_blocks)");
    return recorded.engine;
}

Expected<RunReplay> replayRun(const data::LlmRun& run, const EngineConfig& fitEngine,
                              const EngineConfig& engine, const std::optional<StepFit>& knownFit,
                              CancelToken cancel)
{
    auto requests = replayOfMeasured(run.requests);
    if (!requests)
        return requests.error();
    RunReplay replay;
    if (knownFit) {
        replay.fit = *knownFit;
    } else {
        auto fit = fitLinearStep(fitEngine, run.requests, cancel);
        if (!fit)
            return fit.error();
        replay.fit = std::move(*fit);
    }
    replay.scenario.name = "Replay of the measured run";
    replay.scenario.engine = engine;
    replay.scenario.step = replay.fit.step;
    replay.scenario.arrivals.requests = std::move(*requests);
    LlmSimOptions options;
    options.threads = 1; // one replication: a pool would only add start-up cost
    auto result = simulateLlm(replay.scenario, options, cancel);
    if (!result)
        return result.error();
    replay.result = std::move(*result);
    return replay;
}

} // namespace bs::llmsim
