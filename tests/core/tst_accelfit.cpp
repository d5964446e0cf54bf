#include "accel/calibration.h"
#include "accel/model.h"
#include "accel/presetlibrary.h"
#include "accelfittesthelpers.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QtTest>

#include <cmath>
#include <limits>
#include <map>
#include <random>

#if __has_include("io/readdataset.h")
#include "io/readdataset.h"
#define BS_HAVE_IMPORTER 1
#endif

using namespace bs;
using namespace bs::accel;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using bs::test::a100;
using bs::test::Noise;
using bs::test::paramsFor;
using bs::test::TimeTruth;

std::map<std::string, double> truthValues(const TimeTruth& t)
{
    return {{"host_overhead_s", t.hostS},   {"compute_s_per_item", t.computeSPerItem},
            {"weight_read_s", t.weightS},   {"activation_s_per_item", t.activationSPerItem},
            {"smooth_max_p", t.p},          {"power_idle_w", t.idleW},
            {"power_dynamic_w", t.dynamicW}};
}

/// A sweep measured on the model `truth` with multiplicative noise of `sigma`.
data::SweepTable synthesize(const ModelParams& truth, int maxBatch, double sigma,
                            std::uint64_t seed, bool withPower)
{
    const Model model = *Model::create(truth);
    Noise noise(seed);
    data::SweepTable table;
    table.name = "synthetic";
    for (int b = 1; b <= maxBatch; b *= 2) {
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

const FittedParameter* find(const FitResult& r, const std::string& name)
{
    for (const auto& p : r.parameters) {
        if (p.name == name)
            return &p;
    }
    return nullptr;
}

data::SweepTable sweepOf(std::initializer_list<std::pair<int, double>> rows)
{
    data::SweepTable table;
    for (const auto& [batch, latency] : rows) {
        data::SweepPoint p;
        p.batchSize = batch;
        p.latencyMeanS = latency;
        table.points.push_back(p);
    }
    return table;
}

QString outputDir()
{
    const QByteArray binary = qgetenv("BATCHSCOPE_BINARY_DIR");
    return binary.isEmpty() ? QDir::currentPath() : QString::fromLocal8Bit(binary);
}

} // namespace

class TestAccelFit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void exactDataIsRecoveredExactly();
    void syntheticSweepIsRecoveredWithinUncertainty();
    void knownWorkloadRecoversEfficiencies();
    void uncertaintiesAreCalibrated();
    void runsAreSplitAndChosen();
    void missingMechanismIsWarned();
    void badSweeps_data();
    void badSweeps();
    void tftSweepOnA100();
};

void TestAccelFit::exactDataIsRecoveredExactly()
{
    const TimeTruth truth;
    const auto sweep = synthesize(paramsFor(truth), 1024, 0.0, 1, true);
    FitOptions options;
    options.start = a100(Precision::Fp16);
    auto fit = fitToSweep(sweep, options);
    QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
    for (const auto& [name, value] : truthValues(truth)) {
        const auto* p = find(*fit, name);
        QVERIFY2(p, name.c_str());
        QVERIFY2(std::abs(p->value - value) <= 1e-6 * value,
                 (name + " = " + std::to_string(p->value)).c_str());
    }
    QVERIFY(fit->rSquared > 1.0 - 1e-12);
    QVERIFY2(fit->warnings.empty(), fit->warnings.empty() ? "" : fit->warnings.front().c_str());
    // b* = τ_w/(τ_c − τ_a) = 0.5e-3/(16e-6) = 31.25
    QVERIFY(std::abs(fit->crossoverBatch - 31.25) < 1e-4);
    // The calibrated parameters are a model of their own, with the same predictions.
    const Model refit = *Model::create(fit->params);
    const Model truthModel = *Model::create(paramsFor(truth));
    QVERIFY(std::abs(refit.predict(100).serviceS / truthModel.predict(100).serviceS - 1) < 1e-6);
}

void TestAccelFit::syntheticSweepIsRecoveredWithinUncertainty()
{
    // 1% noise on time and power, 11 batch sizes: every parameter within 3σ of the truth.
    const TimeTruth truth;
    const auto sweep = synthesize(paramsFor(truth), 1024, 0.01, 20240607, true);
    FitOptions options;
    options.start = a100(Precision::Fp16);
    auto fit = fitToSweep(sweep, options);
    QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
    QVERIFY(fit->converged);
    for (const auto& [name, value] : truthValues(truth)) {
        const auto* p = find(*fit, name);
        QVERIFY2(p && std::isfinite(p->uncertainty) && p->uncertainty > 0.0, name.c_str());
        const double z = (p->value - value) / p->uncertainty;
        qInfo("%-22s fitted %.6g ± %.3g, truth %.6g, z = %+.2f", name.c_str(), p->value,
              p->uncertainty, value, z);
        QVERIFY2(std::abs(z) <= 3.0, name.c_str());
    }
    QVERIFY(fit->rSquared > 0.999);
    QVERIFY(fit->rSquaredPower && *fit->rSquaredPower > 0.9);
    QVERIFY2(fit->warnings.empty(), fit->warnings.empty() ? "" : fit->warnings.front().c_str());
}

void TestAccelFit::knownWorkloadRecoversEfficiencies()
{
    // linear-4096 on an A100 at bf16 with η_c 0.55, η_m 0.75, 20 µs host, p = 4: the
    // crossover (≈118) lies inside 1…8192, so both efficiencies are determined.
    ModelParams truth = a100(Precision::Bf16);
    truth.workload = *PresetLibrary::builtIn().workload("linear-4096");
    truth.etaCompute = 0.55;
    truth.etaMemory = 0.75;
    truth.hostOverheadS = 20e-6;
    truth.smoothMaxP = 4.0;
    const auto sweep = synthesize(truth, 8192, 0.01, 77, false);
    FitOptions options;
    options.start = a100(Precision::Bf16);
    options.start.workload = truth.workload;
    options.workloadKnown = true;
    auto fit = fitToSweep(sweep, options);
    QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
    const std::map<std::string, double> expected = {{"host_overhead_s", 20e-6},
                                                    {"eta_compute", 0.55},
                                                    {"eta_memory", 0.75},
                                                    {"smooth_max_p", 4.0}};
    QCOMPARE(fit->parameters.size(), expected.size());
    for (const auto& [name, value] : expected) {
        const auto* p = find(*fit, name);
        QVERIFY2(p && std::isfinite(p->uncertainty), name.c_str());
        const double z = (p->value - value) / p->uncertainty;
        qInfo("%-16s fitted %.6g ± %.3g, truth %.6g, z = %+.2f", name.c_str(), p->value,
              p->uncertainty, value, z);
        QVERIFY2(std::abs(z) <= 3.0, name.c_str());
    }
    QVERIFY(*fit->params.etaCompute == find(*fit, "eta_compute")->value);
    QVERIFY(toJson(fit->params).at("workload") == "linear-4096");
}

void TestAccelFit::uncertaintiesAreCalibrated()
{
    // 300 synthetic sweeps with 0.5% noise: the share of fits within 1σ (2σ) of the truth should
    // be near the nominal 68% (95%); with 6 residual degrees of freedom a t-distribution gives
    // about 64% (91%). A fit that ends on a bound (the activation time at 0, in 20 of these 300
    // sweeps) has no σ and counts as outside. With 2% noise the small activation term is no
    // longer near-Gaussian (about half the fits end on its bound): 0.5% is the regime where
    // the linearised covariance is meant to hold. Deterministic seeds, fixed shares.
    const TimeTruth truth;
    const auto values = truthValues(truth);
    std::map<std::string, int> within1, within2;
    int atBound = 0;
    const int sweeps = 300;
    for (int seed = 1; seed <= sweeps; ++seed) {
        const auto sweep = synthesize(paramsFor(truth), 1024, 0.005, std::uint64_t(seed), false);
        FitOptions options;
        options.start = a100(Precision::Fp16);
        // The calibration of σ is a property of the free fit; the identifiability check, which
        // holds a weakly pinned term at its prior (tst_fitidentifiability), is left out here.
        options.fixUnpinned = false;
        auto fit = fitToSweep(sweep, options);
        QVERIFY(fit);
        for (const auto& p : fit->parameters) {
            const double z = std::abs(p.value - values.at(p.name)) / p.uncertainty;
            within1[p.name] += z <= 1.0 ? 1 : 0;
            within2[p.name] += z <= 2.0 ? 1 : 0;
            atBound += p.atBound ? 1 : 0;
        }
    }
    for (const auto& [name, count] : within1) {
        const double share1 = double(count) / sweeps;
        const double share2 = double(within2[name]) / sweeps;
        qInfo("%-22s within 1σ: %.0f%%, within 2σ: %.0f%%", name.c_str(), 100 * share1,
              100 * share2);
    }
    QVERIFY2(atBound <= sweeps / 10, std::to_string(atBound).c_str());
    for (const auto& [name, count] : within1) {
        const double share1 = double(count) / sweeps;
        const double share2 = double(within2[name]) / sweeps;
        QVERIFY2(share1 >= 0.5 && share1 <= 0.85, name.c_str());
        QVERIFY2(share2 >= 0.82, name.c_str());
    }
}

void TestAccelFit::runsAreSplitAndChosen()
{
    const TimeTruth truth;
    auto first = synthesize(paramsFor(truth), 1024, 0.0, 1, false);
    TimeTruth other = truth;
    other.hostS = 2e-3;
    const auto second = synthesize(paramsFor(other), 256, 0.0, 1, false);
    // Without series labels a fall back to the first batch size starts a run.
    data::SweepTable table = first;
    for (const auto& point : second.points)
        table.points.push_back(point);
    FitOptions options;
    options.start = a100(Precision::Fp16);
    auto fit = fitToSweep(table, options);
    QVERIFY(fit);
    QCOMPARE(fit->selection.runCount, 2);
    QCOMPARE(fit->selection.run, 1); // the run with most batch sizes
    QCOMPARE(fit->selection.firstRow, std::size_t(1));
    QCOMPARE(fit->selection.lastRow, std::size_t(11));
    QVERIFY(std::abs(find(*fit, "host_overhead_s")->value - 1e-3) < 1e-9);
    QCOMPARE(QString::fromStdString(fit->notes.front()),
             QStringLiteral("the sweep holds 2 runs; fitted run 1 (rows 1-11)"));
    options.run = 2;
    fit = fitToSweep(table, options);
    QVERIFY(fit);
    QCOMPARE(fit->selection.firstRow, std::size_t(12));
    QVERIFY(std::abs(find(*fit, "host_overhead_s")->value - 2e-3) < 1e-8);
    // Series labels from a reader mark runs too.
    for (std::size_t i = 0; i < table.points.size(); ++i)
        table.points[i].series = i < 11 ? "run 1" : "run 2";
    fit = fitToSweep(table, options);
    QVERIFY(fit);
    QCOMPARE(QString::fromStdString(fit->notes.front()),
             QStringLiteral("the sweep holds 2 runs; fitted run 2 'run 2' (rows 12-20)"));
}

void TestAccelFit::missingMechanismIsWarned()
{
    // A step the model cannot make: from batch 64 on, 40% extra time (say, a second kernel
    // variant kicks in). The fit must say the model does not explain the sweep.
    const TimeTruth truth;
    auto sweep = synthesize(paramsFor(truth), 1024, 0.0, 1, false);
    for (auto& point : sweep.points) {
        if (point.batchSize >= 64)
            *point.latencyMeanS *= 1.4;
    }
    FitOptions options;
    options.start = a100(Precision::Fp16);
    auto fit = fitToSweep(sweep, options);
    QVERIFY(fit);
    QVERIFY(fit->maxRelativeResidual > 0.10);
    QVERIFY(!fit->warnings.empty());
    QVERIFY2(fit->warnings.front().rfind("the model does not explain this sweep: at batch ", 0) ==
                 0,
             fit->warnings.front().c_str());
}

void TestAccelFit::badSweeps_data()
{
    QTest::addColumn<int>("caseId");
    QTest::addColumn<QString>("message");
    QTest::newRow("one point") << 0
                               << QStringLiteral("sweep.csv: sweep: 1 point at 1 batch size; a "
                                                 "fit needs at least 3 different batch sizes");
    QTest::newRow("non-monotone batch column")
        << 1
        << QStringLiteral("sweep.csv: sweep row 4: batch size 4 follows 8; the batch column must "
                          "increase within a run (a new run starts with a new series or a fall "
                          "back to the first batch size, 1)");
    QTest::newRow("NaN latency") << 2
                                 << QStringLiteral("sweep.csv: sweep row 3 (batch 4): mean latency "
                                                   "must be a finite positive number (got nan)");
    QTest::newRow("negative latency")
        << 3
        << QStringLiteral("sweep.csv: sweep row 2 (batch 2): mean latency must be a finite "
                          "positive number (got -0.001)");
    QTest::newRow("missing latency")
        << 4 << QStringLiteral("sweep.csv: sweep row 2 (batch 2): no mean latency");
    QTest::newRow("too few points for the parameters")
        << 5
        << QStringLiteral("sweep.csv: sweep: 4 points for 5 free timing parameters; measure "
                          "more batch sizes, name the workload, or keep the smooth-max exponent "
                          "fixed");
    QTest::newRow("empty") << 6
                           << QStringLiteral(
                                  "sweep.csv: sweep: no rows; a fit needs measured batch sizes");
    QTest::newRow("NaN power") << 7
                               << QStringLiteral("sweep.csv: sweep row 2 (batch 2): power must be "
                                                 "a finite positive number (got nan)");
    QTest::newRow("run out of range")
        << 8 << QStringLiteral("sweep.csv: sweep: run 3 requested but the table has 1 run(s)");
    QTest::newRow("precision the device lacks")
        << 9
        << QStringLiteral("sweep.csv: fit.precision: accelerator 't4' has no peak for bf16 (it "
                          "has: fp32, fp16, int8)");
}

void TestAccelFit::badSweeps()
{
    QFETCH(int, caseId);
    QFETCH(QString, message);
    FitOptions options;
    options.path = "sweep.csv";
    data::SweepTable table;
    switch (caseId) {
    case 0:
        table = sweepOf({{1, 1e-3}});
        break;
    case 1:
        table = sweepOf({{1, 1e-3}, {2, 1e-3}, {8, 2e-3}, {4, 2e-3}, {16, 3e-3}});
        break;
    case 2:
        table = sweepOf({{1, 1e-3}, {2, 1e-3}, {4, kNaN}, {8, 2e-3}});
        break;
    case 3:
        table = sweepOf({{1, 1e-3}, {2, -1e-3}, {4, 1e-3}, {8, 2e-3}});
        break;
    case 4:
        table = sweepOf({{1, 1e-3}, {2, 1e-3}, {4, 1e-3}, {8, 2e-3}});
        table.points[1].latencyMeanS.reset();
        break;
    case 5:
        table = sweepOf({{1, 1e-3}, {2, 1e-3}, {4, 1e-3}, {8, 2e-3}});
        break;
    case 6:
        break;
    case 7:
        table = sweepOf({{1, 1e-3}, {2, 1e-3}, {4, 1e-3}, {8, 2e-3}});
        for (auto& p : table.points)
            p.powerW = 100.0;
        table.points[1].powerW = kNaN;
        break;
    case 8:
        table = sweepOf({{1, 1e-3}, {2, 1e-3}, {4, 1e-3}, {8, 2e-3}});
        options.run = 3;
        break;
    case 9:
        table = sweepOf({{1, 1e-3}, {2, 1e-3}, {4, 1e-3}, {8, 2e-3}});
        options.start.accelerator = *PresetLibrary::builtIn().accelerator("t4");
        break;
    default:
        QFAIL("unknown case");
    }
    auto fit = fitToSweep(table, options);
    QVERIFY(!fit);
    QCOMPARE(QString::fromStdString(fit.error().toString()), message);
}

void TestAccelFit::tftSweepOnA100()
{
#ifndef BS_HAVE_IMPORTER
    QSKIP("io/readdataset.h is not in this tree yet: the TFT fit was NOT checked");
#else
    BS_REQUIRE_SHARED_DATA(shared);
    const QString path = bs::test::tftOfflineSweepPath(shared);
    auto dataset = io::readDataset(path.toStdString());
    QVERIFY2(dataset, dataset ? "" : dataset.error().toString().c_str());
    const auto sweep = dataset->sweep();
    QVERIFY(sweep);

    // TensorRT fp16 engine on an A100 (runner.log: --target-precisions fp16); the TFT workload
    // is not a preset, so its time terms are fitted.
    FitOptions options;
    options.start = a100(Precision::Fp16);
    options.path = path.toStdString();
    auto fit = fitToSweep(*sweep, options);
    QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());

    const QString csvPath = outputDir() + QStringLiteral("/accel_tft_fit.csv");
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::WriteOnly | QIODevice::Truncate));
    csv.write("batch,measured_ms,fitted_ms,residual_ms,relative_residual\n");
    qInfo("TFT on A100, run %d of %d (rows %zu-%zu), service time from %s", fit->selection.run,
          fit->selection.runCount, fit->selection.firstRow, fit->selection.lastRow,
          serviceTimeSourceName(fit->selection.source));
    qInfo("%6s %12s %12s %12s %9s", "batch", "measured ms", "fitted ms", "residual ms", "rel");
    for (const auto& p : fit->points) {
        const QByteArray line = QByteArray::number(p.batch) + ',' +
                                QByteArray::number(p.measuredS * 1e3, 'g', 8) + ',' +
                                QByteArray::number(p.fittedS * 1e3, 'g', 8) + ',' +
                                QByteArray::number(p.residualS * 1e3, 'g', 8) + ',' +
                                QByteArray::number(p.relativeResidual, 'g', 6) + '\n';
        csv.write(line);
        qInfo("%6d %12.4f %12.4f %12.4f %+8.2f%%", p.batch, p.measuredS * 1e3, p.fittedS * 1e3,
              p.residualS * 1e3, 100 * p.relativeResidual);
    }
    csv.write("# r_squared," + QByteArray::number(fit->rSquared, 'g', 8) + '\n');
    for (const auto& p : fit->parameters) {
        qInfo("%-22s %.6g ± %.3g %s", p.name.c_str(), p.value, p.uncertainty, p.unit.c_str());
        csv.write("# " + QByteArray::fromStdString(p.name) + ',' +
                  QByteArray::number(p.value, 'g', 8) + ',' +
                  QByteArray::number(p.uncertainty, 'g', 4) + '\n');
    }
    qInfo("R² = %.6f, max |relative residual| = %.2f%%, crossover b* = %.1f", fit->rSquared,
          100 * fit->maxRelativeResidual, fit->crossoverBatch);
    for (const auto& w : fit->warnings)
        qInfo("warning: %s", w.c_str());
    qInfo("fitted curve and residuals written to %s", qPrintable(csvPath));

    QCOMPARE(fit->selection.run, 1);
    QCOMPARE(fit->points.size(), std::size_t(11));
    QCOMPARE(fit->points.front().batch, 1);
    QCOMPARE(fit->points.back().batch, 1024);
    // The fit is good when it explains 99.5% of the variance and misses no batch size by more
    // than 10% (the threshold at which fitToSweep itself warns).
    QVERIFY2(fit->rSquared >= 0.995, std::to_string(fit->rSquared).c_str());
    QVERIFY2(fit->maxRelativeResidual <= 0.10, std::to_string(fit->maxRelativeResidual).c_str());
    QVERIFY(fit->converged);
#endif
}

QTEST_APPLESS_MAIN(TestAccelFit)
#include "tst_accelfit.moc"
