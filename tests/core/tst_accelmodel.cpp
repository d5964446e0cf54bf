#include "accel/model.h"
#include "accel/presetlibrary.h"

#include <QtTest>

#include <cmath>
#include <optional>

using namespace bs;
using namespace bs::accel;

namespace {

Model makeModel(const nlohmann::json& params)
{
    auto model = modelFromJson(params, "model", "test.json");
    if (!model)
        qFatal("model: %s", model.error().toString().c_str());
    return std::move(*model);
}

/// A device with round numbers: every hand computation below uses these.
nlohmann::json simpleAccelerator()
{
    return {
        {"name", "simple"},
        {"peak_tflops", {{"bf16", 100}}}, // 1e14 FLOP/s
        {"memory_bandwidth_tb_per_s", 1}, // 1e12 B/s
        {"eta_compute", 1},
        {"eta_memory", 1},
        {"power_idle_w", 100},
        {"power_max_w", 700},
        {"memory_activity", 0.6},
        {"power_exponent", 3},
        {"min_clock_scale", 0.2},
        {"thermal",
         {{"ambient_c", 25},
          {"resistance_c_per_w", 0.1},
          {"capacitance_j_per_c", 300},
          {"throttle_c", 200}}},
    };
}

/// 1e9 FLOP per item and no memory traffic or overhead: t(b) = 1e-5·b s, activity 1.
nlohmann::json computeOnlyWorkload()
{
    return {{"name", "compute-only"},
            {"flops_per_item", 1e9},
            {"weight_elements", 0},
            {"activation_elements_per_item", 0}};
}

bool near(double actual, double expected, double relative)
{
    return std::abs(actual - expected) <= relative * std::abs(expected);
}

} // namespace

class TestAccelModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void crossoverOfLinear4096OnH100();
    void crossoverWithAchievableFractions();
    void energyPerInferenceFallsThenFlattens();
    void predictionAtAnOfferedLoad();
    void powerCapLengthensServiceTime_data();
    void powerCapLengthensServiceTime();
    void thermalSteadyStateAndTimeConstant();
    void idleGapCoolsTowardsIdleTemperature();
    void throttlingAtLargeBatch();
    void fusionCutsLaunchesButAddsTraffic();
    void memoryCheckCountsWhatIsResident();
    void precisionChangesPeakAndBytes();
    void serveBatchIsDeterministic();
    void serveBatchAgreesWithPredictOnACoolDevice();
    void jsonRoundTrip();
    void badParameters_data();
    void badParameters();
};

void TestAccelModel::crossoverOfLinear4096OnH100()
{
    // Hand computation, H100 SXM bf16 dense, η = 1:
    //   P = 989.4e12 FLOP/s, BW = 3.35e12 B/s
    //   F = 2·4096·4096 = 33,554,432 FLOP/item
    //   W = 4096·4096·2 B = 33,554,432 B (read once per batch)
    //   A = (4096 in + 4096 out)·2 B = 16,384 B/item
    //   compute-bound when F·b/P ≥ (W + A·b)/BW
    //   ⇔ b ≥ (W/BW) / (F/P − A/BW) = 1.00162e-5 / (3.39139e-8 − 4.89075e-9) = 345.11
    //   Same from the roofline: ridge = P/BW = 295.34 FLOP/B, AI(b) = b/(1 + b/2048),
    //   AI(b*) = ridge ⇒ b* = 295.34/(1 − 295.34/2048) = 345.11.
    const Model model = makeModel({{"accelerator", "h100-sxm"},
                                   {"workload", "linear-4096"},
                                   {"eta_compute", 1.0},
                                   {"eta_memory", 1.0}});
    QVERIFY(near(model.ridgePoint(), 295.3433, 1e-5));
    QVERIFY2(near(model.crossoverBatch(), 345.1121, 1e-5),
             std::to_string(model.crossoverBatch()).c_str());
    QCOMPARE(model.firstComputeBoundBatch(), 346);
    QCOMPARE(model.predict(345).bound, Bound::Memory);
    QCOMPARE(model.predict(346).bound, Bound::Compute);
    QVERIFY(model.predict(345).arithmeticIntensity < model.ridgePoint());
    QVERIFY(model.predict(346).arithmeticIntensity > model.ridgePoint());
    QVERIFY(near(model.predict(1).arithmeticIntensity, 1.0 / (1.0 + 1.0 / 2048.0), 1e-12));
    QCOMPARE(model.predict(1).memoryBytesNeeded, 33554432.0 + 16384.0 + kDefaultWorkspaceBytes);
}

void TestAccelModel::crossoverWithAchievableFractions()
{
    // With the preset's η_c = 0.7, η_m = 0.85 the ridge moves to 989.4·0.7/(3.35·0.85) =
    // 243.22 FLOP/B and b* = 243.22/(1 − 243.22/2048) = 276.00.
    const Model model = makeModel({{"accelerator", "h100-sxm"}, {"workload", "linear-4096"}});
    QVERIFY(near(model.ridgePoint(), 243.2239, 1e-5));
    QVERIFY(near(model.crossoverBatch(), 276.0024, 1e-5));
    QCOMPARE(model.firstComputeBoundBatch(), 277);
}

void TestAccelModel::energyPerInferenceFallsThenFlattens()
{
    // Preset H100 (η_c 0.7, η_m 0.85, idle 70 W, max 700 W, κ 0.6, 4 µs launch), linear-4096.
    // b = 1: τ_w = 33,554,432/(3.35e12·0.85) = 1.17836e-5 s; t = 4e-6 + 1.17836e-5 +
    //   16384/(2.8475e12) = 1.57896e-5 s; u_m = 0.74667, activity = 0.6·u_m = 0.44800,
    //   P = 70 + 630·0.448 = 352.24 W, E = P·t = 5.5617e-3 J.
    // b → ∞: compute-bound, activity → 1, E → P_max·F/(P·η_c) = 700·3.39139e-8/0.7 = 3.39139e-5 J.
    const Model model = makeModel({{"accelerator", "h100-sxm"}, {"workload", "linear-4096"}});
    QVERIFY(near(model.predict(1).serviceS, 1.578958e-5, 1e-5));
    QVERIFY(near(model.predict(1).powerW, 352.2406, 1e-5));
    QVERIFY(near(model.predict(1).energyPerInferenceJ, 5.561730e-3, 1e-5));
    QVERIFY(near(model.predict(1 << 20).energyPerInferenceJ, 3.391392e-5, 1e-3));

    double previous = HUGE_VAL;
    for (int b = 1; b <= 8192; b *= 2) {
        const double energy = model.predict(b).energyPerInferenceJ;
        QVERIFY2(energy <= previous, ("energy rose at batch " + std::to_string(b)).c_str());
        previous = energy;
    }
    const double e1 = model.predict(1).energyPerInferenceJ;
    const double e4096 = model.predict(4096).energyPerInferenceJ;
    const double e8192 = model.predict(8192).energyPerInferenceJ;
    QVERIFY(e1 / e4096 > 100.0);   // falls steeply while the weight read is shared...
    QVERIFY(e4096 / e8192 < 1.02); // ...then flattens once compute-bound
}

void TestAccelModel::powerCapLengthensServiceTime_data()
{
    QTest::addColumn<double>("capW");
    QTest::addColumn<double>("expectedClock");
    QTest::addColumn<double>("expectedPowerW");
    QTest::addColumn<bool>("unreachable");
    // Documented relation: P(s) = P_idle + (P_max − P_idle)·activity·s^γ; the cap holds at
    // s = ((cap − P_idle)/(P_dyn))^(1/γ); compute time scales by 1/s.
    QTest::newRow("no effect above P_max") << 800.0 << 1.0 << 700.0 << false;
    QTest::newRow("400 W: s = 0.5^(1/3)") << 400.0 << 0.7937005259840998 << 400.0 << false;
    QTest::newRow("300 W: s = (1/3)^(1/3)") << 300.0 << 0.6933612743506347 << 300.0 << false;
    // (1/600)^(1/3) = 0.119 is below the 0.2 floor: 100 + 600·0.2³ = 104.8 W > cap.
    QTest::newRow("101 W: floor at 0.2") << 101.0 << 0.2 << 104.8 << true;
}

void TestAccelModel::powerCapLengthensServiceTime()
{
    QFETCH(double, capW);
    QFETCH(double, expectedClock);
    QFETCH(double, expectedPowerW);
    QFETCH(bool, unreachable);
    const Model free =
        makeModel({{"accelerator", simpleAccelerator()}, {"workload", computeOnlyWorkload()}});
    const Model capped = makeModel({{"accelerator", simpleAccelerator()},
                                    {"workload", computeOnlyWorkload()},
                                    {"power_cap_w", capW}});
    for (int b : {1, 16, 256}) {
        const Prediction p0 = free.predict(b);
        const Prediction p = capped.predict(b);
        QVERIFY(near(p0.serviceS, 1e-5 * b, 1e-12));
        QCOMPARE(p0.powerW, 700.0);
        QVERIFY2(near(p.clockScale, expectedClock, 1e-12), std::to_string(p.clockScale).c_str());
        QVERIFY(near(p.serviceS, p0.serviceS / expectedClock, 1e-12));
        QVERIFY(near(p.powerW, expectedPowerW, 1e-12));
        QCOMPARE(p.capUnreachable, unreachable);
        QCOMPARE(p.powerCapped, expectedClock < 1.0);
    }
}

void TestAccelModel::thermalSteadyStateAndTimeConstant()
{
    // R = 0.1 °C/W, C = 300 J/°C ⇒ τ = 30 s. Back-to-back compute-bound batches at 700 W:
    // T_ss = 25 + 700·0.1 = 95 °C; after τ: 25 + 70·(1 − e⁻¹) = 69.2494 °C.
    const Model model =
        makeModel({{"accelerator", simpleAccelerator()}, {"workload", computeOnlyWorkload()}});
    const int batch = 1000; // 1e-2 s per batch
    ThermalState state = model.initialThermalState();
    QCOMPARE(state.temperatureC, 25.0);
    double now = 0.0;
    for (int i = 0; i < 3000; ++i) {
        const BatchCost cost = model.serveBatch(batch, state, now);
        QCOMPARE(cost.powerW, 700.0);
        QVERIFY(!cost.throttled);
        now += cost.serviceS;
    }
    QVERIFY(near(now, 30.0, 1e-9));
    QVERIFY2(near(state.temperatureC, 25.0 + 70.0 * (1.0 - std::exp(-1.0)), 1e-9),
             std::to_string(state.temperatureC).c_str());
    QCOMPARE(state.lastUpdateS, now);
    const SustainedLoad sustained = model.sustained(batch);
    QCOMPARE(sustained.steadyStateC, 95.0);
    QVERIFY(!sustained.throttles);
    QVERIFY(std::isinf(sustained.timeToThrottleS));
    for (int i = 0; i < 30000; ++i)
        now += model.serveBatch(batch, state, now).serviceS; // 300 s more: 11 τ in all
    QVERIFY(near(now, 330.0, 1e-9));
    QVERIFY(near(state.temperatureC, 95.0 - 70.0 * std::exp(-11.0), 1e-9));
}

void TestAccelModel::idleGapCoolsTowardsIdleTemperature()
{
    // Idle power 100 W holds 25 + 100·0.1 = 35 °C. From 95 °C, one τ (30 s) of idling leaves
    // 35 + 60·e⁻¹ = 57.0728 °C; the next batch (1e-2 s at 700 W) then heats towards 95 °C.
    const Model model =
        makeModel({{"accelerator", simpleAccelerator()}, {"workload", computeOnlyWorkload()}});
    ThermalState state{95.0, 10.0};
    const BatchCost cost = model.serveBatch(1000, state, 40.0);
    const double cooled = 35.0 + 60.0 * std::exp(-1.0);
    const double expected = 95.0 + (cooled - 95.0) * std::exp(-1e-2 / 30.0);
    QVERIFY(near(cost.temperatureC, expected, 1e-12));
    QCOMPARE(state.temperatureC, cost.temperatureC);
    QVERIFY(near(state.lastUpdateS, 40.01, 1e-12));
}

void TestAccelModel::throttlingAtLargeBatch()
{
    // Throttle at 55 °C: P_hold = (55 − 25)/0.1 = 300 W ⇒ s = ((300 − 100)/600)^(1/3) = 0.69336.
    // From ambient at 700 W: T reaches 55 °C after τ·ln(70/(95 − 55)) = 30·ln(1.75) = 16.788 s.
    nlohmann::json accelerator = simpleAccelerator();
    accelerator["thermal"]["throttle_c"] = 55;
    const Model model =
        makeModel({{"accelerator", accelerator}, {"workload", computeOnlyWorkload()}});
    const SustainedLoad s = model.sustained(1000);
    QVERIFY(s.throttles);
    QVERIFY(near(s.timeToThrottleS, 30.0 * std::log(1.75), 1e-12));
    QVERIFY(near(s.clockScale, std::cbrt(1.0 / 3.0), 1e-12));
    QVERIFY(near(s.settledPowerW, 300.0, 1e-12));
    QVERIFY(near(s.steadyStateC, 55.0, 1e-12));
    QVERIFY(near(s.serviceS, 1e-2 / std::cbrt(1.0 / 3.0), 1e-12));

    ThermalState state = model.initialThermalState();
    double now = 0.0;
    double firstThrottle = -1.0;
    double lateService = 0.0;
    int lateCount = 0;
    while (now < 200.0) {
        const BatchCost cost = model.serveBatch(1000, state, now);
        if (cost.throttled && firstThrottle < 0.0)
            firstThrottle = now;
        if (now > 150.0) {
            lateService += cost.serviceS;
            ++lateCount;
        }
        now += cost.serviceS;
    }
    QVERIFY2(std::abs(firstThrottle - s.timeToThrottleS) <= 0.011,
             std::to_string(firstThrottle).c_str());
    QVERIFY(std::abs(state.temperatureC - 55.0) < 0.05);
    // Per-batch control hovers around the limit: the mean matches the settled service time.
    QVERIFY(near(lateService / lateCount, s.serviceS, 0.01));
}

void TestAccelModel::fusionCutsLaunchesButAddsTraffic()
{
    // resnet50: 56 kernels × 4 µs launches; β = 0.1. Fusion φ = 2 halves the launches and
    // multiplies activation bytes per item by 2^0.1 = 1.0718.
    const Model plain = makeModel({{"accelerator", "h100-sxm"}, {"workload", "resnet50"}});
    const Model fused =
        makeModel({{"accelerator", "h100-sxm"}, {"workload", "resnet50"}, {"fusion_factor", 2.0}});
    QVERIFY(near(plain.predict(1).overheadS, 30e-6 + 56 * 4e-6, 1e-12));
    QVERIFY(near(fused.predict(1).overheadS, 30e-6 + 28 * 4e-6, 1e-12));
    QVERIFY(fused.predict(1).serviceS < plain.predict(1).serviceS);
    const double weights = 25557032.0; // int8: 1 byte each
    // Bytes moved for a batch of b: F·b / arithmetic intensity.
    const auto traffic = [](const Model& m, int b) {
        return 8.18e9 * b / m.predict(b).arithmeticIntensity;
    };
    const double plainAct = traffic(plain, 2) - traffic(plain, 1);
    const double fusedAct = traffic(fused, 2) - traffic(fused, 1);
    QVERIFY(near(traffic(plain, 1), weights + 2.2786e7, 1e-9));
    QVERIFY(near(fusedAct / plainAct, std::pow(2.0, 0.1), 1e-9));
    // What is resident is another matter: the first stage's 1,956,864 live elements per
    // image, whatever the fusion.
    QVERIFY(near(plain.predict(1).memoryBytesNeeded, weights + 1956864.0 + kDefaultWorkspaceBytes,
                 1e-12));
    QCOMPARE(fused.predict(8).memoryBytesNeeded, plain.predict(8).memoryBytesNeeded);
    QVERIFY(fused.predict(4096).memoryS > plain.predict(4096).memoryS);
}

void TestAccelModel::memoryCheckCountsWhatIsResident()
{
    // MLPerf ran BERT-large at batch 1280 on an A100-80GB: its weights (340M × 2 bytes) and one
    // encoder layer's activations per sequence (9.44e6 × 2 bytes × 1280 = 24.2 GB) fit, though
    // the traffic of all 24 layers (1.16 TB) would not.
    const Model bert = makeModel(
        {{"accelerator", "a100-sxm-80gb"}, {"workload", "bert-large-384"}, {"precision", "fp16"}});
    const Prediction p = bert.predict(1280);
    QVERIFY2(p.fitsInMemory, std::to_string(p.memoryBytesNeeded).c_str());
    QVERIFY(p.memoryBytesNeeded < 30e9);
    // A decoder's KV cache stays resident: 2,048-token caches of 8B-model sequences fill an
    // 80 GB device at a few hundred sequences.
    const Model decoder = makeModel({{"accelerator", "a100-sxm-80gb"},
                                     {"workload", "decoder-8b-decode"},
                                     {"precision", "fp16"}});
    QVERIFY(decoder.predict(64).fitsInMemory);
    QVERIFY(!decoder.predict(1024).fitsInMemory);
    // The runtime's workspace counts too: 1 GiB assumed unless the workload says. Weights that
    // leave half a GiB free fit without a workspace and not with the default one.
    const double capacity = decoder.params().accelerator.memoryBytes;
    const auto withWorkspace = [&](std::optional<double> mib) {
        nlohmann::json workload = {{"flops_per_item", 1e9},
                                   {"weight_elements", (capacity - 0.5 * (1 << 30)) / 2.0},
                                   {"activation_elements_per_item", 1.0}};
        if (mib)
            workload["workspace_mib"] = *mib;
        return makeModel(
            {{"accelerator", "a100-sxm-80gb"}, {"workload", workload}, {"precision", "fp16"}});
    };
    const Prediction none = withWorkspace(0.0).predict(1);
    const Prediction assumed = withWorkspace(std::nullopt).predict(1);
    QCOMPARE(assumed.memoryBytesNeeded - none.memoryBytesNeeded, kDefaultWorkspaceBytes);
    QVERIFY(none.fitsInMemory);
    QVERIFY(!assumed.fitsInMemory);
    QCOMPARE(withWorkspace(256.0).predict(1).memoryBytesNeeded - none.memoryBytesNeeded,
             256.0 * 1024 * 1024);
}

void TestAccelModel::precisionChangesPeakAndBytes()
{
    auto model = [](const char* precision) {
        return makeModel({{"accelerator", "h100-sxm"},
                          {"workload", "linear-4096"},
                          {"precision", precision},
                          {"eta_compute", 1.0},
                          {"eta_memory", 1.0}});
    };
    const Model bf16 = model("bf16");
    const Model fp8 = model("fp8");
    const Model fp32 = model("fp32");
    QCOMPARE(fp8.predict(1).memoryBytesNeeded - kDefaultWorkspaceBytes,
             (bf16.predict(1).memoryBytesNeeded - kDefaultWorkspaceBytes) / 2);
    QCOMPARE(fp32.predict(1).memoryBytesNeeded - kDefaultWorkspaceBytes,
             (bf16.predict(1).memoryBytesNeeded - kDefaultWorkspaceBytes) * 2);
    QVERIFY(near(fp8.predict(1024).computeS, 1024 * 33554432.0 / 1978.9e12, 1e-12));
    QVERIFY(near(fp32.predict(1024).computeS, 1024 * 33554432.0 / 66.9e12, 1e-12));
    // FP32 peak is 1/15 of BF16 while bytes only double: the crossover comes much earlier.
    QVERIFY(fp32.crossoverBatch() < bf16.crossoverBatch() / 4);
}

void TestAccelModel::serveBatchIsDeterministic()
{
    const Model model = makeModel({{"accelerator", "h100-sxm"},
                                   {"workload", "resnet50"},
                                   {"power_cap_w", 450},
                                   {"smooth_max_p", 3},
                                   {"thermal", {{"ambient_c", 45}}}});
    auto run = [&model] {
        ThermalState state = model.initialThermalState();
        double now = 0.0;
        std::vector<double> trace;
        for (int i = 0; i < 20000; ++i) {
            const int batch = 1 + (i * 37) % 512;
            const BatchCost cost = model.serveBatch(batch, state, now);
            trace.push_back(cost.serviceS);
            trace.push_back(cost.temperatureC);
            now += cost.serviceS + (i % 7 == 0 ? 5e-3 : 0.0);
        }
        return trace;
    };
    const auto a = run();
    const auto b = run();
    QVERIFY(a == b);
}

void TestAccelModel::serveBatchAgreesWithPredictOnACoolDevice()
{
    // Batches up to Model::kServeTableBatches come from the precomputed table, larger ones are
    // computed per call: both must give predict()'s numbers on a device below the limit.
    const Model model = makeModel({{"accelerator", "h100-sxm"},
                                   {"workload", "resnet50"},
                                   {"power_cap_w", 450},
                                   {"smooth_max_p", 3}});
    for (int b : {1, 7, 1024, 1025, 5000}) {
        ThermalState state = model.initialThermalState();
        const BatchCost cost = model.serveBatch(b, state, 0.0);
        const Prediction p = model.predict(b);
        QCOMPARE(cost.serviceS, p.serviceS);
        QCOMPARE(cost.powerW, p.powerW);
        QCOMPARE(cost.clockScale, p.clockScale);
        QVERIFY(!cost.throttled);
    }
}

void TestAccelModel::jsonRoundTrip()
{
    const nlohmann::json params = {{"accelerator", "a100-sxm-80gb"},
                                   {"workload", "bert-large-384"},
                                   {"precision", "fp16"},
                                   {"fusion_factor", 1.5},
                                   {"power_cap_w", 300},
                                   {"smooth_max_p", 4},
                                   {"eta_compute", 0.55},
                                   {"host_overhead_us", 120},
                                   {"thermal", {{"ambient_c", 35}}}};
    const Model model = makeModel(params);
    const nlohmann::json written = toJson(model);
    QCOMPARE(QString::fromStdString(written.at("accelerator").get<std::string>()),
             QStringLiteral("a100-sxm-80gb"));
    QCOMPARE(QString::fromStdString(written.at("workload").get<std::string>()),
             QStringLiteral("bert-large-384"));
    const Model again = makeModel(written);
    QVERIFY(again.params() == model.params());
    QCOMPARE(toJson(again), written);

    // A changed spec is no longer the preset: it is written inline and reads back the same.
    ModelParams custom = model.params();
    custom.accelerator.powerMaxW = 350;
    const nlohmann::json inlineJson = toJson(custom);
    QVERIFY(inlineJson.at("accelerator").is_object());
    const Model fromInline = makeModel(inlineJson);
    for (int b : {1, 8, 64, 512})
        QVERIFY(near(fromInline.predict(b).serviceS, Model::create(custom)->predict(b).serviceS,
                     1e-12));
}

void TestAccelModel::badParameters_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative peak")
        << R"({"accelerator": {"peak_tflops": {"bf16": -990}, "memory_bandwidth_tb_per_s": 3.35,
              "power_idle_w": 70, "power_max_w": 700}, "workload": "linear-4096"})"
        << "test.json: model.accelerator.peak_tflops.bf16: must be greater than 0 (got -990)";
    QTest::newRow("unknown precision")
        << R"({"accelerator": "h100-sxm", "workload": "linear-4096", "precision": "fp4"})"
        << "test.json: model.precision: unknown value 'fp4'; expected one of: fp32, tf32, bf16, "
           "fp16, fp8, int8";
    QTest::newRow("precision the device lacks")
        << R"({"accelerator": "t4", "workload": "linear-4096"})"
        << "test.json: model.precision: accelerator 't4' has no peak for bf16 (it has: fp32, "
           "fp16, int8)";
    QTest::newRow("unknown accelerator")
        << R"({"accelerator": "h100", "workload": "linear-4096"})"
        << "test.json: model.accelerator: unknown accelerator preset 'h100' (known: "
           "a10, a100-sxm-40gb, a100-sxm-80gb, a2, a30, a40, b200, generic-edge-npu, h100-sxm, "
           "h200-sxm, l4, l40s, mi300x, rtx-4090, t4, tpu-v5e, v100)";
    QTest::newRow("missing workload")
        << R"({"accelerator": "h100-sxm"})"
        << "test.json: model.workload: missing; expected a preset name or an object";
    QTest::newRow("NaN-like null peak")
        << R"({"accelerator": {"peak_tflops": {"bf16": null}, "memory_bandwidth_tb_per_s": 1,
              "power_idle_w": 1, "power_max_w": 2}, "workload": "linear-4096"})"
        << "test.json: model.accelerator.peak_tflops: needs a peak for at least one of: fp32, "
           "tf32, bf16, fp16, fp8, int8";
    QTest::newRow("power cap below idle")
        << R"({"accelerator": "h100-sxm", "workload": "linear-4096", "power_cap_w": 50})"
        << "test.json: model.power_cap_w: must be above the idle power of 70 W (got 50)";
    QTest::newRow("fusion below 1")
        << R"({"accelerator": "h100-sxm", "workload": "linear-4096", "fusion_factor": 0.5})"
        << "test.json: model.fusion_factor: must be at least 1 (got 0.5)";
    QTest::newRow("typo key")
        << R"({"accelerator": "h100-sxm", "workload": "linear-4096", "power_cap": 300})"
        << "test.json: model.power_cap: unknown key (known keys here: accelerator, eta_compute, "
           "eta_memory, fusion_factor, host_overhead_us, kind, memory_activity, power_cap_w, "
           "power_idle_w, power_max_w, precision, smooth_max_p, thermal, workload)";
    QTest::newRow("max below idle")
        << R"({"accelerator": "h100-sxm", "workload": "linear-4096", "power_max_w": 60})"
        << "test.json: model.power_max_w: must be greater than the idle power (60 W <= 70 W)";
}

void TestAccelModel::badParameters()
{
    QFETCH(QString, json);
    QFETCH(QString, message);
    const auto params = nlohmann::json::parse(json.toStdString());
    auto model = modelFromJson(params, "model", "test.json");
    QVERIFY(!model);
    QCOMPARE(QString::fromStdString(model.error().toString()), message);
}

void TestAccelModel::predictionAtAnOfferedLoad()
{
    // At 60% of a batch's capacity the device is busy 60% of the time: throughput is the
    // offered load, power idle + 0.6 (P(b) - idle), energy = that power / throughput.
    const Model model = makeModel({{"accelerator", "a100-sxm-80gb"}, {"workload", "resnet50"}});
    const auto full = model.predict(16);
    const double idle = model.params().accelerator.powerIdleW;
    const auto at = model.predictAtLoad(16, 0.6 * full.throughputPerS);
    QVERIFY(std::abs(at.throughputPerS - 0.6 * full.throughputPerS) < 1e-9 * full.throughputPerS);
    QVERIFY(std::abs(at.powerW - (idle + 0.6 * (full.powerW - idle))) < 1e-9 * full.powerW);
    QVERIFY(std::abs(at.energyPerInferenceJ - at.powerW / at.throughputPerS) < 1e-15);
    QCOMPARE(at.serviceS, full.serviceS);
    // Above capacity the device saturates: the prediction at saturation.
    const auto over = model.predictAtLoad(16, 2.0 * full.throughputPerS);
    QCOMPARE(over.throughputPerS, full.throughputPerS);
    QCOMPARE(over.powerW, full.powerW);
}

QTEST_APPLESS_MAIN(TestAccelModel)
#include "tst_accelmodel.moc"
