// The LLM simulator against a real vLLM run: Llama-3.1-8B on one RTX 4090, 300 ShareGPT
// requests at 10 req/s (shared data, llm/llmservingsim). The engine knobs come from the run's
// meta.json, arrivals and token counts from its requests.jsonl, step times from the operator
// profile measured on the same GPU. Simulated and measured TTFT/TPOT are printed side by side.
#include "io/servingrequestlog.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"
#include "llmsimtesthelpers.h"
#include "sim/percentiles.h"
#include "testsupport.h"

#include <QtTest>

#include <cmath>
#include <cstdio>

using namespace bs;

namespace {

const char* kRun = "/llm/llmservingsim/bench/examples/RTX4090/Llama-3.1-8B/vllm";
const char* kProfile = "/llm/llmservingsim/profiler/perf/RTX4090/meta-llama/Llama-3.1-8B/bf16/tp1";
const char* kModel = "/llm/llmservingsim/configs/model/meta-llama/Llama-3.1-8B.json";

struct Stats
{
    double mean = 0.0, p50 = 0.0, p99 = 0.0;
};

Stats statsOf(std::vector<double> values)
{
    Stats s;
    for (double v : values)
        s.mean += v;
    s.mean /= double(values.size());
    constexpr double probabilities[] = {0.50, 0.99};
    const auto q = sim::exactQuantiles(std::span<const double>(values), probabilities);
    s.p50 = q[0];
    s.p99 = q[1];
    return s;
}

double relativeError(double simulated, double measured)
{
    return std::abs(simulated - measured) / measured;
}

} // namespace

class TestLlmSimValidation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rtx4090Llama8bMatchesMeasuredRun();
};

void TestLlmSimValidation::rtx4090Llama8bMatchesMeasuredRun()
{
    BS_REQUIRE_SHARED_DATA(shared);
    const std::string root = shared.toStdString();
    llmsim::LlmScenario scenario;
    scenario.engine = bs::test::engineFromVllmMeta(root + kRun + "/meta.json");
    QCOMPARE(scenario.engine.numGpuBlocks, 2588);
    scenario.step.kind = llmsim::StepSpec::Kind::Profile;
    scenario.step.profileDirectory = root + kProfile;
    scenario.step.modelConfig = root + kModel;
    scenario.arrivals.file = root + kRun + "/requests.jsonl";
    auto result = llmsim::simulateLlm(scenario);
    QVERIFY2(result.hasValue(), result ? "" : result.error().toString().c_str());

    auto measured = io::readServingRequestLog(scenario.arrivals.file);
    QVERIFY(measured.hasValue());
    QCOMPARE(result->requests.size(), measured->size());
    std::vector<double> measuredTtft, measuredTpot, simulatedTtft, simulatedTpot;
    for (const auto& r : *measured) {
        measuredTtft.push_back(*r.ttftS);
        if (r.tpotS)
            measuredTpot.push_back(*r.tpotS);
    }
    for (const auto& r : result->requests) {
        simulatedTtft.push_back(r.ttftS);
        if (r.outputTokens > 1)
            simulatedTpot.push_back(r.tpotS);
    }
    const Stats mt = statsOf(measuredTtft), st = statsOf(simulatedTtft);
    const Stats mp = statsOf(measuredTpot), sp = statsOf(simulatedTpot);
    const auto& m = result->replications[0];
    std::printf("\n%-10s %12s %12s %8s\n", "metric", "measured", "simulated", "diff");
    const auto row = [](const char* name, double measuredMs, double simulatedMs) {
        std::printf("%-10s %12.1f %12.1f %+7.1f%%\n", name, measuredMs, simulatedMs,
                    100.0 * (simulatedMs - measuredMs) / measuredMs);
    };
    row("TTFT mean", 1e3 * mt.mean, 1e3 * st.mean);
    row("TTFT p50", 1e3 * mt.p50, 1e3 * st.p50);
    row("TTFT p99", 1e3 * mt.p99, 1e3 * st.p99);
    row("TPOT mean", 1e3 * mp.mean, 1e3 * sp.mean);
    row("TPOT p50", 1e3 * mp.p50, 1e3 * sp.p50);
    row("TPOT p99", 1e3 * mp.p99, 1e3 * sp.p99);
    std::printf("steps %lld, preemptions %lld, max running %d, max waiting %d, peak KV %.1f%%\n",
                static_cast<long long>(m.steps), static_cast<long long>(m.preemptions),
                m.maxRunning, m.maxWaiting, 100.0 * m.peakKvUse);
    std::fflush(stdout);

    // Without prefix caching every recompute after a preemption starts from scratch: the
    // same run comes out slower (printed to show what the knob is worth here).
    scenario.engine.enablePrefixCaching = false;
    auto uncached = llmsim::simulateLlm(scenario);
    QVERIFY(uncached.hasValue());
    const double uncachedTtftS = uncached->replications[0].ttft.meanS;
    std::printf("without prefix caching: TTFT mean %.1f ms (%+.1f%%), %lld preemptions\n",
                1e3 * uncachedTtftS, 100.0 * (uncachedTtftS - mt.mean) / mt.mean,
                static_cast<long long>(uncached->replications[0].preemptions));
    std::fflush(stdout);
    QVERIFY(uncachedTtftS > st.mean);

    // The bounds this simulator reaches on this run (README.md: "Validation"): the issue asks
    // for 10%; with the run's prefix caching modelled every figure is within 1.5%.
    constexpr double kTtftBound = 0.02;
    constexpr double kTpotBound = 0.02;
    QVERIFY(relativeError(st.mean, mt.mean) <= kTtftBound);
    QVERIFY(relativeError(st.p50, mt.p50) <= kTtftBound);
    QVERIFY(relativeError(st.p99, mt.p99) <= kTtftBound);
    QVERIFY(relativeError(sp.mean, mp.mean) <= kTpotBound);
    QVERIFY(relativeError(sp.p50, mp.p50) <= kTpotBound);
    QVERIFY(relativeError(sp.p99, mp.p99) <= kTpotBound);
}

QTEST_APPLESS_MAIN(TestLlmSimValidation)
#include "tst_llmsimvalidation.moc"
