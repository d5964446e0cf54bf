// Arrivals fitted to a request trace (issue 19: "distributions fitted to a trace"): Poisson at
// the trace's rate with lognormal lengths of its mean and spread. Checked on a trace the
// simulator generated from known distributions (the fit gives them back), on the hand-sized
// Azure fixture end to end through the scenario JSON, and on the real Azure code trace.
#include "llmsim/llmresultjson.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"
#include "llmsim/tracefit.h"
#include "llmsimtesthelpers.h"
#include "testsupport.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace bs;
using namespace bs::llmsim;

namespace {

bool within(double value, double expected, double relative)
{
    return std::abs(value - expected) <= relative * std::abs(expected);
}

std::vector<RequestSpec> specsOf(const std::vector<RequestResult>& requests)
{
    std::vector<RequestSpec> out;
    for (const RequestResult& r : requests)
        out.push_back({r.arrivalS, r.promptTokens, r.outputTokens});
    return out;
}

} // namespace

class TestLlmTraceFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fitGivesBackTheDistributionsThatMadeTheTrace()
    {
        LlmScenario source = bs::test::halfBusyPoissonScenario();
        source.arrivals.ratePerS = 5.0;
        source.arrivals.promptTokens = {TokenLengthSpec::Kind::Lognormal, 1, 1, 8192, 300.0, 1.2};
        source.arrivals.outputTokens = {TokenLengthSpec::Kind::Fixed, 64, 1, 1, 1.0, 0.0};
        auto run = simulateLlm(source);
        QVERIFY2(run, run ? "" : run.error().toString().c_str());
        auto fitted = poissonFittedTo(specsOf(run->requests), 0);
        QVERIFY2(fitted, fitted ? "" : fitted.error().toString().c_str());
        qInfo("rate %.3f req/s (5), prompts mean %.1f cv %.3f (300, 1.2), outputs %d tokens",
              fitted->ratePerS, fitted->promptTokens.mean, fitted->promptTokens.cv,
              fitted->outputTokens.tokens);
        QVERIFY(within(fitted->ratePerS, 5.0, 0.03));
        QVERIFY(within(fitted->promptTokens.mean, 300.0, 0.03));
        QVERIFY(within(fitted->promptTokens.cv, 1.2, 0.1));
        QCOMPARE(fitted->outputTokens.kind, TokenLengthSpec::Kind::Fixed);
        QCOMPARE(fitted->outputTokens.tokens, 64);
        QCOMPARE(fitted->count, std::int64_t(run->requests.size()));
    }

    void aFittedScenarioRunsWithReplicationsAndSaysWhatItRan()
    {
        // azure_small.csv: three requests one second apart, prompts 100, 50, 20 tokens.
        const std::string trace =
            bs::test::testDataPath(QStringLiteral("llmsim/azure_small.csv")).toStdString();
        nlohmann::json json = {
            {"kind", "llm"},
            {"replications", 3},
            {"engine", {{"num_gpu_blocks", 100}}},
            {"step", {{"kind", "linear"}, {"base_ms", 10}, {"per_decode_seq_ms", 1}}},
            {"arrivals", {{"kind", "fitted"}, {"file", trace}, {"requests", 40}}}};
        auto scenario = llmScenarioFromJson(json, "fitted.json");
        QVERIFY2(scenario, scenario ? "" : scenario.error().toString().c_str());
        auto again = llmScenarioFromJson(llmScenarioToJson(*scenario), "fitted.json");
        QVERIFY(again && *again == *scenario);
        auto result = simulateLlm(*scenario);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        QCOMPARE(result->replications.size(), std::size_t(3));
        QCOMPARE(result->arrivalsFittedFrom, trace);
        const LlmArrivalSpec& ran = result->scenario.arrivals;
        QCOMPARE(ran.kind, LlmArrivalSpec::Kind::Poisson);
        QVERIFY(std::abs(ran.ratePerS - 1.0) < 1e-12); // 2 gaps in 2 s
        QVERIFY(std::abs(ran.promptTokens.mean - 170.0 / 3.0) < 1e-9);
        QCOMPARE(ran.promptTokens.max, 100);
        QCOMPARE(result->requests.size(), std::size_t(40));
        const auto out = llmResultToJson(*result);
        QCOMPARE(out["arrivals_fitted_from"].get<std::string>(), trace);
        QCOMPARE(out["scenario"]["arrivals"]["kind"].get<std::string>(), std::string("poisson"));
    }

    void theRealAzureCodeTraceAndItsFitOfferTheSameTokens()
    {
        // The fit keeps the trace's rate and mean lengths, so on an engine with room to spare
        // both serve the same output tokens per second; the burstier trace queues more.
        BS_REQUIRE_SHARED_DATA(shared);
        const std::string trace =
            shared.toStdString() + "/arrival_traces/azure_llm_2023/AzureLLMInferenceTrace_code.csv";
        LlmScenario replay;
        replay.engine.numGpuBlocks = 1 << 16;
        replay.engine.maxNumBatchedTokens = 8192;
        replay.step.baseMs = 8.0;
        replay.step.perPrefillTokenMs = 0.01;
        replay.step.perDecodeSeqMs = 0.05;
        replay.arrivals.kind = LlmArrivalSpec::Kind::Replay;
        replay.arrivals.file = trace;
        LlmScenario fitted = replay;
        fitted.arrivals.kind = LlmArrivalSpec::Kind::Fitted;
        fitted.arrivals.count = 0;
        fitted.replications = 3;
        auto measured = simulateLlm(replay);
        auto modelled = simulateLlm(fitted);
        QVERIFY2(measured, measured ? "" : measured.error().toString().c_str());
        QVERIFY2(modelled, modelled ? "" : modelled.error().toString().c_str());
        const auto& a = modelled->scenario.arrivals;
        const double replayTokens = measured->replications[0].outputTokensPerS;
        double fittedTokens = 0.0;
        for (const auto& m : modelled->replications)
            fittedTokens += m.outputTokensPerS / double(modelled->replications.size());
        qInfo("fit: %.3f req/s, prompts mean %.0f cv %.2f, outputs mean %.0f cv %.2f; output "
              "tokens/s: trace %.1f, fitted %.1f",
              a.ratePerS, a.promptTokens.mean, a.promptTokens.cv, a.outputTokens.mean,
              a.outputTokens.cv, replayTokens, fittedTokens);
        QVERIFY(within(fittedTokens, replayTokens, 0.05));
    }

    void aTraceThatCannotBeFittedIsNamed()
    {
        auto one = poissonFittedTo({{0.0, 10, 2}}, 0);
        QVERIFY(!one);
        QVERIFY(one.error().message.find("at least 2 requests") != std::string::npos);
        auto instant = poissonFittedTo({{1.0, 10, 2}, {1.0, 20, 3}}, 0);
        QVERIFY(!instant);
        QVERIFY(instant.error().message.find("one instant") != std::string::npos);
        auto noFile = llmScenarioFromJson(
            nlohmann::json::parse(R"({"kind": "llm", "engine": {"num_gpu_blocks": 10},
                "step": {"kind": "linear", "base_ms": 1},
                "arrivals": {"kind": "fitted", "requests": 5}})"),
            "s.json");
        QVERIFY(!noFile);
        QVERIFY2(noFile.error().message.find("scenario.arrivals.file") != std::string::npos,
                 noFile.error().message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestLlmTraceFit)
#include "tst_llmtracefit.moc"
