// The roofline calibrated on a rate sweep (core/llmsim/README.md: "Calibrating the roofline on a
// rate sweep"): a sweep simulated under known efficiencies and host time per sequence is fitted
// back from the presets' values; a sweep that cannot pin a parameter keeps it and says so; the
// runs a scenario cannot stand for are left out with the reason; bad scenarios are errors. The
// real SGLang sweep is in tst_llmsimvalidation.
#include "analysis/llmregion.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"
#include "llmsim/rooflineratefit.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace bs;
using namespace bs::llmsim;

namespace {

/// Llama-3.1-8B bf16 on one H100 SXM under vLLM's v1 scheduler, 200 Poisson requests with
/// uniform lengths (prompts 64-448, outputs 16-240 tokens).
LlmScenario scenario()
{
    const nlohmann::json json = {
        {"kind", "llm"},
        {"seed", 1},
        {"engine",
         {{"policy", "vllm_v1"},
          {"max_num_seqs", 256},
          {"max_num_batched_tokens", 2048},
          {"block_size", 16},
          {"kv_memory",
           {{"model_config", "builtin:llama-3.1-8b"},
            {"device_memory_gib", 79.1},
            {"gpu_memory_utilization", 0.9}}}}},
        {"step",
         {{"kind", "roofline"},
          {"model_config", "builtin:llama-3.1-8b"},
          {"accelerator", "h100-sxm"}}},
        {"arrivals",
         {{"kind", "poisson"},
          {"rate_per_s", 1},
          {"requests", 200},
          {"prompt_tokens", {{"kind", "uniform"}, {"min", 64}, {"max", 448}}},
          {"output_tokens", {{"kind", "uniform"}, {"min", 16}, {"max", 240}}}}}};
    auto s = llmScenarioFromJson(json);
    if (!s)
        qFatal("%s", s.error().toString().c_str());
    return *s;
}

RateSweepPoint point(double ratePerS)
{
    RateSweepPoint p;
    p.label = std::to_string(int(ratePerS)) + " req/s";
    p.ratePerS = ratePerS;
    p.requests = 200;
    return p;
}

/// "Measured" figures: the scenario under `truth`, with another seed than the fit's.
std::vector<RateSweepPoint> measuredUnder(const LlmScenario& truth,
                                          const std::vector<double>& rates)
{
    std::vector<RateSweepPoint> points;
    for (double r : rates)
        points.push_back(point(r));
    LlmScenario other = truth;
    other.seed = 7;
    auto simulated = predictRateSweep(other, points, {});
    if (!simulated)
        qFatal("%s", simulated.error().toString().c_str());
    for (std::size_t i = 0; i < points.size(); ++i)
        points[i].measured = (*simulated)[i].simulated;
    return points;
}

/// The log-RMS of the true parameters against the "measured" sweep: the two seeds' sampling
/// noise, the floor a fit can reach.
double noiseFloor(const LlmScenario& truth, const std::vector<RateSweepPoint>& points)
{
    auto atTruth = predictRateSweep(truth, points, {});
    if (!atTruth)
        qFatal("%s", atTruth.error().toString().c_str());
    return rateSweepLogRms(*atTruth);
}

bool within(double actual, double expected, double relative)
{
    return std::abs(actual / expected - 1.0) <= relative;
}

} // namespace

class TestLlmRooflineFit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void knownEfficienciesAreFoundAgain();
    void clientTimeShiftsTtftAndE2eAlone();
    void aSweepWithoutTtftOrE2eKeepsTheStatedClientTime();
    void aParameterTheSweepCannotPinIsKeptAndSaid();
    void runsTheScenarioCannotStandForAreLeftOut();
    void aTableWithRatesOnlyGivesMeanLengthsFromThem();
    void scenariosTheFitCannotCalibrateAreErrors();
    void theCalibrationTravelsWithTheScenario();
};

void TestLlmRooflineFit::knownEfficienciesAreFoundAgain()
{
    // From light load (memory-bound decodes of a few sequences) to saturation (compute-bound
    // batches of many): every parameter moves some figure; 30 ms outside the server (a
    // client's HTTP and tokenisation) shifts every TTFT and E2E.
    LlmScenario truth = scenario();
    truth.step.accelerator.etaCompute = 0.35;
    truth.step.accelerator.etaMemory = 0.6;
    truth.step.overheadPerSeqMs = 0.08;
    truth.step.clientOverheadMs = 30.0;
    const auto points = measuredUnder(truth, {2, 20, 60, 120});
    const LlmScenario stated = scenario(); // the preset's 0.7 and 0.85, no per-sequence time
    std::uint64_t reports = 0;
    Progress progress([&reports](const ProgressUpdate&) { ++reports; });
    auto fit = fitRooflineOnRateSweep(stated, points, {}, CancelToken(), progress);
    QVERIFY2(fit.hasValue(), fit ? "" : fit.error().toString().c_str());
    qInfo("eta_compute %.4f, eta_memory %.4f, %.4f ms per sequence, %.3f ms outside; log-RMS "
          "%.4f (stated %.4f)",
          fit->step.accelerator.etaCompute, fit->step.accelerator.etaMemory,
          fit->step.overheadPerSeqMs, fit->step.clientOverheadMs, fit->logRms, fit->statedLogRms);
    QVERIFY(fit->etaComputePinned && fit->etaMemoryPinned && fit->perSeqPinned);
    QVERIFY(fit->clientPinned);
    QVERIFY(fit->warnings.empty());
    // Progress counts the sweeps simulated, and ends complete.
    QCOMPARE(progress.current().phase, std::string("calibrating the roofline on the sweep"));
    QVERIFY(progress.current().total >= std::uint64_t(fit->evaluations));
    QCOMPARE(progress.current().done, progress.current().total);
    QVERIFY(reports >= 2);
    QVERIFY(within(fit->step.accelerator.etaCompute, 0.35, 0.10));
    QVERIFY(within(fit->step.accelerator.etaMemory, 0.6, 0.10));
    QVERIFY(within(fit->step.overheadPerSeqMs, 0.08, 0.25));
    QVERIFY(within(fit->step.clientOverheadMs, 30.0, 0.10));
    QCOMPARE(fit->statedClientMs, 0.0);
    QVERIFY(fit->statedLogRms > 0.2);
    // What is left is the two seeds' sampling noise: the fit is as close as the truth.
    QVERIFY2(fit->logRms <= 1.05 * noiseFloor(truth, points),
             qPrintable(QString::number(noiseFloor(truth, points))));
    QCOMPARE(fit->comparisons.size(), points.size());
    QCOMPARE(fit->statedEtaCompute, 0.7);
    // The rest of the step is the scenario's.
    QCOMPARE(fit->step.accelerator.name, stated.step.accelerator.name);
    QCOMPARE(fit->step.modelConfig, stated.step.modelConfig);
}

void TestLlmRooflineFit::clientTimeShiftsTtftAndE2eAlone()
{
    // The time outside the server is a constant per request: every TTFT and E2E statistic moves
    // by exactly that much; the engine's timeline (ITL, TPOT, throughput) does not move.
    LlmScenario s = scenario();
    s.arrivals.ratePerS = 20.0;
    auto without = simulateLlm(s);
    s.step.clientOverheadMs = 40.0;
    auto with = simulateLlm(s);
    QVERIFY2(without.hasValue() && with.hasValue(), "simulation failed");
    const auto& a = without->replications.front();
    const auto& b = with->replications.front();
    for (const auto& [x, y] : {std::pair(a.ttft, b.ttft), std::pair(a.e2e, b.e2e)}) {
        QVERIFY(std::abs(y.meanS - x.meanS - 0.040) < 1e-9);
        QVERIFY(std::abs(y.p50S - x.p50S - 0.040) < 1e-9);
        QVERIFY(std::abs(y.p99S - x.p99S - 0.040) < 1e-9);
    }
    QCOMPARE(b.itl.p50S, a.itl.p50S);
    QCOMPARE(b.tpot.p99S, a.tpot.p99S);
    QCOMPARE(b.outputTokensPerS, a.outputTokensPerS);
    QCOMPARE(b.queue.p99S, a.queue.p99S);
    // A TTFT limit judges the TTFT the client sees: 40 ms more fails more requests.
    s.sla.ttftMs = 1e3 * a.ttft.p50S + 20.0;
    auto judged = simulateLlm(s);
    QVERIFY(judged.hasValue());
    QVERIFY(judged->replications.front().goodFraction < 0.5);
    // Written with the step, read back; below 0 it is refused naming the key.
    const nlohmann::json json = llmScenarioToJson(s);
    QCOMPARE(json["step"]["client_overhead_ms"].get<double>(), 40.0);
    auto back = llmScenarioFromJson(json);
    QVERIFY2(back.hasValue(), back ? "" : back.error().toString().c_str());
    QCOMPARE(back->step.clientOverheadMs, 40.0);
    QVERIFY(!llmScenarioToJson(scenario())["step"].contains("client_overhead_ms"));
    nlohmann::json negative = json;
    negative["step"]["client_overhead_ms"] = -1.0;
    auto refused = llmScenarioFromJson(negative);
    QVERIFY(!refused);
    QVERIFY(refused.error().toString().find("client_overhead_ms") != std::string::npos);
}

void TestLlmRooflineFit::aSweepWithoutTtftOrE2eKeepsTheStatedClientTime()
{
    // ITL and throughput say nothing about the time outside the server: a sweep with neither
    // TTFT nor E2E keeps the stated value and says so.
    LlmScenario truth = scenario();
    truth.step.clientOverheadMs = 30.0;
    auto points = measuredUnder(truth, {2, 60});
    for (auto& p : points)
        p.measured.ttftP50Ms = p.measured.e2eMeanMs = std::nan("");
    LlmScenario stated = scenario();
    stated.step.clientOverheadMs = 12.0;
    auto fit = fitRooflineOnRateSweep(stated, points, {});
    QVERIFY2(fit.hasValue(), fit ? "" : fit.error().toString().c_str());
    QVERIFY(!fit->clientPinned);
    QCOMPARE(fit->step.clientOverheadMs, 12.0);
    bool said = false;
    for (const auto& w : fit->warnings)
        said = said || (w.find("client_overhead_ms") != std::string::npos &&
                        w.find("kept at the stated 12") != std::string::npos);
    QVERIFY(said);
}

void TestLlmRooflineFit::aParameterTheSweepCannotPinIsKeptAndSaid()
{
    // At 0.2 and 0.5 req/s a batch rarely holds more than one or two sequences: 0.08 ms per
    // sequence beside a ~6 ms decode moves no figure by 1%.
    LlmScenario truth = scenario();
    truth.step.overheadPerSeqMs = 0.08;
    const auto points = measuredUnder(truth, {0.2, 0.5});
    auto fit = fitRooflineOnRateSweep(scenario(), points, {});
    QVERIFY2(fit.hasValue(), fit ? "" : fit.error().toString().c_str());
    QVERIFY(!fit->perSeqPinned);
    QCOMPARE(fit->step.overheadPerSeqMs, 0.0); // kept as stated
    bool said = false;
    for (const auto& w : fit->warnings)
        said = said || (w.find("overhead_per_seq_ms") != std::string::npos &&
                        w.find("kept at the stated 0") != std::string::npos);
    QVERIFY(said);
    QVERIFY2(fit->logRms <= 1.05 * noiseFloor(truth, points),
             qPrintable(QString::number(fit->logRms)));
}

void TestLlmRooflineFit::runsTheScenarioCannotStandForAreLeftOut()
{
    data::LlmRunSet set;
    data::LlmRun good;
    good.requestRatePerS = 4.0;
    good.completed = 100;
    good.promptTokensTotal = 100 * 250; // the scenario's mean prompt is 256
    good.outputTokensTotal = 100 * 130; // and its mean output 128
    good.outputTokensPerS = 500.0;
    good.metrics["ttft"].medianS = 0.05;
    good.metrics["itl"].medianS = 0.008;
    good.metrics["e2e"].meanS = 1.2;
    good.knobs["dataset_name"] = "random";
    data::LlmRun unlimited = good;
    unlimited.requestRatePerS.reset();
    data::LlmRun shortPrompts = good;
    shortPrompts.promptTokensTotal = 100 * 120;
    shortPrompts.knobs["dataset_name"] = "sharegpt";
    data::LlmRun capped = good;
    capped.requestRatePerS = 16.0;
    capped.maxConcurrency = 32.0;
    data::LlmRun noFigures = good;
    noFigures.requestRatePerS = 8.0;
    noFigures.metrics.clear();
    noFigures.outputTokensPerS.reset();
    set.runs = {good, unlimited, shortPrompts, capped, noFigures};

    std::vector<RateSweepOmission> omitted;
    const auto points = rateSweepPoints(set, scenario(), omitted);
    QCOMPARE(points.size(), std::size_t(1));
    QCOMPARE(points[0].label, std::string("4 req/s (random)"));
    QCOMPARE(points[0].requests, std::int64_t(100));
    QCOMPARE(points[0].measured.ttftP50Ms, 50.0);
    QCOMPARE(points[0].measured.itlP50Ms, 8.0);
    QCOMPARE(points[0].measured.e2eMeanMs, 1200.0);
    QCOMPARE(points[0].measured.outputTokensPerS, 500.0);
    QCOMPARE(omitted.size(), std::size_t(4));
    QVERIFY(omitted[0].reason.find("no request rate") != std::string::npos);
    QCOMPARE(omitted[1].label, std::string("4 req/s (sharegpt)"));
    QCOMPARE(omitted[1].reason, std::string("mean prompt 120 tokens against the scenario's 256"));
    QCOMPARE(omitted[2].label, std::string("16 req/s (random)"));
    QVERIFY(omitted[2].reason.starts_with("capped at 32 concurrent requests"));
    QCOMPARE(omitted[3].label, std::string("8 req/s (random)"));
    QVERIFY(omitted[3].reason.starts_with("no median TTFT"));
}

// vLLM's CI result table keeps token rates and no totals: the mean lengths are the token rates
// over the request rate (the same duration divides all three).
void TestLlmRooflineFit::aTableWithRatesOnlyGivesMeanLengthsFromThem()
{
    data::LlmRun run;
    run.requestRatePerS = 4.0;
    run.completed = 200;
    run.requestsPerS = 3.0;
    run.promptTokensPerS = 3.0 * 250;
    run.outputTokensPerS = 3.0 * 130;
    run.metrics["ttft"].medianS = 0.05;
    data::LlmRun shortOutputs = run;
    shortOutputs.requestRatePerS = 8.0;
    shortOutputs.outputTokensPerS = 3.0 * 60;
    data::LlmRunSet set;
    set.runs = {run, shortOutputs};
    std::vector<RateSweepOmission> omitted;
    const auto points = rateSweepPoints(set, scenario(), omitted);
    QCOMPARE(points.size(), std::size_t(1));
    QCOMPARE(points[0].meanPromptTokens, 250.0);
    QCOMPARE(points[0].meanOutputTokens, 130.0);
    QCOMPARE(omitted.size(), std::size_t(1));
    QCOMPARE(omitted[0].reason, std::string("mean output 60 tokens against the scenario's 128"));
}

void TestLlmRooflineFit::scenariosTheFitCannotCalibrateAreErrors()
{
    const std::vector<RateSweepPoint> two{point(1), point(2)};
    LlmScenario linear = scenario();
    linear.step = StepSpec{};
    linear.step.baseMs = 5.0;
    auto a = fitRooflineOnRateSweep(linear, two, {});
    QVERIFY(!a);
    QVERIFY(a.error().message.find("not \"roofline\"") != std::string::npos);

    LlmScenario replay = scenario();
    replay.arrivals.kind = LlmArrivalSpec::Kind::Replay;
    replay.arrivals.requests = {{0.0, 10, 10}};
    auto b = fitRooflineOnRateSweep(replay, two, {});
    QVERIFY(!b);
    QVERIFY(b.error().message.find("not \"poisson\"") != std::string::npos);

    // One replica of several sees a share of the load; the sweep measured the whole server.
    LlmScenario replicas = scenario();
    replicas.arrivals.replicas = 2;
    auto r = fitRooflineOnRateSweep(replicas, two, {});
    QVERIFY(!r);
    QVERIFY(r.error().message.find("over 2 replicas") != std::string::npos);

    auto c = fitRooflineOnRateSweep(scenario(), {point(1)}, {});
    QVERIFY(!c);
    QVERIFY(c.error().message.find("two runs or more") != std::string::npos);
    QVERIFY(c.error().message.find("1 found") != std::string::npos);

    // A cancelled fit (the Model dock's job replaced) stops with that, not with a step.
    CancelToken cancel;
    cancel.cancel();
    auto d = fitRooflineOnRateSweep(scenario(), two, {}, cancel);
    QVERIFY(!d);
    QCOMPARE(d.error().code, ErrorCode::Cancelled);
}

void TestLlmRooflineFit::theCalibrationTravelsWithTheScenario()
{
    // The fitted step is written with the scenario (simulate --calibrated-scenario), read back
    // unchanged, and an LLM region on it names what it was calibrated on in every cell.
    LlmScenario s = scenario();
    s.step.accelerator.etaCompute = 0.41;
    s.step.overheadPerSeqMs = 0.075;
    s.step.calibratedOn = "rate sweep sweep.jsonl (3 rates, log-RMS 0.210)";
    const nlohmann::json json = llmScenarioToJson(s);
    QCOMPARE(json["step"]["overhead_per_seq_ms"].get<double>(), 0.075);
    QCOMPARE(json["step"]["calibrated_on"].get<std::string>(), s.step.calibratedOn);
    auto back = llmScenarioFromJson(json);
    QVERIFY2(back.hasValue(), back ? "" : back.error().toString().c_str());
    QVERIFY(back->step == s.step);

    analysis::LlmRegionSpec spec;
    spec.scenario = s;
    analysis::LlmRegionCell cell;
    cell.status = analysis::LlmCellStatus::Feasible;
    cell.requests = 200;
    cell.replications = 1;
    cell.confident = true;
    cell.knobs.tensorParallel = 1;
    QVERIFY(analysis::llmCellEvidence(spec, cell)
                .ends_with("; roofline step calibrated on " + s.step.calibratedOn));
    // A tensor_parallel axis carries the efficiencies to other GPU counts: said per cell.
    cell.knobs.tensorParallel = 2;
    QVERIFY(analysis::llmCellEvidence(spec, cell)
                .ends_with(s.step.calibratedOn + " at tensor_parallel 1, carried to 2 unmeasured"));
    spec.scenario.step.calibratedOn.clear();
    QVERIFY(analysis::llmCellEvidence(spec, cell)
                .ends_with("; roofline step, not calibrated to a measurement"));
}

QTEST_APPLESS_MAIN(TestLlmRooflineFit)
#include "tst_llmrooflinefit.moc"
