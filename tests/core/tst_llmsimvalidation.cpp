// The LLM simulator against a real vLLM run: Llama-3.1-8B on one RTX 4090, 300 ShareGPT
// requests at 10 req/s (shared data, llm/llmservingsim). The engine knobs come from the run's
// meta.json, arrivals and token counts from its requests.jsonl, step times from the operator
// profile measured on the same GPU. Simulated and measured TTFT/TPOT are printed side by side.
#include "io/readdataset.h"
#include "io/servingrequestlog.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"
#include "llmsim/rooflineratefit.h"
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
    void sglangRateSweepOnFourH200sWithAnUncalibratedRoofline();
    void sglangRooflineCalibratedOnThreeRatesPredictsTheOthers();
    void vllmRooflineOnEightA100sCalibratedOnTwoRatesPredictsTheThird();
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

namespace {
/// The SGLang run's server as its header and the repository's launch script describe it,
/// with nothing tuned to the measurements: Llama-3.3-70B (the shipped Llama-3.1-70B shape:
/// the same architecture) in bf16 on four H200 SXM (141 GB, the driver's 131.3 GiB) at
/// tensor parallel 4 over NVLink (450 GB/s each way), SGLang's scheduler with its defaults
/// (chunked prefill 8,192 tokens, max_prefill_tokens 16,384, mem_fraction_static 0.88, no
/// cap on running requests, one-token pages), Poisson arrivals at the run's rate with the
/// run's request count and its random dataset's uniform lengths.
nlohmann::json sglangH200Scenario(const data::LlmRun& run)
{
    const double length = *data::llmKnobNumber(run, {"random_input_len"});
    const double ratio = data::llmKnobNumber(run, {"random_range_ratio"}).value_or(0.0);
    const nlohmann::json tokens = {
        {"kind", "uniform"}, {"min", std::max(1, int(length * ratio))}, {"max", int(length)}};
    const nlohmann::json outputs = {
        {"kind", "uniform"},
        {"min", std::max(1, int(*data::llmKnobNumber(run, {"random_output_len"}) * ratio))},
        {"max", int(*data::llmKnobNumber(run, {"random_output_len"}))}};
    return {{"kind", "llm"},
            {"seed", 1},
            {"replications", 1},
            {"engine",
             {{"policy", "sglang"},
              {"max_num_seqs", 1 << 16},
              {"max_prefill_tokens", 16384},
              {"chunked_prefill_size", 8192},
              {"block_size", 1},
              {"kv_memory",
               {{"model_config", "builtin:llama-3.1-70b"},
                {"device_memory_gib", 131.3},
                {"gpu_memory_utilization", 0.88},
                {"tensor_parallel", 4}}}}},
            {"step",
             {{"kind", "roofline"},
              {"model_config", "builtin:llama-3.1-70b"},
              {"accelerator", "h200-sxm"},
              {"tensor_parallel", 4},
              {"interconnect_gb_per_s", 450}}},
            {"arrivals",
             {{"kind", "poisson"},
              {"rate_per_s", *run.requestRatePerS},
              {"requests", *run.completed},
              {"prompt_tokens", tokens},
              {"output_tokens", outputs}}}};
}

const char* kSglangSweep = "llm/h200-benchmarks/sglang/outputs/llama_3_3_70b_online_output.jsonl";

/// A rate sweep of the shared data, read as the workbench reads it (detected format).
Expected<data::LlmRunSet> readSweep(const QString& path)
{
    auto dataset = io::readDataset(path.toStdString());
    if (!dataset)
        return dataset.error();
    return *dataset->llmRuns();
}

const char* kVllmTable = "llm/llm-k8s/results_serving_meta-llama-Llama-3.3-70B-Instruct/"
                         "01_tp8_pp1/benchmark_results.json";

/// A scenario file of tests/data/llmsim.
llmsim::LlmScenario scenarioFile(const char* name)
{
    const QString path = test::testDataPath(QStringLiteral("llmsim/") + QLatin1String(name));
    auto json = llmsim::readScenarioFile(path.toStdString());
    if (!json)
        qFatal("%s", json.error().toString().c_str());
    auto scenario = llmsim::llmScenarioFromJson(*json, path.toStdString());
    if (!scenario)
        qFatal("%s", scenario.error().toString().c_str());
    return *scenario;
}

/// The scenario with a fit's step, and the held-out points under it and under the stated step.
struct HeldOutPrediction
{
    llmsim::LlmScenario calibrated;
    std::vector<llmsim::RateSweepComparison> fitted;
    std::vector<llmsim::RateSweepComparison> stated;
};

bs::Expected<HeldOutPrediction> predictHeldOut(const llmsim::LlmScenario& scenario,
                                               const llmsim::RooflineRateFit& fit,
                                               const std::vector<llmsim::RateSweepPoint>& heldOut)
{
    HeldOutPrediction out;
    out.calibrated = scenario;
    out.calibrated.step = fit.step;
    auto fitted = llmsim::predictRateSweep(out.calibrated, heldOut, {});
    if (!fitted)
        return fitted.error();
    auto stated = llmsim::predictRateSweep(scenario, heldOut, {});
    if (!stated)
        return stated.error();
    out.fitted = std::move(*fitted);
    out.stated = std::move(*stated);
    return out;
}
} // namespace

void TestLlmSimValidation::sglangRateSweepOnFourH200sWithAnUncalibratedRoofline()
{
    // The LLM region's question on a real rate sweep: how far does the roofline step, with no
    // measurement tuned in, carry? (README.md: "Validation".) Printed side by side; asserted
    // only where it holds: at light load (1 and 2 req/s) the decode step is bound by reading
    // the weights and the KV cache, which the roofline models, and the output rate is the
    // offered one. Above that the real server falls behind (ITL p50 70.8 ms at 8 req/s, output
    // 4,288 tokens/s at 16 req/s) long before the roofline does: an uncalibrated roofline
    // overstates an LLM server's capacity, which the region's evidence says.
    BS_REQUIRE_SHARED_FILE(path, QString::fromLatin1(kSglangSweep));
    auto set = readSweep(path);
    QVERIFY2(set.hasValue(), set ? "" : set.error().toString().c_str());
    std::printf("\n%-6s %22s %22s %26s\n", "req/s", "TTFT p50 meas / sim", "ITL p50 meas / sim",
                "output tok/s meas / sim");
    int compared = 0;
    for (const auto& run : set->runs) {
        if (data::llmKnob(run, {"dataset_name"}) != "random")
            continue;
        QVERIFY(run.requestRatePerS && run.completed && run.outputTokensPerS);
        auto scenario = llmsim::llmScenarioFromJson(sglangH200Scenario(run));
        QVERIFY2(scenario.hasValue(), scenario ? "" : scenario.error().toString().c_str());
        auto result = llmsim::simulateLlm(*scenario);
        QVERIFY2(result.hasValue(), result ? "" : result.error().toString().c_str());
        const auto& m = result->replications.front();
        const double ttftMs = *run.metrics.at("ttft").medianS * 1e3;
        const double itlMs = *run.metrics.at("itl").medianS * 1e3;
        std::printf("%-6.0f %10.1f / %9.1f %10.1f / %9.1f %12.0f / %11.0f\n", *run.requestRatePerS,
                    ttftMs, m.ttft.p50S * 1e3, itlMs, m.itl.p50S * 1e3, *run.outputTokensPerS,
                    m.outputTokensPerS);
        if (*run.requestRatePerS <= 2.0) {
            QVERIFY2(relativeError(m.itl.p50S * 1e3, itlMs) <= 0.15,
                     qPrintable(QStringLiteral("ITL p50 %1 ms simulated, %2 ms measured")
                                    .arg(m.itl.p50S * 1e3)
                                    .arg(itlMs)));
            QVERIFY(relativeError(m.outputTokensPerS, *run.outputTokensPerS) <= 0.10);
        }
        ++compared;
    }
    std::fflush(stdout);
    QCOMPARE(compared, 5);
}

void TestLlmSimValidation::sglangRooflineCalibratedOnThreeRatesPredictsTheOthers()
{
    // The remedy the previous case calls for (README.md: "Calibrating the roofline on a rate
    // sweep"): fit eta_compute, eta_memory and the host time per sequence on the 1, 4 and
    // 16 req/s runs, then predict the 2 and 8 req/s runs, which the fit never saw. The
    // scenario is tests/data/llmsim/sglang_70b_h200_tp4.json (the previous case's, as a file).
    BS_REQUIRE_SHARED_FILE(path, QString::fromLatin1(kSglangSweep));
    auto set = readSweep(path);
    QVERIFY2(set.hasValue(), set ? "" : set.error().toString().c_str());
    const llmsim::LlmScenario scenario = scenarioFile("sglang_70b_h200_tp4.json");

    std::vector<llmsim::RateSweepOmission> omitted;
    const auto points = llmsim::rateSweepPoints(*set, scenario, omitted);
    // The two ShareGPT runs have other lengths than the scenario states: left out, and why.
    QCOMPARE(points.size(), std::size_t(5));
    QCOMPARE(omitted.size(), std::size_t(2));
    QVERIFY(omitted[0].reason.find("mean prompt") != std::string::npos);
    std::vector<llmsim::RateSweepPoint> fitOn, heldOut;
    for (const auto& p : points)
        (p.ratePerS == 2.0 || p.ratePerS == 8.0 ? heldOut : fitOn).push_back(p);
    QCOMPARE(fitOn.size(), std::size_t(3));

    auto fit = llmsim::fitRooflineOnRateSweep(scenario, fitOn, {});
    QVERIFY2(fit.hasValue(), fit ? "" : fit.error().toString().c_str());
    std::printf("\nfitted on 1, 4, 16 req/s: eta_compute %.3f, eta_memory %.3f, %.4f ms per "
                "sequence, %.1f ms outside the server; log-RMS %.3f (stated step %.3f), %d "
                "sweeps\n",
                fit->step.accelerator.etaCompute, fit->step.accelerator.etaMemory,
                fit->step.overheadPerSeqMs, fit->step.clientOverheadMs, fit->logRms,
                fit->statedLogRms, fit->evaluations);
    QVERIFY(fit->etaComputePinned && fit->etaMemoryPinned && fit->perSeqPinned);
    QVERIFY(fit->clientPinned);
    QVERIFY2(fit->logRms < 0.5 * fit->statedLogRms, qPrintable(QString::number(fit->logRms)));

    auto held = predictHeldOut(scenario, *fit, heldOut);
    QVERIFY2(held.hasValue(), held ? "" : held.error().toString().c_str());
    const llmsim::LlmScenario& calibrated = held->calibrated;
    const auto& predicted = held->fitted;
    const auto& uncalibrated = held->stated;
    std::printf("%-18s %24s %30s %26s\n", "held out", "ITL p50 meas / fit (raw)",
                "E2E mean s meas / fit (raw)", "output tok/s meas / fit");
    for (std::size_t i = 0; i < predicted.size(); ++i) {
        const auto& c = predicted[i];
        const auto& m = c.point.measured;
        const auto& raw = uncalibrated[i].simulated;
        std::printf("%-18s %7.1f / %6.1f (%6.1f) %10.1f / %7.1f (%7.1f) %12.0f / %11.0f\n",
                    c.point.label.c_str(), m.itlP50Ms, c.simulated.itlP50Ms, raw.itlP50Ms,
                    m.e2eMeanMs * 1e-3, c.simulated.e2eMeanMs * 1e-3, raw.e2eMeanMs * 1e-3,
                    m.outputTokensPerS, c.simulated.outputTokensPerS);
        if (c.point.ratePerS == 2.0) {
            // Below the knee: held-out figures within 15%.
            QVERIFY(relativeError(c.simulated.itlP50Ms, m.itlP50Ms) <= 0.15);
            QVERIFY(relativeError(c.simulated.e2eMeanMs, m.e2eMeanMs) <= 0.15);
            QVERIFY(relativeError(c.simulated.outputTokensPerS, m.outputTokensPerS) <= 0.05);
        } else {
            // 8 req/s offers about 4,100 output tokens/s, within a few percent of what the
            // server sustains: there a few percent of capacity moves the latencies by 2x, and
            // the calibrated step is only asked to come closer than the uncalibrated one
            // (README.md states both: ITL -43% against -79%, E2E -45% against -80%).
            QVERIFY(relativeError(c.simulated.itlP50Ms, m.itlP50Ms) <
                    relativeError(raw.itlP50Ms, m.itlP50Ms));
            QVERIFY(relativeError(c.simulated.e2eMeanMs, m.e2eMeanMs) <
                    relativeError(raw.e2eMeanMs, m.e2eMeanMs));
            QVERIFY(relativeError(c.simulated.outputTokensPerS, m.outputTokensPerS) <= 0.15);
        }
    }
    // The capacity the uncalibrated roofline overstated by about 1.7x (16 req/s, fitted on).
    const auto& saturated = fit->comparisons.back();
    QCOMPARE(saturated.point.ratePerS, 16.0);
    QVERIFY(relativeError(saturated.simulated.outputTokensPerS,
                          saturated.point.measured.outputTokensPerS) <= 0.10);

    // Another dataset on the same step: the file's ShareGPT runs (4 and 8 req/s), which the
    // fit left out, with lognormal lengths of their measured means (224 and 189 tokens) and a
    // coefficient of variation of 1 (an assumption: the file keeps no per-request lengths),
    // prompts up to 1,024 and outputs up to 2,048 tokens (the clients' ShareGPT sampling drops
    // longer conversations).
    llmsim::LlmScenario shareGpt = calibrated;
    llmsim::TokenLengthSpec lognormal;
    lognormal.kind = llmsim::TokenLengthSpec::Kind::Lognormal;
    lognormal.cv = 1.0;
    lognormal.max = 1024;
    shareGpt.arrivals.promptTokens = lognormal;
    lognormal.max = 2048;
    shareGpt.arrivals.outputTokens = lognormal;
    std::vector<llmsim::RateSweepOmission> none;
    std::vector<llmsim::RateSweepPoint> shareGptRuns;
    for (const auto& run : set->runs) {
        if (data::llmKnob(run, {"dataset_name"}) != "sharegpt")
            continue;
        data::LlmRunSet one;
        one.runs = {run};
        shareGpt.arrivals.promptTokens.mean = double(*run.promptTokensTotal) / *run.completed;
        shareGpt.arrivals.outputTokens.mean = double(*run.outputTokensTotal) / *run.completed;
        const auto p = llmsim::rateSweepPoints(one, shareGpt, none);
        QCOMPARE(p.size(), std::size_t(1));
        auto predictedShareGpt = llmsim::predictRateSweep(shareGpt, p, {});
        QVERIFY(predictedShareGpt.hasValue());
        const auto& c = predictedShareGpt->front();
        const auto& m = c.point.measured;
        std::printf("%-18s ITL p50 %5.1f / %5.1f ms, mean E2E %6.0f / %6.0f ms, output %5.0f / "
                    "%5.0f tokens/s, TTFT p50 %5.1f / %5.1f ms\n",
                    c.point.label.c_str(), m.itlP50Ms, c.simulated.itlP50Ms, m.e2eMeanMs,
                    c.simulated.e2eMeanMs, m.outputTokensPerS, c.simulated.outputTokensPerS,
                    m.ttftP50Ms, c.simulated.ttftP50Ms);
        // What carries to another dataset: the step (ITL, output rate), the time outside the
        // server (TTFT: 57-62% low without it, the random dataset's prompts being longer) and,
        // less closely, the mean E2E.
        QVERIFY(relativeError(c.simulated.itlP50Ms, m.itlP50Ms) <= 0.20);
        QVERIFY(relativeError(c.simulated.e2eMeanMs, m.e2eMeanMs) <= 0.25);
        QVERIFY(relativeError(c.simulated.outputTokensPerS, m.outputTokensPerS) <= 0.05);
        QVERIFY(relativeError(c.simulated.ttftP50Ms, m.ttftP50Ms) <= 0.20);
        shareGptRuns.push_back(c.point);
    }
    QCOMPARE(shareGptRuns.size(), std::size_t(2));
    std::fflush(stdout);
}

void TestLlmSimValidation::vllmRooflineOnEightA100sCalibratedOnTwoRatesPredictsTheThird()
{
    // A second system, engine and file format: vLLM serving Llama-3.3-70B on 8x A100 SXM4 40 GB
    // (TP 8), 200 ShareGPT prompts at 1, 4, 16 req/s and unlimited, as vLLM's CI result table
    // keeps them (no token totals: the mean lengths come from the token rates). The scenario is
    // tests/data/llmsim/vllm_70b_a100_40gb_tp8.json: vLLM's defaults, lognormal lengths with the
    // mean, spread and maximum of the run's own 200 prompts (the full 4 req/s result keeps
    // them; vLLM's client samples the same prompts at every rate), and those prompts in the
    // prefix cache (prefix_cache_hit_rate 1), which the unlimited run below shows. Fit on 1
    // and 16 req/s, predict 4 req/s and the unlimited run, which the fit never saw.
    BS_REQUIRE_SHARED_FILE(path, QString::fromLatin1(kVllmTable));
    auto set = readSweep(path);
    QVERIFY2(set.hasValue(), set ? "" : set.error().toString().c_str());
    const llmsim::LlmScenario scenario = scenarioFile("vllm_70b_a100_40gb_tp8.json");
    std::vector<llmsim::RateSweepOmission> omitted;
    const auto points = llmsim::rateSweepPoints(*set, scenario, omitted);
    QCOMPARE(points.size(), std::size_t(3));
    QCOMPARE(omitted.size(), std::size_t(1)); // the unlimited-rate run
    std::vector<llmsim::RateSweepPoint> fitOn, heldOut;
    for (const auto& p : points)
        (p.ratePerS == 4.0 ? heldOut : fitOn).push_back(p);

    auto fit = llmsim::fitRooflineOnRateSweep(scenario, fitOn, {});
    QVERIFY2(fit.hasValue(), fit ? "" : fit.error().toString().c_str());
    std::printf("\nvLLM on 8x A100 40 GB, fitted on 1 and 16 req/s: eta_compute %.3f, eta_memory "
                "%.3f, %.4f ms per sequence, %.1f ms outside the server; log-RMS %.3f (stated "
                "step %.3f)\n",
                fit->step.accelerator.etaCompute, fit->step.accelerator.etaMemory,
                fit->step.overheadPerSeqMs, fit->step.clientOverheadMs, fit->logRms,
                fit->statedLogRms);
    for (const auto& f : fit->comparisons)
        std::printf("  fitted on %-16s ITL p50 %.1f / %.1f ms, TTFT p50 %.1f / %.1f ms\n",
                    f.point.label.c_str(), f.point.measured.itlP50Ms, f.simulated.itlP50Ms,
                    f.point.measured.ttftP50Ms, f.simulated.ttftP50Ms);
    QVERIFY2(fit->logRms < 0.5 * fit->statedLogRms, qPrintable(QString::number(fit->logRms)));

    auto held = predictHeldOut(scenario, *fit, heldOut);
    QVERIFY2(held.hasValue(), held ? "" : held.error().toString().c_str());
    const llmsim::LlmScenario& calibrated = held->calibrated;
    const auto& predicted = held->fitted;
    const auto& uncalibrated = held->stated;
    const auto& c = predicted.front();
    const auto& m = c.point.measured;
    const auto& raw = uncalibrated.front().simulated;
    std::printf("held out 4 req/s: TTFT p50 %.1f / %.1f (%.1f) ms, ITL p50 %.1f / %.1f (%.1f) ms, "
                "output %.0f / %.0f (%.0f) tokens/s (measured / fitted (stated))\n",
                m.ttftP50Ms, c.simulated.ttftP50Ms, raw.ttftP50Ms, m.itlP50Ms, c.simulated.itlP50Ms,
                raw.itlP50Ms, m.outputTokensPerS, c.simulated.outputTokensPerS,
                raw.outputTokensPerS);
    QVERIFY(relativeError(c.simulated.itlP50Ms, m.itlP50Ms) <= 0.15);
    QVERIFY(relativeError(c.simulated.itlP50Ms, m.itlP50Ms) <
            relativeError(raw.itlP50Ms, m.itlP50Ms));
    QVERIFY(relativeError(c.simulated.ttftP50Ms, m.ttftP50Ms) <= 0.20);
    QVERIFY(relativeError(c.simulated.outputTokensPerS, m.outputTokensPerS) <= 0.20);

    // The unlimited run: all 200 requests at once. Its TTFT p99 (450 ms) is below the time
    // eight A100s need to prefill its 42,700 prompt tokens at their full bf16 peak
    // (2 x 70.6e9 x 42,700 / (8 x 312e12) = 2.4 s): the prompts were in the prefix cache,
    // left there by the earlier runs of the same prompts. Simulated as arrivals within 2 ms.
    const auto& unlimited = set->runs.back();
    QVERIFY(!unlimited.requestRatePerS);
    const double promptTokens =
        *unlimited.promptTokensPerS / *unlimited.requestsPerS * double(*unlimited.completed);
    const double prefillFloorS = 2.0 * 70.6e9 * promptTokens / (8 * 312e12);
    QVERIFY(unlimited.metrics.at("ttft").percentileS.at("99") < 0.25 * prefillFloorS);
    llmsim::LlmScenario burst = calibrated;
    burst.arrivals.ratePerS = 1e5;
    burst.arrivals.count = *unlimited.completed;
    llmsim::LlmScenario cold = burst;
    cold.engine.prefixCacheHitRate = 0.0;
    auto warmRun = llmsim::simulateLlm(burst);
    auto coldRun = llmsim::simulateLlm(cold);
    QVERIFY2(warmRun.hasValue(), warmRun ? "" : warmRun.error().toString().c_str());
    QVERIFY(coldRun.hasValue());
    const auto& w = warmRun->replications.front();
    const auto& k = coldRun->replications.front();
    const double tpotMs = *unlimited.metrics.at("tpot").meanS * 1e3;
    const double ttftMs = *unlimited.metrics.at("ttft").meanS * 1e3;
    std::printf("unlimited rate: output %.0f / %.0f (cold cache %.0f) tokens/s, TPOT mean %.1f / "
                "%.1f (%.1f) ms, TTFT mean %.0f / %.0f (%.0f) ms (measured / fitted)\n",
                *unlimited.outputTokensPerS, w.outputTokensPerS, k.outputTokensPerS, tpotMs,
                w.tpot.meanS * 1e3, k.tpot.meanS * 1e3, ttftMs, w.ttft.meanS * 1e3,
                k.ttft.meanS * 1e3);
    std::fflush(stdout);
    QVERIFY(relativeError(w.outputTokensPerS, *unlimited.outputTokensPerS) <= 0.15);
    QVERIFY(relativeError(w.tpot.meanS * 1e3, tpotMs) <= 0.15);
    // TTFT: the warm cache within 2x (the model prefills nothing but each prompt's last partial
    // block, and leaves out the client); a cold one is off several times.
    QVERIFY(w.ttft.meanS * 1e3 > 0.5 * ttftMs && w.ttft.meanS * 1e3 < 2.0 * ttftMs);
    QVERIFY(k.ttft.meanS * 1e3 > 4.0 * ttftMs);
}

QTEST_APPLESS_MAIN(TestLlmSimValidation)
#include "tst_llmsimvalidation.moc"
