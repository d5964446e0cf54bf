#pragma once
// Helpers shared by the tst_llmsim*.cpp timeline tests and the LLM region tests (header-only:
// each test is its own executable).

#include "analysis/llmregion.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"

#include <QtTest>

#include <cmath>
#include <string>
#include <vector>

namespace bs::test {

/// The keys of meta-llama/Llama-3.1-8B's config.json that set its shape (the whole file is in
/// ../shared/data/llm/llmservingsim/configs; test sameShapeAsTheSharedConfig compares).
inline const char* const kLlama8bConfig = R"({
  "model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096,
  "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
  "vocab_size": 128256, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})";

/// The step model of the hand-computed timelines: 10 ms + 0.1 ms per prefill token + 1 ms per
/// decoding sequence, so a step's duration tells what it computed.
inline llmsim::StepSpec handStep()
{
    llmsim::StepSpec step;
    step.baseMs = 10.0;
    step.perPrefillTokenMs = 0.1;
    step.perDecodeSeqMs = 1.0;
    return step;
}

/// Serves the requests on the hand step model; a failure stops the test program.
inline llmsim::EngineRun serveByHand(const llmsim::EngineConfig& engine,
                                     std::vector<llmsim::RequestSpec> requests)
{
    const llmsim::LinearStepTime step(handStep());
    auto run = llmsim::runEngine(engine, step, requests);
    if (!run)
        qFatal("%s", run.error().toString().c_str());
    return std::move(*run);
}

/// serveByHand under `policy`.
inline llmsim::EngineRun serveWithPolicy(const std::string& policy, llmsim::EngineConfig engine,
                                         std::vector<llmsim::RequestSpec> requests)
{
    engine.policy = policy;
    return serveByHand(engine, std::move(requests));
}

/// An engine whose cache has `blocks` blocks of `blockSize` tokens.
inline llmsim::EngineConfig cacheOf(std::int32_t blockSize, std::int64_t blocks)
{
    llmsim::EngineConfig engine;
    engine.blockSize = blockSize;
    engine.numGpuBlocks = blocks;
    return engine;
}

/// 20,000 Poisson arrivals at 8 req/s, prompts 50..800 and outputs 10..200 tokens, a 512-token
/// budget on 4,096 blocks of 16, 6 ms + 0.05 ms per prefill token + 0.3 ms per decode: the
/// engine busy about half the time with a few requests running at once (Little's-law runs).
inline llmsim::LlmScenario halfBusyPoissonScenario()
{
    using llmsim::TokenLengthSpec;
    llmsim::LlmScenario s;
    s.seed = 42;
    s.engine.numGpuBlocks = 4096;
    s.engine.maxNumBatchedTokens = 512;
    s.step.baseMs = 6.0;
    s.step.perPrefillTokenMs = 0.05;
    s.step.perDecodeSeqMs = 0.3;
    s.arrivals.kind = llmsim::LlmArrivalSpec::Kind::Poisson;
    s.arrivals.ratePerS = 8.0;
    s.arrivals.count = 20000;
    s.arrivals.promptTokens = {TokenLengthSpec::Kind::Uniform, 1, 50, 800, 0.0, 0.0};
    s.arrivals.outputTokens = {TokenLengthSpec::Kind::Uniform, 1, 10, 200, 0.0, 0.0};
    return s;
}

/// The known-answer LLM region of tst_llmregionaxes: a linear step of 5 ms + 0.04 ms per
/// prefill token + 0.5 ms per decoding sequence, 2,000 Poisson arrivals at 2 req/s (5
/// replications) of 1,000-token prompts and 20-token outputs, so one request alone takes a
/// 45 ms prefill step and 19 decode steps of 5.5 ms; one seat, a 2,048-token budget; TTFT p99
/// at most 2 s, TPOT p99 at most 25 ms.
inline analysis::LlmRegionSpec linearRegionSpec()
{
    analysis::LlmRegionSpec spec;
    auto& s = spec.scenario;
    s.seed = 5;
    s.replications = 5;
    s.engine.numGpuBlocks = 8192;
    s.step.baseMs = 5.0;
    s.step.perPrefillTokenMs = 0.04;
    s.step.perDecodeSeqMs = 0.5;
    s.arrivals.kind = llmsim::LlmArrivalSpec::Kind::Poisson;
    s.arrivals.ratePerS = 2.0;
    s.arrivals.count = 2000;
    s.arrivals.promptTokens.tokens = 1000;
    s.arrivals.outputTokens.tokens = 20;
    spec.maxNumSeqs = {1};
    spec.maxNumBatchedTokens = {2048};
    spec.limits.ttftP99Ms = 2000.0;
    spec.limits.tpotP99Ms = 25.0;
    return spec;
}

/// The engine as a real run's meta.json (LLMServingSim's bench layout) records it.
inline llmsim::EngineConfig engineFromVllmMeta(const std::string& metaPath)
{
    auto json = llmsim::readScenarioFile(metaPath);
    if (!json)
        qFatal("%s", json.error().toString().c_str());
    const auto& scheduler = (*json)["resolved_config"]["scheduler_config"];
    llmsim::EngineConfig engine;
    engine.maxNumSeqs = (*json)["engine_kwargs"]["max_num_seqs"].get<std::int32_t>();
    engine.maxNumBatchedTokens =
        (*json)["engine_kwargs"]["max_num_batched_tokens"].get<std::int32_t>();
    engine.enableChunkedPrefill = scheduler["enable_chunked_prefill"].get<bool>();
    engine.longPrefillTokenThreshold =
        scheduler["long_prefill_token_threshold"].get<std::int32_t>();
    engine.blockSize = (*json)["kv_cache"]["block_size"].get<std::int32_t>();
    engine.numGpuBlocks = (*json)["kv_cache"]["num_gpu_blocks"].get<std::int64_t>();
    engine.enablePrefixCaching = (*json)["kv_cache"]["enable_prefix_caching"].get<bool>();
    return engine;
}

/// Seconds compared at 1e-9 s (sums of decimal milliseconds are not exact in binary).
inline bool nearMs(double actualS, double expectedMs)
{
    return std::abs(actualS - expectedMs * 1e-3) < 1e-9;
}

} // namespace bs::test

#define COMPARE_MS(actualS, expectedMs)                                                            \
    QVERIFY2(                                                                                      \
        bs::test::nearMs(actualS, expectedMs),                                                     \
        qPrintable(QStringLiteral("%1 ms, expected %2 ms").arg((actualS)*1e3).arg(expectedMs)))
