// What distinguishes each scheduling policy, on hand-computed timelines (README.md,
// "Policies"). Step model: 10 ms + 0.1 ms per prefill token + 1 ms per decoding sequence.
#include "llmsimtesthelpers.h"

#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::llmsim;

namespace {

EngineRun serve(const std::string& policy, EngineConfig engine, std::vector<RequestSpec> requests)
{
    return bs::test::serveWithPolicy(policy, std::move(engine), std::move(requests));
}

EngineConfig tightCache()
{
    return bs::test::cacheOf(4, 5);
}

} // namespace

class TestLlmSimPolicies : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void orcaReservesTheWholeOutputAndNeverPreempts();
    void vllmV1PreemptsUnderTheSameLoad();
    void vllmV0RunsPrefillOnlySteps();
    void vllmV1MixesPrefillWithDecodes();
    void vllmV0PreemptsFromTheTailWhenDecodesRunOut();
    void orcaRefusesAPromptLargerThanTheBudget();
};

void TestLlmSimPolicies::orcaReservesTheWholeOutputAndNeverPreempts()
{
    // A and B need 8 + 6 - 1 = 13 tokens = 4 blocks each; the cache has 5. Orca reserves A's 4
    // at admission, so B waits until A finishes: A prefills (10.8 ms), decodes 5 times (11 ms
    // each) and finishes at 65.8 ms; B prefills then (TTFT 76.6 ms) and finishes at 131.6 ms.
    const EngineRun run = serve("orca", tightCache(), {{0.0, 8, 6}, {0.0, 8, 6}});
    QCOMPARE(run.requests[0].preemptions + run.requests[1].preemptions, 0);
    COMPARE_MS(run.requests[0].e2eS, 65.8);
    COMPARE_MS(run.requests[1].queueS, 65.8);
    COMPARE_MS(run.requests[1].ttftS, 76.6);
    COMPARE_MS(run.requests[1].e2eS, 131.6);
    QCOMPARE(run.steps[0].kvBlocksUsed, 4); // the whole reservation, from the first step
}

void TestLlmSimPolicies::vllmV1PreemptsUnderTheSameLoad()
{
    // The same two requests under vllm_v1 run together, then B is preempted (tst_llmsimvllm).
    const EngineRun run = serve("vllm_v1", tightCache(), {{0.0, 8, 6}, {0.0, 8, 6}});
    QCOMPARE(run.requests[1].preemptions, 1);
    COMPARE_MS(run.requests[1].ttftS, 11.6);
    COMPARE_MS(run.requests[1].e2eS, 121.5);
}

void TestLlmSimPolicies::vllmV0RunsPrefillOnlySteps()
{
    // B arrives 5 ms into A's prefill (20 ms). vllm_v0 gives B a prefill-only step (15 ms)
    // while A's decode waits; then both decode (12 ms), then A alone (11 ms).
    EngineConfig engine;
    engine.numGpuBlocks = 100;
    const EngineRun run = serve("vllm_v0", engine, {{0.0, 100, 3}, {0.005, 50, 2}});
    QCOMPARE(run.steps.size(), std::size_t(4));
    QCOMPARE(run.steps[1].prefillTokens, 50);
    QCOMPARE(run.steps[1].decodeSeqs, 0);
    COMPARE_MS(run.requests[1].ttftS, 30.0);
    COMPARE_MS(run.requests[0].maxItlS, 27.0);
    COMPARE_MS(run.requests[0].e2eS, 58.0);
}

void TestLlmSimPolicies::vllmV1MixesPrefillWithDecodes()
{
    // The same arrivals under vllm_v1: B's prefill shares a 16 ms step with A's decode.
    EngineConfig engine;
    engine.numGpuBlocks = 100;
    const EngineRun run = serve("vllm_v1", engine, {{0.0, 100, 3}, {0.005, 50, 2}});
    QCOMPARE(run.steps[1].prefillTokens, 50);
    QCOMPARE(run.steps[1].decodeSeqs, 1);
    COMPARE_MS(run.requests[1].ttftS, 31.0);
    COMPARE_MS(run.requests[0].maxItlS, 16.0);
}

void TestLlmSimPolicies::vllmV0PreemptsFromTheTailWhenDecodesRunOut()
{
    // Blocks of 4, 5 blocks; A and B prompts of 8 (2 blocks each) prefill together (11.6 ms).
    // Decode step: A takes the last block for its 9th token, B finds none and preempts itself;
    // A decodes alone. B's recompute (9 tokens, 3 blocks) waits for A to finish (6 tokens, at
    // 66.6 ms), then runs as a prefill-only step (10.9 ms).
    const EngineRun run = serve("vllm_v0", tightCache(), {{0.0, 8, 6}, {0.0, 8, 6}});
    QCOMPARE(run.steps[1].preempted, 1);
    QCOMPARE(run.requests[1].preemptions, 1);
    COMPARE_MS(run.requests[0].e2eS, 66.6);
    QCOMPARE(run.steps[6].prefillTokens, 9);
    COMPARE_MS(run.steps[6].durationS, 10.9);
    COMPARE_MS(run.requests[1].e2eS, 121.5);
}

void TestLlmSimPolicies::orcaRefusesAPromptLargerThanTheBudget()
{
    EngineConfig engine;
    engine.numGpuBlocks = 100;
    engine.maxNumBatchedTokens = 64;
    engine.policy = "orca";
    const LinearStepTime step(StepSpec{});
    const std::vector<RequestSpec> requests{{0.0, 100, 2}};
    auto run = runEngine(engine, step, requests);
    QVERIFY(!run);
    QVERIFY2(run.error().message.find("request 0 may need to (re)compute 100 tokens") !=
                 std::string::npos,
             run.error().message.c_str());
    QVERIFY(run.error().message.find("policy orca") != std::string::npos);
}

QTEST_APPLESS_MAIN(TestLlmSimPolicies)
#include "tst_llmsimpolicies.moc"
