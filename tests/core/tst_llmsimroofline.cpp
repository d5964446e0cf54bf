// The roofline step model (README.md: "Step time: roofline"): hand-computed step times of
// Llama-3.1-8B on the H100 SXM preset (a memory-bound decode, a compute-bound prefill, the
// crossover, tensor parallelism), power and energy against core/accel's model and by hand, the
// scenario JSON, and a comparison with the real RTX 4090 run (shared data) printed as it is.
#include "accel/model.h"
#include "accel/presetlibrary.h"
#include "io/servingrequestlog.h"
#include "llmsim/llmresultjson.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"
#include "llmsim/rooflinesteptime.h"
#include "llmsimtesthelpers.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace bs;
using namespace bs::llmsim;

namespace {

using test::kLlama8bConfig;

// Hand figures for Llama-3.1-8B bf16 on h100-sxm (989.4 TFLOP/s bf16, 3.35 TB/s, eta 0.7 and
// 0.85, 4 us per launch, P_idle 70 W, P_max 700 W, kappa 0.6).
constexpr double kParameters = 8030261248.0;
constexpr double kEmbedding = 128256.0 * 4096.0;                    // 525,336,576
constexpr double kStreamedBytes = (kParameters - kEmbedding) * 2.0; // 15,009,849,344
constexpr double kBodyFlopsPerToken = 2.0 * (kParameters - 2.0 * kEmbedding);
constexpr double kLmHeadFlops = 2.0 * kEmbedding;
constexpr double kAttentionFlopsPerPair = 4.0 * 32 * 32 * 128;
constexpr double kKvBytesPerToken = 2.0 * 32 * 8 * 128 * 2; // 131,072
constexpr double kRate = 989.4e12 * 0.7;
constexpr double kBandwidth = 3.35e12 * 0.85;
constexpr double kLaunchS = (12 * 32 + 4) * 4e-6; // 388 kernels

ModelShape llama8b()
{
    auto shape = modelShapeFromHfConfig(nlohmann::json::parse(kLlama8bConfig), "config.json");
    if (!shape)
        qFatal("%s", shape.error().toString().c_str());
    return *shape;
}

StepSpec rooflineSpec(const char* accelerator = "h100-sxm")
{
    StepSpec spec;
    spec.kind = StepSpec::Kind::Roofline;
    auto preset = accel::PresetLibrary::builtIn().accelerator(accelerator);
    if (!preset)
        qFatal("%s", preset.error().toString().c_str());
    spec.accelerator = *preset;
    return spec;
}

bool near(double actual, double expected, double relative = 1e-12)
{
    return std::abs(actual - expected) <= relative * std::abs(expected);
}

std::vector<ScheduledChunk> decodes(int count, int context)
{
    return std::vector<ScheduledChunk>(std::size_t(count), ScheduledChunk{context, 1});
}

} // namespace

class TestLlmSimRoofline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameShapeAsTheSharedConfig();
    void decodeStepIsMemoryBound();
    void largePrefillIsComputeBound();
    void hostTimePerSequenceAddsToTheStep();
    void crossoverTokenCount();
    void tensorParallelHalvesWeightsAndAddsAllReduce();
    void tensorParallelNeedsAnInterconnect();
    void expertTrafficGrowsWithTokensUpToAllExperts();
    void timeAndPowerMatchTheAcceleratorModel();
    void throttlingSettlesWhereTheAcceleratorModelSays();
    void energyIsPowerTimesTimeByHand();
    void scenarioJsonRoundTripsAndRejectsBadKeys();
    void comparedWithTheRealRtx4090Run();
};

void TestLlmSimRoofline::hostTimePerSequenceAddsToTheStep()
{
    // overhead_per_seq_ms (fitted on a rate sweep, rooflineratefit.h): 0.1 ms for each of 10
    // scheduled sequences is 1 ms more, whatever bounds the rest of the step.
    StepSpec spec = rooflineSpec();
    const RooflineStepTime plain(llama8b(), spec);
    spec.overheadPerSeqMs = 0.1;
    const RooflineStepTime withHost(llama8b(), spec);
    for (int count : {1, 10, 200}) {
        const auto chunks = decodes(count, 512);
        QVERIFY(near(withHost.stepS(chunks) - plain.stepS(chunks), count * 1e-4, 1e-9));
    }
}

void TestLlmSimRoofline::sameShapeAsTheSharedConfig()
{
    BS_REQUIRE_SHARED_DATA(shared);
    auto shape = readHfConfig(shared.toStdString() +
                              "/llm/llmservingsim/configs/model/meta-llama/Llama-3.1-8B.json");
    QVERIFY2(shape, shape ? "" : shape.error().toString().c_str());
    QVERIFY(*shape == llama8b());
}

void TestLlmSimRoofline::decodeStepIsMemoryBound()
{
    const RooflineStepTime model(llama8b(), rooflineSpec());
    QCOMPARE(model.weightBytesPerGpu(), kStreamedBytes);
    QCOMPARE(model.kvBytesPerTokenPerGpu(), std::int64_t(kKvBytesPerToken));
    // One decode on 1,023 cached tokens: it reads 1,024 tokens of KV and writes one.
    const auto chunk = decodes(1, 1023);
    const RooflineTerms t = model.terms(chunk);
    const double flops = kBodyFlopsPerToken + kLmHeadFlops + kAttentionFlopsPerPair * 1024.0;
    const double memoryS = (kStreamedBytes + 1025.0 * kKvBytesPerToken) / kBandwidth;
    QVERIFY(near(t.flops, flops));
    QVERIFY(near(t.memoryS, memoryS));
    QVERIFY(near(model.stepS(chunk), kLaunchS + memoryS));
    QVERIFY(t.computeS < memoryS / 100.0);
    // Memory-bound: the kernel time is the weights over the achievable bandwidth, within 1%.
    QVERIFY(near(model.stepS(chunk) - kLaunchS, kStreamedBytes / kBandwidth, 0.01));
    qInfo("decode step (1 sequence, 1,024 context): %.3f ms = %.3f ms launches + %.3f ms memory "
          "(compute %.4f ms)",
          1e3 * model.stepS(chunk), 1e3 * kLaunchS, 1e3 * memoryS, 1e3 * t.computeS);
}

void TestLlmSimRoofline::largePrefillIsComputeBound()
{
    const RooflineStepTime model(llama8b(), rooflineSpec());
    const ScheduledChunk prompt{0, 8192};
    const RooflineTerms t = model.terms(std::span(&prompt, 1));
    // Causal attention: new token i sees i keys, Σ = 8192 · 8193 / 2 pairs.
    const double pairs = 8192.0 * 8193.0 / 2.0;
    const double flops =
        kBodyFlopsPerToken * 8192.0 + kLmHeadFlops + kAttentionFlopsPerPair * pairs;
    QVERIFY(near(t.flops, flops));
    QVERIFY(t.computeBound());
    QVERIFY(near(model.stepS(std::span(&prompt, 1)), kLaunchS + flops / kRate));
    // ≈ 2 · P · T / achievable peak (the attention it adds and the LM head it saves almost
    // cancel here): within 1%.
    QVERIFY(near(flops / kRate, 2.0 * kParameters * 8192.0 / kRate, 0.01));
    qInfo("prefill of 8,192 tokens: %.1f ms (2PT/peak %.1f ms, memory %.2f ms)",
          1e3 * model.stepS(std::span(&prompt, 1)), 1e3 * 2.0 * kParameters * 8192.0 / kRate,
          1e3 * t.memoryS);
}

void TestLlmSimRoofline::crossoverTokenCount()
{
    const RooflineStepTime model(llama8b(), rooflineSpec());
    // One prompt chunk of T tokens on an empty cache: compute (2 P_body T + 2 LM + a_att T (T+1)
    // / 2) / rate = (W + 2 T kv) / bandwidth, a quadratic a T² + b T + c = 0.
    const double a = kAttentionFlopsPerPair / 2.0 / kRate;
    const double b = (kBodyFlopsPerToken + kAttentionFlopsPerPair / 2.0) / kRate -
                     2.0 * kKvBytesPerToken / kBandwidth;
    const double c = kLmHeadFlops / kRate - kStreamedBytes / kBandwidth;
    const double root = (-b + std::sqrt(b * b - 4.0 * a * c)) / (2.0 * a);
    qInfo("prefill turns compute-bound at %.2f tokens (first whole: %d)", root,
          model.crossoverPrefillTokens());
    QCOMPARE(model.crossoverPrefillTokens(), std::int32_t(std::ceil(root)));
    QVERIFY(root > 250.0 && root < 270.0); // ≈ ridge 243 FLOP/B over 2 FLOP per weight byte
}

void TestLlmSimRoofline::tensorParallelHalvesWeightsAndAddsAllReduce()
{
    StepSpec spec = rooflineSpec();
    const RooflineStepTime one(llama8b(), spec);
    spec.tensorParallel = 2;
    spec.interconnectGbPerS = 450.0;
    const RooflineStepTime two(llama8b(), spec);
    QCOMPARE(two.weightBytesPerGpu(), kStreamedBytes / 2.0);
    QCOMPARE(two.kvBytesPerTokenPerGpu(), std::int64_t(kKvBytesPerToken / 2.0)); // 4 KV heads
    const auto batch = decodes(64, 2000);
    const RooflineTerms t1 = one.terms(batch), t2 = two.terms(batch);
    QVERIFY(near(t2.memoryS, t1.memoryS / 2.0));
    QVERIFY(near(t2.flops, t1.flops / 2.0));
    // 2 all-reduces per layer, each 2 (n-1)/n = 1 message of 64 tokens x 4096 x 2 bytes.
    const double allReduceS = 2.0 * 32 * (64.0 * 4096 * 2) / 450e9;
    QVERIFY(near(t2.allReduceS, allReduceS));
    QVERIFY(near(two.stepS(batch), kLaunchS + allReduceS + t1.memoryS / 2.0));
    QVERIFY(near(two.idlePowerW(), 140.0));
    qInfo("64 decodes at 2,000 context: TP1 %.3f ms, TP2 %.3f ms (all-reduce %.3f ms)",
          1e3 * one.stepS(batch), 1e3 * two.stepS(batch), 1e3 * allReduceS);
}

void TestLlmSimRoofline::tensorParallelNeedsAnInterconnect()
{
    QTemporaryDir dir;
    const std::string config = dir.filePath(QStringLiteral("config.json")).toStdString();
    std::ofstream(config) << kLlama8bConfig;
    StepSpec spec = rooflineSpec();
    spec.tensorParallel = 2;
    auto missing = loadRooflineStepTime(spec, config);
    QVERIFY(!missing);
    QVERIFY2(missing.error().message.find("scenario.step.interconnect_gb_per_s") !=
                 std::string::npos,
             missing.error().message.c_str());
    spec.tensorParallel = 3;
    spec.interconnectGbPerS = 450.0;
    auto indivisible = loadRooflineStepTime(spec, config);
    QVERIFY(!indivisible);
    QVERIFY(indivisible.error().message.find("scenario.step.tensor_parallel: 3 does not divide") !=
            std::string::npos);
    spec = rooflineSpec("v100"); // no bf16 tensor peak
    auto noPeak = loadRooflineStepTime(spec, config);
    QVERIFY(!noPeak);
    QVERIFY2(noPeak.error().message.find("scenario.step.weight_dtype: accelerator 'v100' has no "
                                         "bf16 peak") != std::string::npos,
             noPeak.error().message.c_str());
}

void TestLlmSimRoofline::expertTrafficGrowsWithTokensUpToAllExperts()
{
    // Mixtral-8x7B: 8 experts, 2 per token.
    auto shape = modelShapeFromHfConfig(nlohmann::json::parse(R"({
      "model_type": "mixtral", "num_hidden_layers": 32, "hidden_size": 4096,
      "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
      "num_local_experts": 8, "num_experts_per_tok": 2, "vocab_size": 32000,
      "torch_dtype": "bfloat16"})"),
                                        "config.json");
    QVERIFY(shape);
    const RooflineStepTime model(*shape, rooflineSpec());
    QVERIFY(near(model.touchedExperts(1), 2.0));
    QVERIFY(near(model.touchedExperts(2), 8.0 * (1.0 - 0.75 * 0.75)));
    QVERIFY(near(model.touchedExperts(1000), 8.0));
    const double expertBytes = 3.0 * 4096 * 14336 * 2.0;
    const auto one = decodes(1, 10), many = decodes(256, 10);
    QVERIFY(near(model.terms(one).weightBytes, model.weightBytesPerGpu() + 32 * 2 * expertBytes));
    // Every expert read: the whole model but the input embedding.
    QVERIFY(near(model.terms(many).weightBytes,
                 (double(parameterCount(*shape)) - 32000.0 * 4096) * 2.0, 1e-9));
}

void TestLlmSimRoofline::timeAndPowerMatchTheAcceleratorModel()
{
    // A batch of b decodes at one context is core/accel's workload model with b items: the
    // same equations must give the same time, power and clock, with and without a power cap.
    const int context = 1500;
    accel::ModelParams params;
    params.accelerator = rooflineSpec().accelerator;
    params.workload.name = "llama-decode";
    params.workload.flopsPerItem =
        kBodyFlopsPerToken + kLmHeadFlops + kAttentionFlopsPerPair * (context + 1);
    params.workload.weightElements = kStreamedBytes / 2.0;
    params.workload.activationElementsPerItem = (context + 2) * kKvBytesPerToken / 2.0;
    params.workload.kernels = 388;
    params.thermal.enabled = false;
    for (const std::optional<double> capW : {std::optional<double>(), std::optional<double>(300)}) {
        params.powerCapW = capW;
        auto reference = accel::Model::create(params);
        QVERIFY2(reference, reference ? "" : reference.error().toString().c_str());
        StepSpec spec = rooflineSpec();
        spec.powerCapW = capW;
        spec.thermal = false;
        const RooflineStepTime model(llama8b(), spec);
        for (int b : {1, 32, 200, 600}) {
            const auto batch = decodes(b, context);
            const accel::Prediction p = reference->predict(b);
            accel::ThermalState state = model.initialState();
            const StepCost cost = model.stepCost(batch, state, 0.0);
            QVERIFY2(
                near(cost.durationS, p.serviceS, 1e-9),
                qPrintable(
                    QStringLiteral("b %1: %2 vs %3").arg(b).arg(cost.durationS).arg(p.serviceS)));
            QVERIFY(near(cost.powerW, p.powerW, 1e-9));
            QVERIFY(near(model.stepS(batch), p.serviceS, 1e-9));
        }
    }
}

void TestLlmSimRoofline::throttlingSettlesWhereTheAcceleratorModelSays()
{
    // Back-to-back 8,192-token prefills (compute-bound, ~700 W) on an H100 whose throttle point
    // is lowered to 60 °C: the die reaches it, the clock drops, and steps settle at the clock,
    // time and power of accel::Model::sustained for the same work as one batch item.
    StepSpec spec = rooflineSpec();
    spec.accelerator.thermal.throttleC = 60.0;
    const RooflineStepTime model(llama8b(), spec);
    const ScheduledChunk prompt{0, 8192};
    const RooflineTerms t = model.terms(std::span(&prompt, 1));
    accel::ModelParams params;
    params.accelerator = spec.accelerator;
    params.workload.name = "llama-prefill-8192";
    params.workload.flopsPerItem = t.flops;
    params.workload.weightElements = (t.weightBytes + t.kvBytes) / 2.0;
    params.workload.kernels = 388;
    auto reference = accel::Model::create(params);
    QVERIFY(reference);
    const accel::SustainedLoad settled = reference->sustained(1);
    QVERIFY(settled.throttles);

    accel::ThermalState state = model.initialState();
    double nowS = 0.0, lastS = 0.0, lastW = 0.0, firstS = 0.0;
    const int steps = 4000; // about 20 time constants of 40 s
    const int averaged = 200;
    for (int i = 0; i < steps; ++i) {
        const StepCost cost = model.stepCost(std::span(&prompt, 1), state, nowS);
        if (i == 0)
            firstS = cost.durationS;
        if (i >= steps - averaged) {
            lastS += cost.durationS / averaged;
            lastW += cost.powerW / averaged;
        }
        nowS += cost.durationS;
    }
    QVERIFY(near(firstS, model.stepS(std::span(&prompt, 1))));
    qInfo("throttled prefill: %.1f ms cool, %.1f ms settled (accel %.1f ms), %.0f W (accel %.0f "
          "W), die %.1f °C",
          1e3 * firstS, 1e3 * lastS, 1e3 * settled.serviceS, lastW, settled.settledPowerW,
          state.temperatureC);
    QVERIFY(lastS > 1.1 * firstS);
    // Per-step decisions hover around the settled point (README core/accel: "Thermal model").
    QVERIFY(near(lastS, settled.serviceS, 0.02));
    QVERIFY(near(lastW, settled.settledPowerW, 0.02));
}

void TestLlmSimRoofline::energyIsPowerTimesTimeByHand()
{
    // Request 0: 100 prompt tokens, 3 output tokens at t = 0 → a prefill step and two decodes.
    // Request 1: 50 prompt tokens, 1 output token at t = 1 s → one prefill step after an idle
    // gap.
    const ModelShape shape = llama8b();
    StepSpec spec = rooflineSpec();
    const RooflineStepTime model(shape, spec);
    EngineConfig engine;
    engine.numGpuBlocks = 100;
    const std::vector<RequestSpec> requests = {{0.0, 100, 3}, {1.0, 50, 1}};
    auto run = runEngine(engine, model, requests);
    QVERIFY(run);
    QCOMPARE(run->steps.size(), std::size_t(4));
    // Each step by hand: kernel time, then activity = max(t_c, 0.6 t_m) / t, P = 70 + 630 · it.
    const auto handStep = [](double tokens, double pairs, double contextPlusNew) {
        const double computeS =
            (kBodyFlopsPerToken * tokens + kLmHeadFlops + kAttentionFlopsPerPair * pairs) / kRate;
        const double memoryS =
            (kStreamedBytes + (contextPlusNew + tokens) * kKvBytesPerToken) / kBandwidth;
        const double stepS = kLaunchS + std::max(computeS, memoryS);
        const double powerW = 70.0 + 630.0 * std::max(computeS, 0.6 * memoryS) / stepS;
        return std::pair{stepS, powerW};
    };
    const std::pair<double, double> steps[] = {
        handStep(100, 100.0 * 101.0 / 2.0, 100), // prefill
        handStep(1, 101, 101),                   // decode at c = 100
        handStep(1, 102, 102),                   // decode at c = 101
        handStep(50, 50.0 * 51.0 / 2.0, 50),     // request 1's prefill
    };
    double energyJ = 0.0, busyS = 0.0;
    for (std::size_t i = 0; i < 4; ++i) {
        QVERIFY(near(run->steps[i].durationS, steps[i].first, 1e-12));
        QVERIFY(near(run->steps[i].powerW, steps[i].second, 1e-6)); // stored as float
        energyJ += steps[i].first * steps[i].second;
        busyS += steps[i].first;
    }
    QCOMPARE(run->steps[3].startS, 1.0);
    const double durationS = 1.0 + steps[3].first;
    energyJ += 70.0 * (durationS - busyS); // idle between the decodes and request 1
    const ReplicationMetrics m = summarise(*run, engine, {});
    QVERIFY(near(m.durationS, durationS));
    QVERIFY(near(m.energyJ, energyJ, 1e-12));
    QVERIFY(near(m.meanPowerW, energyJ / durationS, 1e-12));
    QVERIFY(near(m.energyPerOutputTokenJ, energyJ / 4.0, 1e-12));
    qInfo("tiny run: %.4f J over %.4f s (%.1f W mean), %.4f J per output token", m.energyJ,
          m.durationS, m.meanPowerW, m.energyPerOutputTokenJ);

    // The linear step model has no power: energy stays unknown, not 0.
    StepSpec linearSpec;
    linearSpec.baseMs = 10.0;
    const LinearStepTime linear(linearSpec);
    auto plain = runEngine(engine, linear, requests);
    QVERIFY(plain);
    QVERIFY(std::isnan(summarise(*plain, engine, {}).energyJ));
}

void TestLlmSimRoofline::scenarioJsonRoundTripsAndRejectsBadKeys()
{
    QTemporaryDir dir;
    std::ofstream(dir.filePath(QStringLiteral("config.json")).toStdString()) << kLlama8bConfig;
    const auto scenarioJson = nlohmann::json::parse(R"({
      "kind": "llm", "replications": 3,
      "engine": {"num_gpu_blocks": 4000},
      "step": {"kind": "roofline", "model_config": "config.json", "accelerator": "h100-sxm",
               "power_cap_w": 500},
      "arrivals": {"kind": "poisson", "rate_per_s": 4, "requests": 200,
                   "prompt_tokens": {"kind": "uniform", "min": 100, "max": 800},
                   "output_tokens": {"kind": "uniform", "min": 20, "max": 200}}})");
    auto scenario = llmScenarioFromJson(scenarioJson, "s.json");
    QVERIFY2(scenario, scenario ? "" : scenario.error().toString().c_str());
    QCOMPARE(scenario->step.accelerator.name, std::string("h100-sxm"));
    QCOMPARE(*scenario->step.powerCapW, 500.0);
    const auto written = llmScenarioToJson(*scenario);
    QCOMPARE(written["step"]["accelerator"], nlohmann::json("h100-sxm"));
    auto back = llmScenarioFromJson(written, "s.json");
    QVERIFY(back);
    QVERIFY(*back == *scenario);
    auto tensorParallel = scenarioJson;
    tensorParallel["step"]["tensor_parallel"] = 2;
    tensorParallel["step"]["interconnect_gb_per_s"] = 450;
    auto parallel = llmScenarioFromJson(tensorParallel, "s.json");
    QVERIFY(parallel);
    auto parallelBack = llmScenarioFromJson(llmScenarioToJson(*parallel), "s.json");
    QVERIFY(parallelBack);
    QCOMPARE(parallelBack->step.interconnectGbPerS, 450.0);

    auto result = simulateLlm(*scenario, {dir.path().toStdString(), 1});
    QVERIFY2(result, result ? "" : result.error().toString().c_str());
    const auto out = llmResultToJson(*result);
    const auto& energy = out["energy_per_output_token_j"];
    QVERIFY(energy["value"].get<double>() > 0.0);
    QCOMPARE(energy["ci95"].size(), std::size_t(2)); // three replications: an interval
    QVERIFY(energy["ci95"][0].get<double>() <= energy["value"].get<double>());
    QVERIFY(out["power_mean_w"]["value"].get<double>() >= 70.0);
    QVERIFY(out["power_mean_w"]["value"].get<double>() <= 500.0);
    const auto& series = out["time_series"]["power_busy_mean_w"];
    QVERIFY(!series.empty());
    for (const auto& w : series) // an empty window is null; a busy one between idle and the cap
        QVERIFY(w.is_null() || (w.get<double>() > 70.0 && w.get<double>() <= 500.0 + 1e-6));
    qInfo("Poisson 4 req/s on h100-sxm capped at 500 W: %.3f J per output token, %.1f W mean",
          energy["value"].get<double>(), out["power_mean_w"]["value"].get<double>());

    const auto rejects = [](const char* stepJson, const char* expected) {
        auto json = nlohmann::json::parse(R"({"kind": "llm", "engine": {"num_gpu_blocks": 10},
            "arrivals": {"kind": "replay", "requests": [{"arrival_s": 0, "prompt_tokens": 1,
                                                     "output_tokens": 1}]}})");
        json["step"] = nlohmann::json::parse(stepJson);
        auto parsed = llmScenarioFromJson(json, "s.json");
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().message.find(expected) != std::string::npos,
                 parsed.error().message.c_str());
    };
    rejects(R"({"kind": "roofline", "model_config": "c.json", "accelerator": "h100"})",
            "scenario.step.accelerator");
    rejects(R"({"kind": "roofline", "model_config": "c.json"})", "scenario.step.accelerator");
    rejects(R"({"kind": "roofline", "model_config": "c.json", "accelerator": "h100-sxm",
                "tensor_parallel": 0})",
            "scenario.step.tensor_parallel");
    rejects(R"({"kind": "roofline", "model_config": "c.json", "accelerator": "h100-sxm",
                "tensor_parallel": 2})",
            "scenario.step.interconnect_gb_per_s: missing: tensor_parallel 2 needs");
    rejects(R"({"kind": "roofline", "model_config": "c.json", "accelerator": "h100-sxm",
                "power_cap": 300})",
            "power_cap");
    rejects(R"({"kind": "roofline", "model_config": "c.json",
                "accelerator": {"name": "x", "peak_tflops": {"bf16": -1}}})",
            "scenario.step.accelerator");
}

void TestLlmSimRoofline::comparedWithTheRealRtx4090Run()
{
    // No RTX 4090 preset ships; this inline one takes the Ada whitepaper's figures (bf16 tensor
    // peak with FP32 accumulate 165.2 TFLOP/s dense, 1,008 GB/s, 450 W) and the shipped presets'
    // assumptions (eta 0.7 / 0.85, 4 us launches). Nothing is tuned to the run: the error is
    // printed as it is and only checked to be the roofline's order of magnitude.
    BS_REQUIRE_SHARED_DATA(shared);
    const std::string root = shared.toStdString() + "/llm/llmservingsim";
    const std::string run = root + "/bench/examples/RTX4090/Llama-3.1-8B/vllm";
    auto meta = readScenarioFile(run + "/meta.json");
    QVERIFY(meta);
    LlmScenario scenario;
    scenario.engine.maxNumSeqs = (*meta)["engine_kwargs"]["max_num_seqs"].get<std::int32_t>();
    scenario.engine.maxNumBatchedTokens =
        (*meta)["engine_kwargs"]["max_num_batched_tokens"].get<std::int32_t>();
    scenario.engine.blockSize = (*meta)["kv_cache"]["block_size"].get<std::int32_t>();
    scenario.engine.numGpuBlocks = (*meta)["kv_cache"]["num_gpu_blocks"].get<std::int64_t>();
    scenario.engine.enablePrefixCaching = (*meta)["kv_cache"]["enable_prefix_caching"].get<bool>();
    scenario.step.kind = StepSpec::Kind::Roofline;
    scenario.step.modelConfig = root + "/configs/model/meta-llama/Llama-3.1-8B.json";
    auto rtx4090 = accel::acceleratorFromJson(nlohmann::json::parse(R"({
      "name": "rtx4090", "peak_tflops": {"bf16": 165.2, "fp16": 165.2, "fp8": 330.3},
      "memory_bandwidth_tb_per_s": 1.008, "memory_gb": 24, "launch_overhead_us": 4,
      "eta_compute": 0.7, "eta_memory": 0.85, "power_idle_w": 20, "power_max_w": 450})"),
                                              "rtx4090", "test");
    QVERIFY2(rtx4090, rtx4090 ? "" : rtx4090.error().toString().c_str());
    scenario.step.accelerator = *rtx4090;
    scenario.arrivals.file = run + "/requests.jsonl";
    auto result = simulateLlm(scenario);
    QVERIFY2(result, result ? "" : result.error().toString().c_str());

    auto measured = io::readServingRequestLog(scenario.arrivals.file);
    QVERIFY(measured);
    double measuredTpot = 0.0, measuredTtft = 0.0, tpotCount = 0.0;
    for (const auto& r : *measured) {
        measuredTtft += *r.ttftS / double(measured->size());
        if (r.tpotS) {
            measuredTpot += *r.tpotS;
            tpotCount += 1.0;
        }
    }
    measuredTpot /= tpotCount;
    const auto& m = result->replications[0];
    const double tpotError = (m.tpot.meanS - measuredTpot) / measuredTpot;
    const double ttftError = (m.ttft.meanS - measuredTtft) / measuredTtft;
    qInfo("RTX 4090 / Llama-3.1-8B, 300 ShareGPT requests: TPOT mean measured %.1f ms, roofline "
          "%.1f ms (%+.1f%%); TTFT mean measured %.0f ms, roofline %.0f ms (%+.1f%%); %lld "
          "preemptions; %.3f J per output token, %.0f W mean",
          1e3 * measuredTpot, 1e3 * m.tpot.meanS, 100.0 * tpotError, 1e3 * measuredTtft,
          1e3 * m.ttft.meanS, 100.0 * ttftError, static_cast<long long>(m.preemptions),
          m.energyPerOutputTokenJ, m.meanPowerW);
    QVERIFY(std::abs(tpotError) < 1.0); // a roofline, not a fit: the right order only
}

QTEST_APPLESS_MAIN(TestLlmSimRoofline)
#include "tst_llmsimroofline.moc"
