// vllm_v1 scheduling against hand-computed timelines (core/llmsim/README.md, "Policies").
// Step model in every case: 10 ms + 0.1 ms per prefill token + 1 ms per decoding sequence, so
// a step's duration tells what it computed.
#include "llmsimtesthelpers.h"

#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::llmsim;

namespace {

EngineConfig roomyEngine()
{
    EngineConfig engine;
    engine.numGpuBlocks = 1000;
    return engine;
}

EngineRun serve(const EngineConfig& engine, std::vector<RequestSpec> requests)
{
    return bs::test::serveByHand(engine, std::move(requests));
}

/// Blocks of 4 tokens, 5 blocks: two 8-token prompts with 6 outputs each do not both fit.
EngineConfig tightEngine(bool prefixCaching, double hitRate = 0.0)
{
    EngineConfig engine;
    engine.blockSize = 4;
    engine.numGpuBlocks = 5;
    engine.enablePrefixCaching = prefixCaching;
    engine.prefixCacheHitRate = hitRate;
    return engine;
}

const std::vector<RequestSpec> kTwoTightRequests{{0.0, 8, 6}, {0.0, 8, 6}};

} // namespace

class TestLlmSimVllm : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aloneTtftIsOnePrefillStepTpotOneDecodeStep();
    void idleEngineJumpsToTheNextArrival();
    void arrivalDuringAStepWaitsForTheNextStep();
    void promptLongerThanTheBudgetIsChunked();
    void longPrefillThresholdCapsEachChunk();
    void withoutChunkingATooLongPromptIsAnError();
    void withoutChunkingAPromptWaitsForAWholeBudget();
    void kvPressurePreemptsTheLastRunningAndRecomputes();
    void noAdmissionInAStepThatPreempted();
    void prefixCacheSavesTheIntactPartOfARecompute();
    void prefixCacheHitRateSkipsWholeBlocksOfANewPrompt();
    void readmissionFindsTheWarmPrefixToo();
    void maxNumSeqsLimitsAdmission();
    void requestLargerThanTheCacheIsAnError();
};

void TestLlmSimVllm::aloneTtftIsOnePrefillStepTpotOneDecodeStep()
{
    // Prefill 100 tokens: 10 + 10 = 20 ms; each of 4 decodes: 10 + 1 = 11 ms.
    const EngineRun run = serve(roomyEngine(), {{0.0, 100, 5}});
    QCOMPARE(run.steps.size(), std::size_t(5));
    const RequestResult& r = run.requests[0];
    COMPARE_MS(r.ttftS, 20.0);
    COMPARE_MS(r.tpotS, 11.0);
    COMPARE_MS(r.e2eS, 64.0);
    COMPARE_MS(r.queueS, 0.0);
    COMPARE_MS(r.maxItlS, 11.0);
    QCOMPARE(run.itlGaps.count(), std::uint64_t(4));
    QCOMPARE(run.steps[0].prefillTokens, 100);
    QCOMPARE(run.steps[1].decodeSeqs, 1);
    QCOMPARE(run.steps[1].prefillTokens, 0);
}

void TestLlmSimVllm::idleEngineJumpsToTheNextArrival()
{
    const EngineRun run = serve(roomyEngine(), {{0.0, 100, 2}, {5.0, 100, 2}});
    QCOMPARE(run.steps.size(), std::size_t(4));
    COMPARE_MS(run.steps[2].startS, 5000.0);
    COMPARE_MS(run.requests[1].ttftS, 20.0);
    COMPARE_MS(run.requests[1].queueS, 0.0);
}

void TestLlmSimVllm::arrivalDuringAStepWaitsForTheNextStep()
{
    // B arrives 5 ms into A's 20 ms prefill: it is scheduled at 20 ms with A's first decode:
    // 10 + 0.1 * 50 + 1 = 16 ms, so its first token comes at 36 ms, 31 ms after it arrived.
    const EngineRun run = serve(roomyEngine(), {{0.0, 100, 3}, {0.005, 50, 2}});
    COMPARE_MS(run.requests[1].queueS, 15.0);
    COMPARE_MS(run.requests[1].ttftS, 31.0);
    COMPARE_MS(run.steps[1].durationS, 16.0);
    QCOMPARE(run.steps[1].prefillTokens, 50);
    QCOMPARE(run.steps[1].decodeSeqs, 1);
}

void TestLlmSimVllm::promptLongerThanTheBudgetIsChunked()
{
    // Budget 64: chunks 64, 64, 22 (16.4 + 16.4 + 12.2 ms), then one decode of 11 ms.
    EngineConfig engine = roomyEngine();
    engine.maxNumBatchedTokens = 64;
    const EngineRun run = serve(engine, {{0.0, 150, 2}});
    QCOMPARE(run.steps.size(), std::size_t(4));
    QCOMPARE(run.steps[0].prefillTokens, 64);
    QCOMPARE(run.steps[1].prefillTokens, 64);
    QCOMPARE(run.steps[2].prefillTokens, 22);
    COMPARE_MS(run.requests[0].ttftS, 45.0);
    COMPARE_MS(run.requests[0].e2eS, 56.0);
}

void TestLlmSimVllm::longPrefillThresholdCapsEachChunk()
{
    EngineConfig engine = roomyEngine();
    engine.longPrefillTokenThreshold = 50;
    const EngineRun run = serve(engine, {{0.0, 150, 1}});
    QCOMPARE(run.steps.size(), std::size_t(3));
    for (const StepRecord& step : run.steps)
        QCOMPARE(step.prefillTokens, 50);
    COMPARE_MS(run.requests[0].ttftS, 45.0);
    COMPARE_MS(run.requests[0].tpotS, 0.0);
}

void TestLlmSimVllm::withoutChunkingATooLongPromptIsAnError()
{
    EngineConfig engine = roomyEngine();
    engine.maxNumBatchedTokens = 64;
    engine.enableChunkedPrefill = false;
    const LinearStepTime step(bs::test::handStep());
    const std::vector<RequestSpec> requests{{0.0, 150, 2}};
    auto run = runEngine(engine, step, requests);
    QVERIFY(!run);
    QCOMPARE(run.error().code, ErrorCode::Value);
    QVERIFY(run.error().message.find("request 0 may need to (re)compute 151 tokens") !=
            std::string::npos);
}

void TestLlmSimVllm::withoutChunkingAPromptWaitsForAWholeBudget()
{
    // Budget 120: A (100) is admitted; B (60) does not fit in the 20 tokens left and is not
    // split, so it waits for the next step (A's decode + B's 60: 10 + 6 + 1 = 17 ms).
    EngineConfig engine = roomyEngine();
    engine.maxNumBatchedTokens = 120;
    engine.enableChunkedPrefill = false;
    const EngineRun run = serve(engine, {{0.0, 100, 2}, {0.0, 60, 2}});
    QCOMPARE(run.steps[0].prefillTokens, 100);
    QCOMPARE(run.steps[1].prefillTokens, 60);
    COMPARE_MS(run.requests[1].ttftS, 37.0);
}

void TestLlmSimVllm::kvPressurePreemptsTheLastRunningAndRecomputes()
{
    // Blocks of 4 tokens, 5 blocks. A and B: 8-token prompts, 6 output tokens each.
    // step 1 (11.6 ms): both prefill, 2 blocks each, 1 free; both emit their first token.
    // step 2: A's 9th token takes the free block; B needs one more, none is left: B (the last
    //   running) is preempted to waiting, frees 2; no admission in this step. A decodes (11 ms).
    // steps 3-6: B's recompute needs 3 blocks, 2 free: it waits; A decodes to its 6th token at
    //   66.6 ms and frees its 4 blocks.
    // step 7: B recomputes 9 tokens (10.9 ms) and emits its 2nd token at 77.5 ms;
    // steps 8-11: B decodes to its 6th token at 121.5 ms.
    const EngineRun run = serve(tightEngine(false), kTwoTightRequests);
    QCOMPARE(run.steps.size(), std::size_t(11));
    const RequestResult& a = run.requests[0];
    const RequestResult& b = run.requests[1];
    QCOMPARE(a.preemptions, 0);
    QCOMPARE(b.preemptions, 1);
    COMPARE_MS(a.ttftS, 11.6);
    COMPARE_MS(a.e2eS, 66.6);
    COMPARE_MS(b.ttftS, 11.6);
    COMPARE_MS(b.e2eS, 121.5);
    COMPARE_MS(b.maxItlS, 65.9);
    QCOMPARE(run.steps[1].preempted, 1);
    QCOMPARE(run.steps[1].running, 1);
    QCOMPARE(run.steps[1].waiting, 1);
    QCOMPARE(run.steps[6].prefillTokens, 9); // the recompute counts as prefill work
    QCOMPARE(run.steps[5].kvBlocksUsed, 4);
    std::int64_t preempted = 0;
    for (const StepRecord& step : run.steps)
        preempted += step.preempted;
    QCOMPARE(preempted, 1);
}

void TestLlmSimVllm::noAdmissionInAStepThatPreempted()
{
    // Blocks of 4, 5 blocks, chunks capped at 4 tokens. A and V: 4-token prompts, 10 outputs.
    // Step 1 (10.8 ms) prefills both (1 block each); steps 2-5 decode both (12 ms each; the
    // 2nd blocks are taken in step 2). Step 6: A needs a 3rd block (the last free one), V then
    // needs one too and preempts itself, freeing 2. V's recompute chunk (4 tokens, 1 block)
    // would fit, but a step that preempted admits nothing: step 6 is A's decode alone (11 ms)
    // and V's first chunk runs in step 7 with A's decode (10 + 0.4 + 1 ms).
    EngineConfig engine;
    engine.blockSize = 4;
    engine.numGpuBlocks = 5;
    engine.longPrefillTokenThreshold = 4;
    const EngineRun run = serve(engine, {{0.0, 4, 10}, {0.0, 4, 10}});
    const StepRecord& preempting = run.steps[5];
    QCOMPARE(preempting.preempted, 1);
    QCOMPARE(preempting.admitted, 0);
    QCOMPARE(preempting.decodeSeqs, 1);
    QCOMPARE(preempting.prefillTokens, 0);
    COMPARE_MS(preempting.startS, 58.8);
    COMPARE_MS(preempting.durationS, 11.0);
    QCOMPARE(run.steps[6].admitted, 1);
    QCOMPARE(run.steps[6].prefillTokens, 4);
    COMPARE_MS(run.steps[6].durationS, 11.4);
    // Step 8 takes V's second chunk (its 2nd block, the last free one); in step 9 V's last
    // recompute token needs a 3rd block, none is free, and V preempts itself once more.
    QCOMPARE(run.steps[8].preempted, 1);
    QCOMPARE(run.requests[1].preemptions, 2);
}

void TestLlmSimVllm::prefixCacheSavesTheIntactPartOfARecompute()
{
    // The KV-pressure case with prefix caching. B's two full blocks (tokens 0-7) stay cached
    // when it is preempted in step 2, at the tail of the free queue, its second block at the
    // head. In step 6 A's last block is that one: only B's first block survives. When A has
    // finished, B is readmitted with 4 tokens from the cache and computes the other 5 (prefill,
    // 10 + 0.5 ms instead of 10.9 ms for all 9), then decodes 4 times: done at 121.1 ms.
    const EngineRun run = serve(tightEngine(true), kTwoTightRequests);
    QCOMPARE(run.steps.size(), std::size_t(11));
    QCOMPARE(run.requests[1].preemptions, 1);
    QCOMPARE(run.steps[6].prefillTokens, 5);
    COMPARE_MS(run.steps[6].durationS, 10.5);
    COMPARE_MS(run.requests[1].e2eS, 121.1);
    QCOMPARE(run.steps[6].kvBlocksUsed, 3);
}

void TestLlmSimVllm::prefixCacheHitRateSkipsWholeBlocksOfANewPrompt()
{
    // Hit rate 0.5 on a 100-token prompt, blocks of 16: 50 cached tokens are 3 whole blocks,
    // 48 tokens; the prefill computes the other 52 (10 + 5.2 ms), and the request still holds
    // blocks for all 101 tokens it has after its first token (7 blocks).
    EngineConfig engine = roomyEngine();
    engine.enablePrefixCaching = true;
    engine.prefixCacheHitRate = 0.5;
    const EngineRun run = serve(engine, {{0.0, 100, 2}});
    QCOMPARE(run.steps[0].prefillTokens, 52);
    COMPARE_MS(run.requests[0].ttftS, 15.2);
    QCOMPARE(run.steps[1].kvBlocksUsed, 7);
    // 0.58 x 800 is 463.99999999999994 in doubles: still 464 tokens, 29 whole blocks.
    engine.prefixCacheHitRate = 0.58;
    const EngineRun rounded = serve(engine, {{0.0, 800, 2}});
    QCOMPARE(rounded.steps[0].prefillTokens, 800 - 464);
    // A whole prompt in the cache: one token is still computed (the last, for its logits).
    engine.prefixCacheHitRate = 1.0;
    const EngineRun cached = serve(engine, {{0.0, 32, 2}});
    QCOMPARE(cached.steps[0].prefillTokens, 16);
    // 33 tokens: two whole blocks hit and the last token costs what a decode does (11 ms).
    const EngineRun oneBlock = serve(engine, {{0.0, 33, 2}});
    QCOMPARE(oneBlock.steps[0].prefillTokens + oneBlock.steps[0].decodeSeqs, 1);
    COMPARE_MS(oneBlock.requests[0].ttftS, 11.0);
}

void TestLlmSimVllm::readmissionFindsTheWarmPrefixToo()
{
    // The recompute case above with the whole prompt in the shared prefix (hit rate 1). Each
    // 8-token prompt finds one block (at most (8 - 1) / 4) and prefills 4 tokens (step 1:
    // 10 + 0.8 ms); B is preempted in step 2 as before and only its first block survives. At
    // readmission it has 9 tokens: the warm prefix is both prompt blocks, more than its one
    // intact block, so one token is computed instead of 5, and B holds 3 blocks after it.
    const EngineRun run = serve(tightEngine(true, 1.0), kTwoTightRequests);
    QCOMPARE(run.steps.size(), std::size_t(11));
    QCOMPARE(run.steps[0].prefillTokens, 8);
    COMPARE_MS(run.steps[0].durationS, 10.8);
    QCOMPARE(run.requests[1].preemptions, 1);
    QCOMPARE(run.steps[6].admitted, 1);
    QCOMPARE(run.steps[6].prefillTokens + run.steps[6].decodeSeqs, 1);
    COMPARE_MS(run.steps[6].durationS, 11.0);
    QCOMPARE(run.steps[6].kvBlocksUsed, 3);
    // 121.5 ms without any cache, 0.8 ms less in step 1 and 0.1 ms more in step 7.
    COMPARE_MS(run.requests[1].e2eS, 120.8);
}

void TestLlmSimVllm::maxNumSeqsLimitsAdmission()
{
    // Two seats: the third request is admitted when the first two finish (after 2 steps).
    EngineConfig engine = roomyEngine();
    engine.maxNumSeqs = 2;
    const EngineRun run = serve(engine, {{0.0, 10, 2}, {0.0, 10, 2}, {0.0, 10, 2}});
    QCOMPARE(run.steps[0].running, 2);
    QCOMPARE(run.steps[0].waiting, 1);
    // step 1: 10 + 2 = 12 ms; step 2: two decodes 12 ms; C prefills at 24 ms: 11 ms.
    COMPARE_MS(run.requests[2].queueS, 24.0);
    COMPARE_MS(run.requests[2].ttftS, 35.0);
}

void TestLlmSimVllm::requestLargerThanTheCacheIsAnError()
{
    EngineConfig engine;
    engine.blockSize = 16;
    engine.numGpuBlocks = 4; // 64 tokens
    const LinearStepTime step(bs::test::handStep());
    const std::vector<RequestSpec> requests{{0.0, 10, 2}, {0.0, 60, 10}};
    auto run = runEngine(engine, step, requests);
    QVERIFY(!run);
    QCOMPARE(run.error().message,
             std::string("arrivals: request 1 needs 69 tokens of KV cache, more than the 64 the "
                         "engine has (num_gpu_blocks x block_size)"));
}

QTEST_APPLESS_MAIN(TestLlmSimVllm)
#include "tst_llmsimvllm.moc"
