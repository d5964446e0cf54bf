// The sarathi, trtllm and sglang policies against vllm_v1 on hand-computed timelines
// (README.md, "Policies"), Little's law on long runs of each, and their knobs in the scenario
// JSON. Step model: 10 ms + 0.1 ms per prefill token + 1 ms per decoding sequence.
#include "llmsim/llmscenariojson.h"
#include "llmsimtesthelpers.h"
#include "testsupport.h"

#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::llmsim;

namespace {

EngineRun serve(const std::string& policy, EngineConfig engine, std::vector<RequestSpec> requests)
{
    return bs::test::serveWithPolicy(policy, std::move(engine), std::move(requests));
}

EngineConfig cache(std::int32_t blockSize, std::int64_t blocks)
{
    return bs::test::cacheOf(blockSize, blocks);
}

EngineConfig trtllm(const char* capacityPolicy)
{
    EngineConfig engine = cache(4, 5);
    engine.capacitySchedulerPolicy = capacityPolicy;
    return engine;
}

std::int64_t preemptions(const EngineRun& run)
{
    std::int64_t total = 0;
    for (const RequestResult& r : run.requests)
        total += r.preemptions;
    return total;
}

std::string fixture(const char* name)
{
    return bs::test::testDataPath(QStringLiteral("llmsim/") + QString::fromUtf8(name))
        .toStdString();
}

/// tst_llmsimlittle's load (20,000 requests at 8 req/s, prompts 50..800, outputs 10..200) on
/// a cache of `blocks` blocks of 16.
LlmScenario poissonScenario(const std::string& policy, const std::string& capacityPolicy,
                            std::int64_t blocks)
{
    LlmScenario s = bs::test::halfBusyPoissonScenario();
    s.engine.policy = policy;
    s.engine.capacitySchedulerPolicy = capacityPolicy;
    s.engine.numGpuBlocks = blocks;
    return s;
}

} // namespace

class TestLlmSimPolicies2 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sarathiStartsARequestOnlyWhenItsWholePromptFits();
    void sarathiDecodesFirstWhileALongPromptIsChunked();
    void trtllmGuaranteedNoEvictStartsOnlyWhatCanFinish();
    void trtllmMaxUtilizationStartsBothAndPausesTheNewest();
    void trtllmWithoutChunkingRefusesAContextOverTheBudget();
    void sglangRunsPrefillOnlySteps();
    void sglangStallsDecodesWhileAPromptIsChunked();
    void sglangRetractsWhenTheReservationWasTooOptimistic();
    void littlesLawHoldsForEachNewPolicy_data();
    void littlesLawHoldsForEachNewPolicy();
    void policyKnobsRoundTrip();
    void misappliedKnobsAreRefused_data();
    void misappliedKnobsAreRefused();
    void fixturesServeTheHandTimelines();
};

void TestLlmSimPolicies2::sarathiStartsARequestOnlyWhenItsWholePromptFits()
{
    // Blocks of 4, 5 blocks, budget 16; A and B: 12-token prompts, 4 outputs, both at 0.
    // vllm_v1: step 1 takes A's 12 tokens (3 blocks) and a 4-token chunk of B (1 block), 11.6
    // ms. Step 2: A's decode takes the last block; B's next 8 tokens need 2 more, so B preempts
    // itself; A decodes alone (11 ms, 22.6). B's recompute needs 3 blocks: it waits for A (done
    // at 44.6), prefills 12 tokens (11.2 ms, TTFT 55.8) and decodes 3 times: 88.8 ms.
    EngineConfig engine = cache(4, 5);
    engine.maxNumBatchedTokens = 16;
    const EngineRun v1 = serve("vllm_v1", engine, {{0.0, 12, 4}, {0.0, 12, 4}});
    QCOMPARE(v1.requests[1].preemptions, 1);
    COMPARE_MS(v1.requests[0].e2eS, 44.6);
    COMPARE_MS(v1.requests[1].ttftS, 55.8);
    COMPARE_MS(v1.requests[1].e2eS, 88.8);
    // sarathi: B's whole prompt (3 blocks) is not free after A's, so B never starts early.
    // A: prefill 11.2 ms, 3 decodes of 11 ms (A's 4th block comes from the 2 free): 44.2 ms.
    // B then prefills (11.2 ms, TTFT 55.4) and decodes 3 times: 88.4 ms. No preemption.
    const EngineRun sarathi = serve("sarathi", engine, {{0.0, 12, 4}, {0.0, 12, 4}});
    QCOMPARE(preemptions(sarathi), 0);
    QCOMPARE(sarathi.steps[0].admitted, 1);
    COMPARE_MS(sarathi.steps[0].durationS, 11.2);
    COMPARE_MS(sarathi.requests[0].e2eS, 44.2);
    COMPARE_MS(sarathi.requests[1].queueS, 44.2);
    COMPARE_MS(sarathi.requests[1].ttftS, 55.4);
    COMPARE_MS(sarathi.requests[1].e2eS, 88.4);
}

void TestLlmSimPolicies2::sarathiDecodesFirstWhileALongPromptIsChunked()
{
    // Budget 32. A (8-token prompt, 5 outputs) prefills alone (10.8 ms); B (100 tokens) arrives
    // at 5 ms. Each next step holds A's decode first, then 31 tokens of B: 10 + 3.1 + 1 = 14.1
    // ms, three times (24.9, 39.0, 53.1), then B's last 7 tokens beside A's last decode (11.7
    // ms, 64.8): A's gaps stay 14.1 ms while B is chunked, TPOT (64.8 - 10.8) / 4 = 13.5 ms.
    // B's TTFT 64.8 - 5 = 59.8 ms; its decode alone ends at 75.8 ms.
    EngineConfig engine = cache(4, 64);
    engine.maxNumBatchedTokens = 32;
    const std::vector<RequestSpec> requests{{0.0, 8, 5}, {0.005, 100, 2}};
    const EngineRun sarathi = serve("sarathi", engine, requests);
    QCOMPARE(sarathi.steps.size(), std::size_t(6));
    for (std::size_t i = 1; i <= 3; ++i) {
        QCOMPARE(sarathi.steps[i].decodeSeqs, 1);
        QCOMPARE(sarathi.steps[i].prefillTokens, 31);
        COMPARE_MS(sarathi.steps[i].durationS, 14.1);
    }
    QCOMPARE(sarathi.steps[4].prefillTokens, 7);
    COMPARE_MS(sarathi.requests[0].tpotS, 13.5);
    COMPARE_MS(sarathi.requests[0].maxItlS, 14.1);
    COMPARE_MS(sarathi.requests[1].ttftS, 59.8);
    COMPARE_MS(sarathi.requests[1].e2eS, 70.8);
    // vllm_v1 reaches A first as well (A was admitted first) and fills the same budget: the
    // same timeline. The orders differ only when a partial prefill is ahead of a decode.
    const EngineRun v1 = serve("vllm_v1", engine, requests);
    QCOMPARE(v1.steps.size(), sarathi.steps.size());
    COMPARE_MS(v1.requests[1].e2eS, 70.8);
}

void TestLlmSimPolicies2::trtllmGuaranteedNoEvictStartsOnlyWhatCanFinish()
{
    // Blocks of 4, 5 blocks; A and B need 8 + 6 - 1 = 13 tokens = 4 blocks each. B would find
    // 5 - 4 = 1 block after A's whole need, so it waits for A: A prefills (10.8 ms) and
    // decodes 5 times (11 ms): 65.8 ms; B then prefills (TTFT 76.6 ms) and ends at 131.6 ms.
    // Unlike orca, blocks are taken as tokens are computed: 2 in use after the first step.
    const EngineRun run =
        serve("trtllm", trtllm("guaranteed_no_evict"), {{0.0, 8, 6}, {0.0, 8, 6}});
    QCOMPARE(preemptions(run), 0);
    QCOMPARE(run.steps[0].admitted, 1);
    QCOMPARE(run.steps[0].kvBlocksUsed, 2);
    COMPARE_MS(run.requests[0].e2eS, 65.8);
    COMPARE_MS(run.requests[1].queueS, 65.8);
    COMPARE_MS(run.requests[1].ttftS, 76.6);
    COMPARE_MS(run.requests[1].e2eS, 131.6);
    // vllm_v1 starts both at once and preempts B at the first decode (tst_llmsimpolicies).
    const EngineRun v1 =
        serve("vllm_v1", trtllm("guaranteed_no_evict"), {{0.0, 8, 6}, {0.0, 8, 6}});
    QCOMPARE(v1.steps[1].preempted, 1);
}

void TestLlmSimPolicies2::trtllmMaxUtilizationStartsBothAndPausesTheNewest()
{
    // Same load. max_utilization asks only for the next step's blocks: both prompts (2 blocks
    // each) start together (11.6 ms). Step 2: A's 9th token takes the last block; B needs one
    // too, and nothing started after B can be paused, so B sits out holding its 2 blocks
    // (vllm_v1 preempts it here). A decodes alone: 22.6, 33.6, 44.6, 55.6 ms. Step 6: A's 13th
    // token needs a 4th block: B, the newest started request, is paused (its 2 blocks freed),
    // A finishes at 66.6 ms. B recomputes 9 tokens (10.9 ms, 77.5) and decodes 4 times: 121.5.
    const EngineRun run = serve("trtllm", trtllm("max_utilization"), {{0.0, 8, 6}, {0.0, 8, 6}});
    QCOMPARE(run.steps[0].admitted, 2);
    QCOMPARE(run.steps[1].preempted, 0);
    QCOMPARE(run.steps[1].decodeSeqs, 1);
    QCOMPARE(run.steps[1].kvBlocksUsed, 5);
    QCOMPARE(run.steps[5].preempted, 1);
    QCOMPARE(run.requests[1].preemptions, 1);
    COMPARE_MS(run.requests[0].e2eS, 66.6);
    COMPARE_MS(run.requests[1].ttftS, 11.6);
    QCOMPARE(run.steps[6].prefillTokens, 9);
    COMPARE_MS(run.requests[1].maxItlS, 65.9);
    COMPARE_MS(run.requests[1].e2eS, 121.5);
}

void TestLlmSimPolicies2::trtllmWithoutChunkingRefusesAContextOverTheBudget()
{
    EngineConfig engine = trtllm("max_utilization");
    engine.numGpuBlocks = 100;
    engine.maxNumBatchedTokens = 64;
    engine.enableChunkedPrefill = false;
    engine.policy = "trtllm";
    const LinearStepTime step(bs::test::handStep());
    // 60 + 5 - 1 = 64 tokens fit a paused request's recompute; 60 + 6 - 1 = 65 do not.
    QVERIFY(runEngine(engine, step, std::vector<RequestSpec>{{0.0, 60, 5}}).hasValue());
    auto run = runEngine(engine, step, std::vector<RequestSpec>{{0.0, 60, 6}});
    QVERIFY(!run);
    QVERIFY2(run.error().message.find("may need to (re)compute 65 tokens") != std::string::npos,
             run.error().message.c_str());
    engine.capacitySchedulerPolicy = "guaranteed_no_evict"; // nothing is recomputed
    QVERIFY(runEngine(engine, step, std::vector<RequestSpec>{{0.0, 60, 6}}).hasValue());
}

void TestLlmSimPolicies2::sglangRunsPrefillOnlySteps()
{
    // A (20-token prompt, 3 outputs) at 0, B (the same) at 15 ms; 100 blocks of 16.
    // sglang: A prefills (12 ms), decodes alone (11 ms, 23; B arrived meanwhile); step 3 is a
    // prefill batch of B only (12 ms, 35: B's TTFT 20 ms) while A's decode waits; then both
    // decode (12 ms, 47: A done) and B alone (11 ms, 58: B's E2E 43 ms). A's longest gap: 24.
    EngineConfig engine = cache(16, 100);
    const std::vector<RequestSpec> requests{{0.0, 20, 3}, {0.015, 20, 3}};
    const EngineRun run = serve("sglang", engine, requests);
    QCOMPARE(run.steps.size(), std::size_t(5));
    QCOMPARE(run.steps[2].prefillTokens, 20);
    QCOMPARE(run.steps[2].decodeSeqs, 0);
    COMPARE_MS(run.requests[1].ttftS, 20.0);
    COMPARE_MS(run.requests[0].maxItlS, 24.0);
    COMPARE_MS(run.requests[0].e2eS, 47.0);
    COMPARE_MS(run.requests[1].e2eS, 43.0);
    // vllm_v1 puts B's prompt beside A's decode (13 ms, 36): B's TTFT 21 ms, A's gaps 11, 13.
    const EngineRun v1 = serve("vllm_v1", engine, requests);
    QCOMPARE(v1.steps[2].decodeSeqs, 1);
    COMPARE_MS(v1.requests[1].ttftS, 21.0);
    COMPARE_MS(v1.requests[0].maxItlS, 13.0);
    COMPARE_MS(v1.requests[0].e2eS, 36.0);
}

void TestLlmSimPolicies2::sglangStallsDecodesWhileAPromptIsChunked()
{
    // sarathiDecodesFirstWhileALongPromptIsChunked's load under sglang, chunks of 32: A
    // prefills (10.8 ms); B's 100 tokens run as prefill-only batches of 32, 32, 32 and 4
    // (13.2 ms thrice: 24.0, 37.2, 50.4; then 10.4 ms: 60.8, B's TTFT 55.8) while A's decode
    // waits (no mixed chunks). Then both decode (12 ms, 72.8: B done, E2E 67.8) and A alone
    // (83.8, 94.8, 105.8): A's longest gap 62 ms and TPOT (105.8 - 10.8) / 4 = 23.75 ms against
    // sarathi's 14.1 and 13.5.
    EngineConfig engine = cache(4, 64);
    engine.chunkedPrefillSize = 32;
    const EngineRun run = serve("sglang", engine, {{0.0, 8, 5}, {0.005, 100, 2}});
    QCOMPARE(run.steps.size(), std::size_t(9));
    for (std::size_t i = 1; i <= 3; ++i) {
        QCOMPARE(run.steps[i].prefillTokens, 32);
        QCOMPARE(run.steps[i].decodeSeqs, 0);
    }
    QCOMPARE(run.steps[4].prefillTokens, 4);
    COMPARE_MS(run.requests[1].ttftS, 55.8);
    COMPARE_MS(run.requests[1].e2eS, 67.8);
    COMPARE_MS(run.requests[0].maxItlS, 62.0);
    COMPARE_MS(run.requests[0].tpotS, 23.75);
}

void TestLlmSimPolicies2::sglangRetractsWhenTheReservationWasTooOptimistic()
{
    // 11 blocks of 4 (44 tokens); A and B: 4-token prompts, 20 outputs (6 blocks each at the
    // end, 12 > 11); B arrives at 1 ms. A prefills (10.4 ms). B needs 4 + 20 = 24 tokens of
    // headroom; the free 40 less 0.7 x A's 19 remaining outputs leave 26.7: B starts in a
    // prefill-only step (10.4 ms, 20.8). Both then decode in step (12 ms each), taking a block
    // each at steps 3, 7, 11, 15; at step 19 (start 20.8 + 16 x 12 = 212.8 ms) both need their
    // 6th block and one is free: the request with the fewest generated tokens (a tie at 17),
    // the longest prompt (a tie), the newest, B, is retracted. A decodes alone: 223.8, 234.8,
    // 245.8 (done); the ratio went to min(1, (17 + 20) / 20) = 1, so B's recompute (21 tokens +
    // 3 outputs = 24) waits for A's blocks (it finds 20 - 2 and 20 - 1 before). B recomputes
    // (12.1 ms, 257.9) and decodes twice: 279.9 ms, E2E 278.9 ms.
    const std::vector<RequestSpec> requests{{0.0, 4, 20}, {0.001, 4, 20}};
    const EngineRun run = serve("sglang", cache(4, 11), requests);
    QCOMPARE(run.steps[1].admitted, 1);
    QCOMPARE(run.steps[1].decodeSeqs, 0);
    QCOMPARE(run.steps[18].preempted, 1);
    QCOMPARE(run.requests[0].preemptions, 0);
    QCOMPARE(run.requests[1].preemptions, 1);
    COMPARE_MS(run.requests[1].ttftS, 19.8);
    COMPARE_MS(run.requests[0].e2eS, 245.8);
    QCOMPARE(run.steps[21].prefillTokens, 21);
    COMPARE_MS(run.requests[1].e2eS, 278.9);
    // vllm_v1 runs B's prompt beside A's decode (11.4 ms, 21.8) and preempts B (the last
    // admitted) when it finds no 6th block at step 19 (213.8 ms); A ends at 235.8 ms, B
    // recomputes at 235.8 (12.1 ms) and decodes twice: 269.9 ms, E2E 268.9 ms.
    const EngineRun v1 = serve("vllm_v1", cache(4, 11), requests);
    QCOMPARE(v1.steps[18].preempted, 1);
    QCOMPARE(v1.requests[1].preemptions, 1);
    COMPARE_MS(v1.requests[0].e2eS, 235.8);
    COMPARE_MS(v1.requests[1].e2eS, 268.9);
}

void TestLlmSimPolicies2::littlesLawHoldsForEachNewPolicy_data()
{
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("capacity");
    QTest::addColumn<qint64>("blocks");
    for (const qint64 blocks : {qint64(4096), qint64(400)}) {
        QTest::addRow("sarathi %lld", blocks)
            << QStringLiteral("sarathi") << QStringLiteral("guaranteed_no_evict") << blocks;
        QTest::addRow("trtllm guaranteed_no_evict %lld", blocks)
            << QStringLiteral("trtllm") << QStringLiteral("guaranteed_no_evict") << blocks;
        QTest::addRow("trtllm max_utilization %lld", blocks)
            << QStringLiteral("trtllm") << QStringLiteral("max_utilization") << blocks;
        QTest::addRow("sglang %lld", blocks)
            << QStringLiteral("sglang") << QStringLiteral("guaranteed_no_evict") << blocks;
    }
}

void TestLlmSimPolicies2::littlesLawHoldsForEachNewPolicy()
{
    QFETCH(QString, policy);
    QFETCH(QString, capacity);
    QFETCH(qint64, blocks);
    auto result =
        simulateLlm(poissonScenario(policy.toStdString(), capacity.toStdString(), blocks));
    QVERIFY2(result.hasValue(), result ? "" : result.error().toString().c_str());
    const ReplicationMetrics& m = result->replications[0];
    // As tst_llmsimlittle: L from the queues at each step, lambda W from the requests' times.
    const double lambdaW = m.requestsPerS * m.e2e.meanS;
    qInfo("L = %.4f, lambda W = %.4f, TTFT mean %.1f ms, TPOT mean %.2f ms, steps %lld, "
          "preemptions %lld, peak KV %.3f",
          m.meanInSystem, lambdaW, m.ttft.meanS * 1e3, m.tpot.meanS * 1e3,
          static_cast<long long>(m.steps), static_cast<long long>(m.preemptions), m.peakKvUse);
    QVERIFY(m.meanInSystem > 1.0);
    // guaranteed_no_evict never evicts; on 400 blocks the others run the cache full and preempt.
    if (capacity == QStringLiteral("guaranteed_no_evict") && policy == QStringLiteral("trtllm"))
        QCOMPARE(m.preemptions, std::int64_t(0));
    else if (blocks == 400)
        QVERIFY(m.preemptions > 0 && m.peakKvUse == 1.0);
    QVERIFY(std::abs(m.meanInSystem - lambdaW) / lambdaW < 0.03);
    QVERIFY(m.meanInSystem <= lambdaW * 1.0001);
    QVERIFY(std::abs(m.requestsPerS - 8.0) / 8.0 < 0.03);
    QCOMPARE(m.ttft.count, std::uint64_t(20000));
}

void TestLlmSimPolicies2::policyKnobsRoundTrip()
{
    const auto json = nlohmann::json::parse(R"({
        "engine": {"policy": "sglang", "num_gpu_blocks": 64, "max_prefill_tokens": 4096,
                   "chunked_prefill_size": -1, "schedule_conservativeness": 0.3},
        "step": {"kind": "linear", "base_ms": 1},
        "arrivals": {"kind": "replay", "requests": [{"arrival_s": 0, "prompt_tokens": 4, "output_tokens": 2}]}})");
    auto scenario = llmScenarioFromJson(json, "s.json");
    QVERIFY2(scenario.hasValue(), scenario ? "" : scenario.error().toString().c_str());
    QCOMPARE(scenario->engine.maxPrefillTokens, 4096);
    QCOMPARE(scenario->engine.chunkedPrefillSize, -1);
    QCOMPARE(scenario->engine.scheduleConservativeness, 0.3);
    for (const char* name : {"policy_sarathi.json", "policy_trtllm.json", "policy_sglang.json",
                             "vllm_70b_a100_40gb_tp8.json"}) {
        auto file = readScenarioFile(fixture(name));
        QVERIFY(file.hasValue());
        auto read = llmScenarioFromJson(*file, fixture(name));
        QVERIFY2(read.hasValue(), read ? "" : read.error().toString().c_str());
        auto again = llmScenarioFromJson(llmScenarioToJson(*read), "again");
        QVERIFY2(again.hasValue(), again ? "" : again.error().toString().c_str());
        QVERIFY(*again == *read);
    }
    // A knob of another policy is not written, so it reads back under its own policy only.
    LlmScenario s = *scenario;
    const nlohmann::json written = llmScenarioToJson(s);
    QVERIFY(!written["engine"].contains("capacity_scheduler_policy"));
    QVERIFY(!written["engine"].contains("enable_prefix_caching"));
    QCOMPARE(written["engine"]["chunked_prefill_size"].get<int>(), -1);
}

void TestLlmSimPolicies2::misappliedKnobsAreRefused_data()
{
    QTest::addColumn<QString>("engine");
    QTest::addColumn<QString>("expected");
    QTest::newRow("capacity policy under vllm_v1")
        << QStringLiteral(R"("policy": "vllm_v1", "capacity_scheduler_policy": "max_utilization")")
        << QStringLiteral(
               "scenario.engine.capacity_scheduler_policy: applies to the trtllm policy only");
    QTest::newRow("chunked_prefill_size under trtllm")
        << QStringLiteral(R"("policy": "trtllm", "chunked_prefill_size": 512)")
        << QStringLiteral(
               "scenario.engine.chunked_prefill_size: applies to the sglang policy only");
    QTest::newRow("max_prefill_tokens under sarathi")
        << QStringLiteral(R"("policy": "sarathi", "max_prefill_tokens": 512)")
        << QStringLiteral("scenario.engine.max_prefill_tokens: applies to the sglang policy only");
    QTest::newRow("conservativeness under orca")
        << QStringLiteral(R"("policy": "orca", "schedule_conservativeness": 2)")
        << QStringLiteral(
               "scenario.engine.schedule_conservativeness: applies to the sglang policy only");
    QTest::newRow("unknown capacity policy")
        << QStringLiteral(R"("policy": "trtllm", "capacity_scheduler_policy": "static_batch")")
        << QStringLiteral("scenario.engine.capacity_scheduler_policy");
    QTest::newRow("chunk of 0")
        << QStringLiteral(R"("policy": "sglang", "chunked_prefill_size": 0)")
        << QStringLiteral("scenario.engine.chunked_prefill_size: must be -1");
    QTest::newRow("chunk below -1")
        << QStringLiteral(R"("policy": "sglang", "chunked_prefill_size": -2)")
        << QStringLiteral("scenario.engine.chunked_prefill_size");
    QTest::newRow("conservativeness 0")
        << QStringLiteral(R"("policy": "sglang", "schedule_conservativeness": 0)")
        << QStringLiteral("scenario.engine.schedule_conservativeness");
    QTest::newRow("max_prefill_tokens 0")
        << QStringLiteral(R"("policy": "sglang", "max_prefill_tokens": 0)")
        << QStringLiteral("scenario.engine.max_prefill_tokens");
    QTest::newRow("sarathi without chunking")
        << QStringLiteral(R"("policy": "sarathi", "enable_chunked_prefill": false)")
        << QStringLiteral("scenario.engine.enable_chunked_prefill: sarathi always chunks");
    QTest::newRow("prefix caching under sglang")
        << QStringLiteral(R"("policy": "sglang", "enable_prefix_caching": true)")
        << QStringLiteral(
               "scenario.engine.enable_prefix_caching: is modelled for the vllm_v1 policy only");
}

void TestLlmSimPolicies2::misappliedKnobsAreRefused()
{
    QFETCH(QString, engine);
    QFETCH(QString, expected);
    const QString text =
        QStringLiteral(R"({"engine": {"num_gpu_blocks": 8, )") + engine +
        QStringLiteral(
            R"(}, "step": {"kind": "linear", "base_ms": 1}, "arrivals": {"kind": "replay", "requests": [{"arrival_s": 0, "prompt_tokens": 4, "output_tokens": 2}]}})");
    auto scenario = llmScenarioFromJson(nlohmann::json::parse(text.toStdString()), "s.json");
    QVERIFY(!scenario);
    const QString message = QString::fromStdString(scenario.error().toString());
    QVERIFY2(message.startsWith(QStringLiteral("s.json")) && message.contains(expected),
             qPrintable(message));
}

void TestLlmSimPolicies2::fixturesServeTheHandTimelines()
{
    // The fuzz seeds are the scenarios above, read from JSON (tests/data/llmsim/README.md).
    auto run = [](const char* name) {
        auto json = readScenarioFile(fixture(name));
        if (!json)
            qFatal("%s", json.error().toString().c_str());
        auto scenario = llmScenarioFromJson(*json, fixture(name));
        if (!scenario)
            qFatal("%s", scenario.error().toString().c_str());
        auto result = simulateLlm(*scenario);
        if (!result)
            qFatal("%s", result.error().toString().c_str());
        return std::move(*result);
    };
    const LlmResult sarathi = run("policy_sarathi.json");
    COMPARE_MS(sarathi.requests[0].tpotS, 13.5);
    COMPARE_MS(sarathi.requests[1].e2eS, 70.8);
    const LlmResult trt = run("policy_trtllm.json");
    QCOMPARE(trt.requests[1].preemptions, 1);
    COMPARE_MS(trt.requests[1].e2eS, 121.5);
    const LlmResult sglang = run("policy_sglang.json");
    QCOMPARE(sglang.requests[1].preemptions, 1);
    COMPARE_MS(sglang.requests[1].e2eS, 278.9);
}

QTEST_APPLESS_MAIN(TestLlmSimPolicies2)
#include "tst_llmsimpolicies2.moc"
