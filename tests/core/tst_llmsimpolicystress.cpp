// Every scheduling policy on thousands of random small engines and loads (tiny caches, budgets
// of a few tokens, one seat, odd block sizes): each run must end with every request served in
// order, or refuse the load up front with a Value error. An engine that stalls returns an
// Internal error and fails here (the fuzz target checks the same on JSON input).
#include "llmsim/llmsimulator.h"
#include "llmsimtesthelpers.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace bs;
using namespace bs::llmsim;

namespace {

struct Case
{
    EngineConfig engine;
    std::vector<RequestSpec> requests;
};

Case randomCase(std::mt19937_64& rng, const std::string& policy)
{
    auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Case c;
    EngineConfig& e = c.engine;
    e.policy = policy;
    e.blockSize = pick(1, 8);
    e.maxNumSeqs = pick(1, 4);
    // vllm_v0 and orca never split a prompt (or a recompute): a budget that holds most loads.
    const bool splits = policy != "vllm_v0" && policy != "orca";
    e.maxNumBatchedTokens = splits ? pick(1, 64) : pick(32, 96);
    e.enableChunkedPrefill = policy == "sarathi" || pick(0, 3) > 0;
    e.longPrefillTokenThreshold = policy == "vllm_v1" && pick(0, 1) ? pick(1, 8) : 0;
    e.enablePrefixCaching = policy == "vllm_v1" && pick(0, 1);
    e.capacitySchedulerPolicy = pick(0, 1) ? "max_utilization" : "guaranteed_no_evict";
    e.maxPrefillTokens = pick(1, 64);
    e.chunkedPrefillSize = pick(0, 3) ? pick(1, 16) : -1;
    e.scheduleConservativeness = 0.1 * pick(1, 30);
    const int count = pick(1, 12);
    double arrivalS = 0.0;
    std::int64_t largest = 0;
    for (int i = 0; i < count; ++i) {
        arrivalS += 0.001 * pick(0, 20);
        const RequestSpec r{arrivalS, pick(1, 40), pick(1, 20)};
        largest = std::max<std::int64_t>(largest, r.promptTokens + r.outputTokens + 1);
        c.requests.push_back(r);
    }
    // A cache that holds the largest request alone (any policy's rule) and a little more.
    e.numGpuBlocks = (largest + e.blockSize - 1) / e.blockSize + pick(0, 3);
    return c;
}

} // namespace

class TestLlmSimPolicyStress : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void randomEnginesServeEveryRequest_data();
    void randomEnginesServeEveryRequest();
};

void TestLlmSimPolicyStress::randomEnginesServeEveryRequest_data()
{
    QTest::addColumn<QString>("policy");
    for (const char* policy : {"vllm_v1", "vllm_v0", "orca", "sarathi", "trtllm", "sglang"})
        QTest::newRow(policy) << QString::fromUtf8(policy);
}

void TestLlmSimPolicyStress::randomEnginesServeEveryRequest()
{
    QFETCH(QString, policy);
    std::mt19937_64 rng(19);
    const LinearStepTime step(bs::test::handStep());
    int served = 0, refused = 0;
    std::int64_t preempted = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const Case c = randomCase(rng, policy.toStdString());
        auto run = runEngine(c.engine, step, c.requests);
        if (!run) {
            // Only a load the policy cannot split may be refused, and it must say so.
            QVERIFY2(run.error().code == ErrorCode::Value &&
                         run.error().message.find("max_num_batched_tokens") != std::string::npos,
                     run.error().toString().c_str());
            ++refused;
            continue;
        }
        ++served;
        QCOMPARE(run->requests.size(), c.requests.size());
        // orca and trtllm's guaranteed_no_evict promise never to evict.
        const bool noEvict = c.engine.policy == "orca" ||
                             (c.engine.policy == "trtllm" &&
                              c.engine.capacitySchedulerPolicy == "guaranteed_no_evict");
        for (const RequestResult& r : run->requests) {
            QVERIFY(!noEvict || r.preemptions == 0);
            QVERIFY(std::isfinite(r.finishS));
            QVERIFY(r.firstScheduledS >= r.arrivalS && r.firstTokenS > r.firstScheduledS);
            QVERIFY(r.finishS >= r.firstTokenS);
            preempted += r.preemptions;
        }
        for (const StepRecord& s : run->steps)
            QVERIFY(s.kvBlocksUsed <= c.engine.numGpuBlocks && s.scheduledTokens > 0);
    }
    qInfo("%d served, %d refused up front, %lld preemptions", served, refused,
          static_cast<long long>(preempted));
    QVERIFY(served > 1500);
}

QTEST_APPLESS_MAIN(TestLlmSimPolicyStress)
#include "tst_llmsimpolicystress.moc"
