// Does a fit predict what it was not given (issue 17)? Each run of the real TFT perf_analyzer
// sweep (A100, batch 1..1024) is fitted on batch <= a quarter of its range and asked for the
// rest; the predictions must be close and their 90% prediction intervals honest. Also: the
// interval widens outside the fitted range and the prediction says it extrapolates.
#include "accel/calibration.h"
#include "accel/presetlibrary.h"
#include "accelfittesthelpers.h"
#include "io/readdataset.h"
#include "testsupport.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace bs;
using namespace bs::accel;

namespace {

/// The rows of run `series` with batch <= maxBatch (all rows when maxBatch is 0).
data::SweepTable runRows(const data::SweepTable& sweep, const std::string& series, int maxBatch)
{
    data::SweepTable out = sweep;
    out.points.clear();
    for (const auto& p : sweep.points)
        if (p.series == series && (maxBatch == 0 || p.batchSize <= maxBatch))
            out.points.push_back(p);
    return out;
}

double measuredServiceS(const data::SweepPoint& p)
{
    return p.latencyMeanS ? *p.latencyMeanS : double(p.batchSize) / *p.throughputPerS;
}

} // namespace

class TestFitExtrapolation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tftQuarterRangePredictsTheRest()
    {
        BS_REQUIRE_SHARED_DATA(shared);
        const QString path = bs::test::tftOfflineSweepPath(shared);
        auto dataset = io::readDataset(path.toStdString());
        QVERIFY2(dataset, dataset ? "" : dataset.error().toString().c_str());
        const auto sweep = dataset->sweep();
        QVERIFY(sweep);
        std::vector<std::string> runs;
        for (const auto& p : sweep->points)
            if (std::find(runs.begin(), runs.end(), p.series) == runs.end())
                runs.push_back(p.series);
        QCOMPARE(runs.size(), std::size_t(5));

        auto a100 = PresetLibrary::builtIn().accelerator("a100-sxm-80gb");
        QVERIFY(a100);
        std::vector<double> errors;
        int inside = 0;
        for (const auto& run : runs) {
            const data::SweepTable all = runRows(*sweep, run, 0);
            int largest = 0;
            for (const auto& p : all.points)
                largest = std::max(largest, p.batchSize);
            // Runs 3 to 5 of this file measured batch 1 only: nothing to extrapolate from.
            if (all.points.size() < 6) {
                qInfo("%s: %zu batch size(s), not a sweep; skipped", run.c_str(),
                      all.points.size());
                continue;
            }
            FitOptions options;
            options.start.accelerator = *a100;
            options.start.precision = Precision::Fp16;
            options.path = path.toStdString();
            auto fit = fitToSweep(runRows(*sweep, run, largest / 4), options);
            QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
            QVERIFY(fit->uncertainty.available);
            for (const auto& p : all.points) {
                if (p.batchSize <= largest / 4)
                    continue;
                const ServicePrediction predicted = predictService(*fit, p.batchSize);
                QVERIFY(predicted.extrapolated);
                QVERIFY(predicted.hasInterval);
                const double measured = measuredServiceS(p);
                const double error = predicted.serviceS / measured - 1.0;
                const bool covered = measured >= predicted.lowS && measured <= predicted.highS;
                errors.push_back(std::abs(error));
                inside += covered ? 1 : 0;
                qInfo("%s batch %4d: measured %8.3f ms, predicted %8.3f ms [%8.3f, %8.3f] "
                      "(%+.1f%%)%s",
                      run.c_str(), p.batchSize, measured * 1e3, predicted.serviceS * 1e3,
                      predicted.lowS * 1e3, predicted.highS * 1e3, 100 * error,
                      covered ? "" : "  outside");
            }
        }
        QCOMPARE(errors.size(), std::size_t(4)); // runs 1 and 2, batch 512 and 1024
        std::sort(errors.begin(), errors.end());
        const double medianError =
            0.5 * (errors[(errors.size() - 1) / 2] + errors[errors.size() / 2]);
        const double coverage = double(inside) / double(errors.size());
        qInfo("%zu extrapolated points: median |error| %.1f%%, 90%% intervals cover %.0f%%",
              errors.size(), 100 * medianError, 100 * coverage);
        QVERIFY2(medianError <= 0.15, "median error within 15%");
        QVERIFY2(coverage >= 0.80, "90% intervals cover at least 80%");
    }

    void fitsDoNotDependOnTheTimeUnit()
    {
        // The same sweep with its times 1000× larger or smaller (what a µs/ms/s mix-up that is
        // converted correctly leaves behind in rounding, exaggerated): the fit scales with it
        // and the crossover does not move.
        BS_REQUIRE_SHARED_DATA(shared);
        const QString path = bs::test::tftOfflineSweepPath(shared);
        auto dataset = io::readDataset(path.toStdString());
        QVERIFY(dataset && dataset->sweep());
        const data::SweepTable run1 = runRows(*dataset->sweep(), "run 1", 0);
        auto a100 = PresetLibrary::builtIn().accelerator("a100-sxm-80gb");
        QVERIFY(a100);
        std::vector<double> crossovers;
        std::vector<double> hostS;
        for (double scale : {1e-3, 1.0, 1e3}) {
            data::SweepTable scaled = run1;
            for (auto& p : scaled.points) {
                p.latencyMeanS = *p.latencyMeanS * scale;
                p.throughputPerS = *p.throughputPerS / scale;
                p.latencyP50S.reset();
                p.latencyP90S.reset();
                p.latencyP95S.reset();
                p.latencyP99S.reset();
            }
            FitOptions options;
            options.start.accelerator = *a100;
            options.start.precision = Precision::Fp16;
            auto fit = fitToSweep(scaled, options);
            QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
            crossovers.push_back(fit->crossoverBatch);
            hostS.push_back(fit->params.effectiveHostOverheadS() / scale);
            qInfo("times x %g: crossover b* = %.3f, host overhead %.6g s (rescaled)", scale,
                  fit->crossoverBatch, hostS.back());
        }
        for (std::size_t i = 1; i < crossovers.size(); ++i) {
            QVERIFY(std::abs(crossovers[i] / crossovers[0] - 1.0) < 1e-3);
            QVERIFY(std::abs(hostS[i] / hostS[0] - 1.0) < 1e-3);
        }
    }

    void intervalsWidenOutsideTheFittedRange()
    {
        // A roofline sweep t(b) = 1 ms + max(0.05 ms·b, 0.8 ms + 0.01 ms·b) with 1% alternating
        // scatter, measured at batch 1..64: memory-bound below b* = 20, compute-bound above.
        data::SweepTable sweep;
        sweep.name = "synthetic";
        for (int b = 1, i = 0; b <= 64; b *= 2, ++i) {
            data::SweepPoint p;
            p.batchSize = b;
            const double t = 1e-3 + std::max(5e-5 * b, 8e-4 + 1e-5 * b);
            p.latencyMeanS = t * (i % 2 ? 1.01 : 0.99);
            p.throughputPerS = b / *p.latencyMeanS;
            sweep.points.push_back(p);
        }
        FitOptions options;
        options.fitSmoothMax = false;
        auto fit = fitToSweep(sweep, options);
        QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
        QVERIFY2(fit->uncertainty.available, fit->uncertainty.reason.c_str());
        const auto inside = predictService(*fit, 16);
        const auto beyond = predictService(*fit, 1024);
        QVERIFY(!inside.extrapolated);
        QVERIFY(beyond.extrapolated);
        QVERIFY(inside.hasInterval && beyond.hasInterval);
        QVERIFY(inside.lowS < inside.serviceS && inside.serviceS < inside.highS);
        // Relative width grows away from the data.
        QVERIFY((beyond.highS - beyond.lowS) / beyond.serviceS >
                (inside.highS - inside.lowS) / inside.serviceS);
    }
};

QTEST_APPLESS_MAIN(TestFitExtrapolation)
#include "tst_fitextrapolation.moc"
