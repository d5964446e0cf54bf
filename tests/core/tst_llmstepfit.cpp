// A linear step model fitted to a measured serving run (issue 19, "Step time: fitted"): the
// coefficients of a known engine are recovered from its own per-request TTFT and TPOT, and on
// the real vLLM run (Llama-3.1-8B on an RTX 4090, shared data llm/llmservingsim) a fit on the
// first half of the requests predicts the second half, printed beside the measured figures and
// beside the operator-profile model.
#include "io/servingrequestlog.h"
#include "llmsim/steptimefit.h"
#include "llmsimtesthelpers.h"
#include "sim/percentiles.h"
#include "testsupport.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace bs;
using namespace bs::llmsim;

namespace {

const char* kRun = "/llm/llmservingsim/bench/examples/RTX4090/Llama-3.1-8B/vllm";
const char* kProfile = "/llm/llmservingsim/profiler/perf/RTX4090/meta-llama/Llama-3.1-8B/bf16/tp1";
const char* kModel = "/llm/llmservingsim/configs/model/meta-llama/Llama-3.1-8B.json";

/// What a serving log would hold for the simulated requests.
std::vector<data::LlmRequest> asMeasured(const std::vector<RequestResult>& requests)
{
    std::vector<data::LlmRequest> out;
    for (const RequestResult& r : requests) {
        data::LlmRequest m;
        m.arrivalS = r.arrivalS;
        m.promptTokens = r.promptTokens;
        m.outputTokens = r.outputTokens;
        m.ttftS = r.ttftS;
        if (r.outputTokens > 1)
            m.tpotS = r.tpotS;
        out.push_back(m);
    }
    return out;
}

struct LatencySummary
{
    double ttftMeanMs = 0.0, ttftP99Ms = 0.0, tpotMeanMs = 0.0, tpotP99Ms = 0.0;
};

LatencySummary summaryOf(const std::vector<double>& ttftS, const std::vector<double>& tpotS)
{
    const auto meanMs = [](const std::vector<double>& v) {
        double sum = 0.0;
        for (double x : v)
            sum += x;
        return 1e3 * sum / double(v.size());
    };
    constexpr double p99[] = {0.99};
    return {meanMs(ttftS), 1e3 * sim::exactQuantiles(std::span<const double>(ttftS), p99)[0],
            meanMs(tpotS), 1e3 * sim::exactQuantiles(std::span<const double>(tpotS), p99)[0]};
}

/// TTFT and TPOT of the requests from index `from` on, simulated by `scenario`.
LatencySummary simulatedTail(const LlmScenario& scenario, std::size_t from)
{
    auto result = simulateLlm(scenario);
    if (!result)
        qFatal("%s", result.error().toString().c_str());
    std::vector<double> ttft, tpot;
    for (std::size_t i = from; i < result->requests.size(); ++i) {
        ttft.push_back(result->requests[i].ttftS);
        if (result->requests[i].outputTokens > 1)
            tpot.push_back(result->requests[i].tpotS);
    }
    return summaryOf(ttft, tpot);
}

double percentOff(double predicted, double measured)
{
    return 100.0 * (predicted - measured) / measured;
}

} // namespace

class TestLlmStepFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void recoversTheCoefficientsOfAKnownEngine()
    {
        LlmScenario truth = bs::test::halfBusyPoissonScenario();
        truth.arrivals.count = 400;
        truth.arrivals.ratePerS = 12.0;
        auto run = simulateLlm(truth);
        QVERIFY2(run, run ? "" : run.error().toString().c_str());
        auto fit = fitLinearStep(truth.engine, asMeasured(run->requests));
        QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
        qInfo("fitted base %.4f ms, prefill %.5f ms/token, decode %.4f ms/seq (true 6, 0.05, "
              "0.3); %d replays, log-RMS TTFT %.2g TPOT %.2g",
              fit->step.baseMs, fit->step.perPrefillTokenMs, fit->step.perDecodeSeqMs,
              fit->evaluations, fit->ttftLogRms, fit->tpotLogRms);
        QVERIFY(std::abs(fit->step.baseMs / 6.0 - 1.0) < 0.02);
        QVERIFY(std::abs(fit->step.perPrefillTokenMs / 0.05 - 1.0) < 0.02);
        QVERIFY(std::abs(fit->step.perDecodeSeqMs / 0.3 - 1.0) < 0.05);
        // TPOT averages many steps; a TTFT of a request that arrived just before a step ends
        // moves by a whole step when a coefficient moves by 0.1%, so its RMS stays above 0.
        QVERIFY(fit->tpotLogRms < 0.01);
        QVERIFY(fit->ttftLogRms < 0.15);
        QCOMPARE(fit->requests, std::size_t(400));
        // A log written in completion order (not arrival order) fits the same.
        auto shuffled = asMeasured(run->requests);
        std::reverse(shuffled.begin(), shuffled.end());
        auto again = fitLinearStep(truth.engine, shuffled);
        QVERIFY(again);
        QCOMPARE(again->step.baseMs, fit->step.baseMs);
        QCOMPARE(again->step.perDecodeSeqMs, fit->step.perDecodeSeqMs);
    }

    void calibratedOnHalfARealRunPredictsTheOtherHalf()
    {
        BS_REQUIRE_SHARED_DATA(shared);
        const std::string root = shared.toStdString();
        auto measured = io::readServingRequestLog(root + kRun + "/requests.jsonl");
        QVERIFY2(measured, measured ? "" : measured.error().toString().c_str());
        const std::size_t half = measured->size() / 2;
        const std::vector<data::LlmRequest> firstHalf(measured->begin(),
                                                      measured->begin() + std::ptrdiff_t(half));
        const EngineConfig engine = bs::test::engineFromVllmMeta(root + kRun + "/meta.json");
        auto fit = fitLinearStep(engine, firstHalf);
        QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());

        std::vector<double> ttft, tpot;
        for (std::size_t i = half; i < measured->size(); ++i) {
            ttft.push_back(*(*measured)[i].ttftS);
            if ((*measured)[i].tpotS)
                tpot.push_back(*(*measured)[i].tpotS);
        }
        const LatencySummary real = summaryOf(ttft, tpot);
        LlmScenario scenario;
        scenario.engine = engine;
        scenario.arrivals.file = root + kRun + "/requests.jsonl";
        scenario.step = fit->step;
        const LatencySummary fitted = simulatedTail(scenario, half);
        scenario.step = {};
        scenario.step.kind = StepSpec::Kind::Profile;
        scenario.step.profileDirectory = root + kProfile;
        scenario.step.modelConfig = root + kModel;
        const LatencySummary profile = simulatedTail(scenario, half);

        std::printf(
            "\nfit on requests 0..%zu: base %.3f ms, %.5f ms per prefill token, %.4f ms per "
            "decoding sequence (%d replays; in-sample log-RMS TTFT %.3f, TPOT %.3f)\n",
            half - 1, fit->step.baseMs, fit->step.perPrefillTokenMs, fit->step.perDecodeSeqMs,
            fit->evaluations, fit->ttftLogRms, fit->tpotLogRms);
        std::printf("held out (requests %zu..%zu)  measured   fitted linear   operator profile\n",
                    half, measured->size() - 1);
        const auto row = [](const char* name, double m, double f, double p) {
            std::printf("%-26s %9.1f %9.1f (%+5.1f%%) %9.1f (%+5.1f%%)\n", name, m, f,
                        percentOff(f, m), p, percentOff(p, m));
        };
        row("TTFT mean (ms)", real.ttftMeanMs, fitted.ttftMeanMs, profile.ttftMeanMs);
        row("TTFT p99 (ms)", real.ttftP99Ms, fitted.ttftP99Ms, profile.ttftP99Ms);
        row("TPOT mean (ms)", real.tpotMeanMs, fitted.tpotMeanMs, profile.tpotMeanMs);
        row("TPOT p99 (ms)", real.tpotP99Ms, fitted.tpotP99Ms, profile.tpotP99Ms);
        // Held out, so not tuned to: the fitted step must predict like a measured profile does.
        QVERIFY(std::abs(percentOff(fitted.tpotMeanMs, real.tpotMeanMs)) < 10.0);
        QVERIFY(std::abs(percentOff(fitted.ttftMeanMs, real.ttftMeanMs)) < 15.0);
    }

    void aLogWithoutTokenCountsIsRefused()
    {
        std::vector<data::LlmRequest> log(5);
        for (std::size_t i = 0; i < log.size(); ++i) {
            log[i].arrivalS = 0.1 * double(i);
            log[i].promptTokens = 100;
            log[i].outputTokens = 10;
            log[i].ttftS = 0.05;
        }
        log[3].promptTokens.reset();
        auto refused = fitLinearStep(EngineConfig{}, log);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.find("request 3") != std::string::npos,
                 refused.error().message.c_str());
        log.resize(2);
        auto tooFew = fitLinearStep(EngineConfig{}, log);
        QVERIFY(!tooFew);
        QVERIFY(tooFew.error().message.find("at least 3") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestLlmStepFit)
#include "tst_llmstepfit.moc"
