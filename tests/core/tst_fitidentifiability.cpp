// Honest fitting (issue 17): the identifiability report says which parameters a sweep cannot
// pin (an ill-conditioned normal matrix, or a relative standard error above 100%), holds each
// at its prior (the preset's value, else the fit's starting value), fits the rest again and
// says why, with the figure, and where the value came from. The memory-activity factor κ of
// the power model is fitted when the power readings pin it and kept at the preset's otherwise.
#include "accel/calibration.h"
#include "accel/fitreport.h"
#include "accel/levenbergmarquardt.h"
#include "accel/model.h"
#include "accel/presetlibrary.h"
#include "accelfittesthelpers.h"
#include "io/readdataset.h"
#include "testsupport.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <random>

using namespace bs;
using namespace bs::accel;

namespace {

using bs::test::a100;
using bs::test::Noise;
using bs::test::paramsFor;

/// The time terms of bs::test::TimeTruth with power at κ = 0.35 (the preset assumes 0.6).
struct Truth : bs::test::TimeTruth
{
    Truth() { memoryActivity = 0.35; }
};

/// A sweep measured on `truth` at `batches` with multiplicative noise `sigma` on time and power.
data::SweepTable synthesize(const ModelParams& truth, const std::vector<int>& batches, double sigma,
                            std::uint64_t seed, bool withPower)
{
    const Model model = *Model::create(truth);
    Noise noise(seed);
    data::SweepTable table;
    table.name = "synthetic";
    for (int b : batches) {
        const Prediction p = model.predict(b);
        data::SweepPoint point;
        point.batchSize = b;
        point.concurrency = 1.0;
        point.latencyMeanS = p.serviceS * (1.0 + sigma * noise.normal());
        const double powerNoise = sigma * noise.normal();
        if (withPower)
            point.powerW = p.powerW * (1.0 + powerNoise);
        table.points.push_back(point);
    }
    return table;
}

std::vector<int> powersOfTwo(int from, int to)
{
    std::vector<int> out;
    for (int b = from; b <= to; b *= 2)
        out.push_back(b);
    return out;
}

const FittedParameter* find(const FitResult& r, const std::string& name)
{
    for (const auto& p : r.parameters) {
        if (p.name == name)
            return &p;
    }
    return nullptr;
}

const IdentifiabilityFinding* finding(const FitResult& r, const std::string& name)
{
    for (const auto& f : r.identifiability.findings) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

void printReport(const char* title, const FitResult& fit)
{
    qInfo("%s", title);
    for (const auto& p : fit.parameters)
        qInfo("  %-22s %-14s ± %-12s%s", p.name.c_str(),
              parameterValueText(p.value, p.unit).c_str(),
              parameterValueText(p.uncertainty, p.unit).c_str(), p.fixed ? " fixed" : "");
    qInfo("  R² = %.5f, max |relative residual| %.1f%%", fit.rSquared,
          100.0 * fit.maxRelativeResidual);
    for (const auto& line : identifiabilityLines(fit))
        qInfo("%s", line.c_str());
}

bool anyNoteContains(const FitResult& fit, const std::string& text)
{
    for (const auto& n : fit.notes) {
        if (n.find(text) != std::string::npos)
            return true;
    }
    return false;
}

/// The fit is usable: finite values and predictions, every free parameter off its bound has a
/// finite σ, no "singular" note, prediction intervals available.
void verifyHonest(const FitResult& fit)
{
    QVERIFY2(!anyNoteContains(fit, "singular"), "a singular normal matrix is left");
    QVERIFY2(fit.uncertainty.available, fit.uncertainty.reason.c_str());
    QVERIFY(std::isfinite(fit.rSquared));
    QVERIFY(fit.identifiability.conditionNumber <= fit.identifiability.maxConditionNumber);
    for (const auto& p : fit.parameters) {
        if (p.fixed) {
            QVERIFY2(std::isnan(p.uncertainty), p.name.c_str());
            continue;
        }
        QVERIFY2(std::isfinite(p.value), p.name.c_str());
        if (!p.atBound)
            QVERIFY2(std::isfinite(p.uncertainty), p.name.c_str());
    }
    const auto prediction = predictService(fit, 64);
    QVERIFY(prediction.hasInterval && std::isfinite(prediction.lowS) &&
            std::isfinite(prediction.highS));
}

} // namespace

class TestFitIdentifiability : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void symmetricEigenOfAKnownMatrix();
    void syntheticSweepRecoversEveryParameterAndActivity();
    void knownWorkloadRecoversActivity();
    void memoryBoundSweepHoldsComputeEfficiencyAtPrior();
    void computeBoundSweepHoldsMemoryEfficiencyAtPrior();
    void memoryBoundSweepConfoundsHostAndWeightRead();
    void aPriorTheDataRejectIsKeptFitted();
    void jsonHasAnIdentifiabilitySection();
    void realSweepsReport();
};

void TestFitIdentifiability::symmetricEigenOfAKnownMatrix()
{
    // [[2, 1], [1, 2]]: eigenvalues 1 and 3, eigenvectors (1, −1)/√2 and (1, 1)/√2.
    const auto e = symmetricEigen({2.0, 1.0, 1.0, 2.0}, 2);
    QVERIFY(std::abs(e.values[0] - 1.0) < 1e-12 && std::abs(e.values[1] - 3.0) < 1e-12);
    QVERIFY(std::abs(std::abs(e.vectors[0 * 2 + 0]) - M_SQRT1_2) < 1e-12);
    QVERIFY(std::abs(e.vectors[0 * 2 + 0] + e.vectors[1 * 2 + 0]) < 1e-12);
    // Two parameters correlated ρ: condition number (1 + ρ)/(1 − ρ) of the scaled matrix.
    const double rho = 0.99;
    const std::vector<double> jacobian = {1.0, rho, 0.0, std::sqrt(1.0 - rho * rho)};
    const auto a = analyseNormalMatrix(jacobian, 2, 2, {true, true}, 1.0);
    QVERIFY2(std::abs(a.conditionNumber - (1 + rho) / (1 - rho)) < 1e-6,
             std::to_string(a.conditionNumber).c_str());
    QVERIFY(std::abs(a.correlation[1] + rho) < 1e-9); // ρ of the estimates is −ρ of the columns
    // A column no residual depends on: singular, and it is the weakest direction.
    const auto z = analyseNormalMatrix({1.0, 0.0, 2.0, 0.0}, 2, 2, {true, true}, 1.0);
    QVERIFY(std::isinf(z.conditionNumber));
    QCOMPARE(z.weakest[1], 1.0);
}

void TestFitIdentifiability::syntheticSweepRecoversEveryParameterAndActivity()
{
    // 0.5% noise on time and power, batch 1…1024 across the crossover: every parameter,
    // κ included, pinned and within 3σ of the truth; κ found at 0.35 although the preset's
    // prior is 0.6.
    const Truth truth;
    const std::map<std::string, double> values = {
        {"host_overhead_s", truth.hostS},    {"compute_s_per_item", truth.computeSPerItem},
        {"weight_read_s", truth.weightS},    {"activation_s_per_item", truth.activationSPerItem},
        {"smooth_max_p", truth.p},           {"power_idle_w", truth.idleW},
        {"power_dynamic_w", truth.dynamicW}, {"memory_activity", truth.memoryActivity}};
    const auto sweep = synthesize(paramsFor(truth), powersOfTwo(1, 1024), 0.005, 11, true);
    FitOptions options;
    options.start = a100(Precision::Fp16);
    auto fit = fitToSweep(sweep, options);
    QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
    printReport("synthetic sweep, workload unknown, power with kappa = 0.35:", *fit);
    QVERIFY2(fit->identifiability.findings.empty(), identifiabilityLines(*fit)[1].c_str());
    QCOMPARE(fit->parameters.size(), values.size());
    for (const auto& [name, value] : values) {
        const auto* p = find(*fit, name);
        QVERIFY2(p && !p->fixed && std::isfinite(p->uncertainty), name.c_str());
        const double z = (p->value - value) / p->uncertainty;
        QVERIFY2(std::abs(z) <= 3.0, (name + " z = " + std::to_string(z)).c_str());
    }
    // κ is where the truth put it, and the preset's 0.6 is far outside its error bar.
    const auto* kappa = find(*fit, "memory_activity");
    QVERIFY2(std::abs(kappa->value - 0.6) > 5.0 * kappa->uncertainty,
             std::to_string(kappa->value).c_str());
    QVERIFY(*fit->params.memoryActivity == kappa->value);
    QVERIFY(toJson(fit->params).at("memory_activity") == kappa->value);
    verifyHonest(*fit);
    const auto lines = identifiabilityLines(*fit);
    QVERIFY(lines.front().rfind("Identifiability: every free parameter is pinned by the sweep "
                                "(condition number ",
                                0) == 0);
}

void TestFitIdentifiability::knownWorkloadRecoversActivity()
{
    // linear-4096 on an A100 at bf16 (b* ≈ 118) with power: η_c, η_m, host, p and κ = 0.45.
    ModelParams truth = a100(Precision::Bf16);
    truth.workload = *PresetLibrary::builtIn().workload("linear-4096");
    truth.etaCompute = 0.55;
    truth.etaMemory = 0.75;
    truth.hostOverheadS = 20e-6;
    truth.smoothMaxP = 4.0;
    truth.powerIdleW = 70.0;
    truth.powerMaxW = 380.0;
    truth.memoryActivity = 0.45;
    const auto sweep = synthesize(truth, powersOfTwo(1, 8192), 0.005, 5, true);
    FitOptions options;
    options.start = a100(Precision::Bf16);
    options.start.workload = truth.workload;
    options.workloadKnown = true;
    auto fit = fitToSweep(sweep, options);
    QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
    printReport("linear-4096 with power, kappa = 0.45:", *fit);
    const std::map<std::string, double> values = {
        {"host_overhead_s", 20e-6}, {"eta_compute", 0.55},  {"eta_memory", 0.75},
        {"smooth_max_p", 4.0},      {"power_idle_w", 70.0}, {"power_dynamic_w", 310.0},
        {"memory_activity", 0.45}};
    for (const auto& [name, value] : values) {
        const auto* p = find(*fit, name);
        QVERIFY2(p && !p->fixed && std::isfinite(p->uncertainty), name.c_str());
        const double z = (p->value - value) / p->uncertainty;
        QVERIFY2(std::abs(z) <= 3.0, (name + " z = " + std::to_string(z)).c_str());
    }
    QVERIFY(std::abs(find(*fit, "memory_activity")->value - 0.45) <= 0.02);
    verifyHonest(*fit);
}

void TestFitIdentifiability::memoryBoundSweepHoldsComputeEfficiencyAtPrior()
{
    // linear-4096 measured only at batch 1…16, far below b* ≈ 118: the compute time never
    // shows, so η_c cannot be pinned and is held at the A100 preset's 0.7 (the smooth-max
    // exponent, which only matters near b*, at the model's hard max). The activation bytes
    // add 0.4% over the sweep, below its noise, so host overhead and η_m only show as the
    // intercept host + W/(BW·η_m): one of them is held too, and the intercept is fitted.
    ModelParams truth = a100(Precision::Bf16);
    truth.workload = *PresetLibrary::builtIn().workload("linear-4096");
    truth.etaCompute = 0.55;
    truth.etaMemory = 0.75;
    truth.hostOverheadS = 20e-6;
    truth.smoothMaxP = 4.0;
    const std::vector<int> batches = {1, 2, 3, 4, 6, 8, 12, 16};
    const auto sweep = synthesize(truth, batches, 0.005, 3, false);
    FitOptions options;
    options.start = a100(Precision::Bf16);
    options.start.workload = truth.workload;
    options.workloadKnown = true;

    FitOptions naive = options;
    naive.fixUnpinned = false;
    auto unchecked = fitToSweep(sweep, naive);
    QVERIFY(unchecked);
    qInfo("without the check: condition number %s",
          conditionText(unchecked->identifiability.initialConditionNumber).c_str());
    QVERIFY(unchecked->identifiability.initialConditionNumber > 1e8);

    auto fit = fitToSweep(sweep, options);
    QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
    printReport("linear-4096 at batch 1-16 only (memory-bound):", *fit);
    const auto* eta = find(*fit, "eta_compute");
    QVERIFY(eta && eta->fixed);
    QCOMPARE(eta->value, 0.7);
    QVERIFY(*fit->params.etaCompute == 0.7);
    const auto* f = finding(*fit, "eta_compute");
    QVERIFY(f && f->fixed);
    QCOMPARE(QString::fromStdString(f->priorSource),
             QStringLiteral("accelerator preset 'a100-sxm-80gb'"));
    QCOMPARE(QString::fromStdString(f->test), QStringLiteral("singular"));
    QVERIFY(find(*fit, "smooth_max_p")->fixed);
    QVERIFY(!find(*fit, "host_overhead_s")->fixed || !find(*fit, "eta_memory")->fixed);
    // What the sweep does pin, it reproduces.
    const Model truthModel = *Model::create(truth);
    const Model fitted = *Model::create(fit->params);
    for (int b : batches) {
        const double ratio = fitted.predict(b).serviceS / truthModel.predict(b).serviceS;
        QVERIFY2(std::abs(ratio - 1.0) < 0.01, std::to_string(b).c_str());
    }
    verifyHonest(*fit);
    bool said = false;
    for (const auto& line : identifiabilityLines(*fit))
        said = said || line.rfind("  fixed  eta_compute = 0.7 (accelerator preset "
                                  "'a100-sxm-80gb'): no measurement depends on it",
                                  0) == 0;
    QVERIFY(said);
}

/// linear-4096 on an A100 at bf16, measured with power at five batch sizes, all compute-bound
/// (512…8192 against b* ≈ 118).
data::SweepTable computeBoundSweepWithPower(ModelParams& truth)
{
    truth = a100(Precision::Bf16);
    truth.workload = *PresetLibrary::builtIn().workload("linear-4096");
    truth.etaCompute = 0.55;
    truth.etaMemory = 0.75;
    truth.hostOverheadS = 20e-6;
    truth.powerIdleW = 70.0;
    truth.powerMaxW = 380.0;
    truth.memoryActivity = 0.45;
    return synthesize(truth, powersOfTwo(512, 8192), 0.005, 9, true);
}

void TestFitIdentifiability::computeBoundSweepHoldsMemoryEfficiencyAtPrior()
{
    // The weights' read hides behind the math, so η_m is held at the preset's 0.85; and a
    // sweep that never runs memory-bound cannot say what power memory-bound kernels draw: κ
    // is held at the preset's 0.6. η_c, host overhead and the power range are fitted.
    ModelParams truth;
    const auto sweep = computeBoundSweepWithPower(truth);
    FitOptions options;
    options.start = a100(Precision::Bf16);
    options.start.workload = truth.workload;
    options.workloadKnown = true;
    options.fitSmoothMax = false;
    auto fit = fitToSweep(sweep, options);
    QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
    printReport("linear-4096 at batch 512-8192 only (compute-bound), hard max, power:", *fit);
    const auto* eta = find(*fit, "eta_memory");
    QVERIFY(eta && eta->fixed);
    QCOMPARE(eta->value, 0.85);
    const auto* kappa = find(*fit, "memory_activity");
    QVERIFY(kappa && kappa->fixed);
    QCOMPARE(kappa->value, 0.6);
    const auto* fk = finding(*fit, "memory_activity");
    QVERIFY(fk && fk->fixed);
    QCOMPARE(QString::fromStdString(fk->priorSource),
             QStringLiteral("accelerator preset 'a100-sxm-80gb', where it is an assumption"));
    QCOMPARE(QString::fromStdString(fk->reason),
             QStringLiteral("no measurement depends on it (the normal matrix is singular)"));
    QVERIFY(!find(*fit, "eta_compute")->fixed);
    QVERIFY(std::abs(find(*fit, "eta_compute")->value / 0.55 - 1.0) < 0.02);
    QVERIFY(std::abs(find(*fit, "power_idle_w")->value / 70.0 - 1.0) < 0.1);
    verifyHonest(*fit);
}

void TestFitIdentifiability::memoryBoundSweepConfoundsHostAndWeightRead()
{
    // Workload unknown, batch 1…24 only, all memory-bound: t = host + weight read +
    // activation·b, so host overhead and weight read only show as their sum. The weight read
    // is held at the fit's starting value (no preset names it) and the rest fitted; the sum
    // and the activation time per item are what the sweep pins.
    Truth truth;
    truth.computeSPerItem = 2e-6; // below the activation time: never compute-bound
    const auto sweep =
        synthesize(paramsFor(truth), {1, 2, 3, 4, 6, 8, 12, 16, 24}, 0.003, 21, false);
    FitOptions options;
    options.start = a100(Precision::Fp16);
    auto fit = fitToSweep(sweep, options);
    QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
    printReport("workload unknown, batch 1-24 only (memory-bound):", *fit);
    const auto* weight = find(*fit, "weight_read_s");
    QVERIFY(weight && weight->fixed);
    const auto* fw = finding(*fit, "weight_read_s");
    QVERIFY(fw && fw->fixed);
    QCOMPARE(QString::fromStdString(fw->priorSource),
             QStringLiteral("the fit's starting value from the sweep's shape; no workload preset "
                            "named"));
    QVERIFY2(fw->reason.find("host_overhead_s") != std::string::npos, fw->reason.c_str());
    QVERIFY(!find(*fit, "host_overhead_s")->fixed);
    const double sum = find(*fit, "host_overhead_s")->value + weight->value;
    QVERIFY2(std::abs(sum / (truth.hostS + truth.weightS) - 1.0) < 0.02,
             std::to_string(sum).c_str());
    QVERIFY(std::abs(find(*fit, "activation_s_per_item")->value / truth.activationSPerItem - 1.0) <
            0.05);
    verifyHonest(*fit);
}

void TestFitIdentifiability::aPriorTheDataRejectIsKeptFitted()
{
    // A host overhead of 0.1 µs, below what 0.5% noise on a 42 µs batch resolves (σ about
    // 0.15 µs: a relative standard error above 100%), while the host_overhead_us given as the
    // prior is 50 µs: the data do reject that, so the parameter stays fitted and the report
    // says so, with the F test's figures.
    ModelParams truth = a100(Precision::Bf16);
    truth.workload = *PresetLibrary::builtIn().workload("linear-4096");
    truth.etaCompute = 0.55;
    truth.etaMemory = 0.75;
    truth.hostOverheadS = 0.1e-6;
    const auto sweep = synthesize(truth, powersOfTwo(1, 8192), 0.005, 12, false);
    FitOptions options;
    options.start = a100(Precision::Bf16);
    options.start.workload = truth.workload;
    options.start.hostOverheadS = 50e-6;
    options.workloadKnown = true;
    options.fitSmoothMax = false;
    auto fit = fitToSweep(sweep, options);
    QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
    printReport("host overhead 0.1 us under 0.5% noise, prior 50 us given:", *fit);
    const auto* f = finding(*fit, "host_overhead_s");
    QVERIFY(f);
    QVERIFY(!f->fixed);
    QCOMPARE(QString::fromStdString(f->test), QStringLiteral("relative_se"));
    QVERIFY(f->figure > 1.0);
    QVERIFY(f->fStatistic > f->fCritical && f->fCritical > 3.0);
    QCOMPARE(QString::fromStdString(f->priorSource), QStringLiteral("the host_overhead_us given"));
    QVERIFY(!find(*fit, "host_overhead_s")->fixed);
    bool said = false;
    for (const auto& line : identifiabilityLines(*fit))
        said = said || (line.rfind("  kept   host_overhead_s = ", 0) == 0 &&
                        line.find("makes the fit significantly worse (F = ") != std::string::npos);
    QVERIFY(said);
    verifyHonest(*fit);
}

void TestFitIdentifiability::jsonHasAnIdentifiabilitySection()
{
    ModelParams truth;
    const auto sweep = computeBoundSweepWithPower(truth);
    FitOptions options;
    options.start = a100(Precision::Bf16);
    options.start.workload = truth.workload;
    options.workloadKnown = true;
    options.fitSmoothMax = false;
    auto fit = fitToSweep(sweep, options);
    QVERIFY(fit);
    const auto json = toJson(*fit);
    QVERIFY(json.contains("identifiability"));
    const auto& id = json.at("identifiability");
    QCOMPARE(id.at("max_condition_number").get<double>(), 1e8);
    QCOMPARE(id.at("max_relative_standard_error").get<double>(), 1.0);
    QVERIFY(id.at("initially_singular").get<bool>() ||
            id.at("initial_condition_number").get<double>() > 1e8);
    QVERIFY(!id.at("singular").get<bool>());
    QVERIFY(!id.at("fixed").empty());
    bool kappa = false;
    for (const auto& f : id.at("fixed")) {
        for (const char* key : {"name", "test", "reason", "prior", "prior_source", "figure"})
            QVERIFY2(f.contains(key), key);
        if (f.at("name") == "memory_activity") {
            kappa = true;
            QCOMPARE(f.at("prior").get<double>(), 0.6);
        }
    }
    QVERIFY(kappa);
    QVERIFY(!id.at("pinned").empty());
    QVERIFY(id.at("lines").size() >= 3);
    bool flagged = false;
    for (const auto& p : json.at("parameters"))
        flagged = flagged || (p.at("name") == "memory_activity" && p.at("fixed").get<bool>());
    QVERIFY(flagged);
}

void TestFitIdentifiability::realSweepsReport()
{
    BS_REQUIRE_SHARED_DATA(shared);
    // TFT on an A100 (TensorRT fp16, perf_analyzer offline, batch 1…1024): each of the five
    // runs, time terms fitted (the workload is no preset).
    const QString path = bs::test::tftOfflineSweepPath(shared);
    auto dataset = io::readDataset(path.toStdString());
    QVERIFY2(dataset, dataset ? "" : dataset.error().toString().c_str());
    const auto sweep = dataset->sweep();
    QVERIFY(sweep);
    // Runs 1 and 2 hold batch 1…1024 (runs 3-5 stopped at batch 1). Each fitted up to batch
    // 64, 128, 256 and 1024, with p fitted and with a hard max: sixteen fits, each with its
    // report.
    int fits = 0;
    int heldAtPrior = 0;
    for (int run : {1, 2}) {
        for (int maxBatch : {64, 128, 256, 1024}) {
            for (bool hardMax : {false, true}) {
                data::SweepTable part = *sweep;
                std::erase_if(part.points,
                              [&](const data::SweepPoint& p) { return p.batchSize > maxBatch; });
                FitOptions options;
                options.start = a100(Precision::Fp16);
                options.run = run;
                options.fitSmoothMax = !hardMax;
                options.path = path.toStdString();
                auto fit = fitToSweep(part, options);
                QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
                const std::string title = "TFT offline on an A100, run " + std::to_string(run) +
                                          ", batch <= " + std::to_string(maxBatch) +
                                          (hardMax ? ", hard max:" : ":");
                printReport(title.c_str(), *fit);
                verifyHonest(*fit);
                QVERIFY(fit->rSquared >= 0.9);
                // Every parameter left free is pinned to within 100%, or was tried at its
                // prior and the data rejected it.
                for (const auto& p : fit->parameters) {
                    if (p.fixed)
                        ++heldAtPrior;
                    if (p.fixed || p.atBound)
                        continue;
                    const auto* f = finding(*fit, p.name);
                    QVERIFY2(f || p.uncertainty <= std::abs(p.value), p.name.c_str());
                }
                ++fits;
            }
        }
    }
    qInfo("%d fits of the real sweep, %d parameters held at their prior", fits, heldAtPrior);
    QCOMPARE(fits, 16);
}

QTEST_APPLESS_MAIN(TestFitIdentifiability)
#include "tst_fitidentifiability.moc"
