// Little's law and reproducibility on long Poisson runs of the LLM simulator.
#include "llmsim/llmsimulator.h"
#include "llmsimtesthelpers.h"
#include "sim/rng.h"

#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::llmsim;

namespace {

/// bs::test::halfBusyPoissonScenario with `replications` replications.
LlmScenario poissonScenario(std::int32_t replications)
{
    LlmScenario s = bs::test::halfBusyPoissonScenario();
    s.replications = replications;
    return s;
}

} // namespace

class TestLlmSimLittle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void meanInSystemIsThroughputTimesMeanLatency();
    void sameResultOnAnyThreadCountOtherSeedOtherResult();
    void oneSeatGapsAreAllOneDecodeStep();
};

void TestLlmSimLittle::meanInSystemIsThroughputTimesMeanLatency()
{
    auto result = simulateLlm(poissonScenario(1));
    QVERIFY2(result.hasValue(), result ? "" : result.error().toString().c_str());
    const ReplicationMetrics& m = result->replications[0];
    // L from the queues at each step, weighted by the step's duration; lambda W from the
    // requests' own timestamps. The step view counts a request arriving mid-step only from the
    // next step, so L runs slightly low; more than 3% apart means requests were lost or
    // double-counted.
    const double lambdaW = m.requestsPerS * m.e2e.meanS;
    qInfo("L = %.4f, lambda W = %.4f, running mean %.2f, max waiting %d, preemptions %lld",
          m.meanInSystem, lambdaW, m.meanRunning, m.maxWaiting,
          static_cast<long long>(m.preemptions));
    QVERIFY(m.meanInSystem > 1.0); // a run with queueing, not an empty engine
    QVERIFY(std::abs(m.meanInSystem - lambdaW) / lambdaW < 0.03);
    QVERIFY(m.meanInSystem <= lambdaW * 1.0001);
    // Throughput is the offered rate on a stable run.
    QVERIFY(std::abs(m.requestsPerS - 8.0) / 8.0 < 0.03);
    QCOMPARE(m.ttft.count, std::uint64_t(20000));
}

void TestLlmSimLittle::sameResultOnAnyThreadCountOtherSeedOtherResult()
{
    LlmScenario scenario = poissonScenario(2);
    scenario.replications = 4;
    scenario.arrivals.count = 2000;
    LlmSimOptions oneThread, fourThreads;
    oneThread.threads = 1;
    fourThreads.threads = 4;
    auto a = simulateLlm(scenario, oneThread);
    auto b = simulateLlm(scenario, fourThreads);
    QVERIFY(a.hasValue() && b.hasValue());
    QCOMPARE(a->replications[0].ttft.meanS, b->replications[0].ttft.meanS);
    QCOMPARE(a->replications[1].e2e.p99S, b->replications[1].e2e.p99S);
    QCOMPARE(a->steps.size(), b->steps.size());
    QCOMPARE(a->requests.back().finishS, b->requests.back().finishS);
    QVERIFY(a->replications[0].ttft.meanS != a->replications[1].ttft.meanS);
    QCOMPARE(a->replications[1].seed, sim::replicationSeed(42, 1));
}

void TestLlmSimLittle::oneSeatGapsAreAllOneDecodeStep()
{
    // One seat: every step after a request's prefill decodes it alone, so each gap between its
    // tokens is the step's 6 ms base + 0.3 ms for one decoding sequence, and there are
    // output - 1 of them per request.
    LlmScenario scenario = poissonScenario(2);
    scenario.engine.maxNumSeqs = 1;
    scenario.arrivals.ratePerS = 1.0;
    scenario.arrivals.count = 500;
    auto result = simulateLlm(scenario);
    QVERIFY2(result.hasValue(), result ? "" : result.error().toString().c_str());
    std::uint64_t gaps = 0;
    for (const auto& request : result->requests)
        gaps += std::uint64_t(request.outputTokens - 1);
    QCOMPARE(result->itlGaps.count(), gaps);
    QCOMPARE(result->replications[0].itl.count, gaps); // replication 0's, not a pool
    std::vector<double> values, probability;
    result->itlGaps.cdf(values, probability);
    QCOMPARE(values.size(), std::size_t(1));
    QCOMPARE(probability.front(), 1.0);
    QVERIFY(std::abs(values.front() - 0.0063) <= 0.0063 * sim::LogHistogram::kRelativeError);
}

QTEST_APPLESS_MAIN(TestLlmSimLittle)
#include "tst_llmsimlittle.moc"
