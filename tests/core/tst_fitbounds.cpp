// Fitted power stays physical on a named device (issue 17): idle above zero and the board no
// more powerful than its rating; a sweep whose power says otherwise is called out.
#include "accel/calibration.h"
#include "accel/presetlibrary.h"

#include <QtTest>

#include <algorithm>

using namespace bs;
using namespace bs::accel;

namespace {

/// A T4-like sweep: t(b) = 1 ms + 0.05 ms·b, power from `idleW` rising by `perItemW` per item
/// of batch (capped at `peakW`).
data::SweepTable sweepWithPower(double idleW, double perItemW, double peakW)
{
    data::SweepTable sweep;
    sweep.name = "synthetic";
    for (int b = 1; b <= 256; b *= 2) {
        data::SweepPoint p;
        p.batchSize = b;
        p.latencyMeanS = 1e-3 + 5e-5 * b;
        p.throughputPerS = b / *p.latencyMeanS;
        p.powerW = std::min(idleW + perItemW * b, peakW);
        sweep.points.push_back(p);
    }
    return sweep;
}

FitOptions t4Options()
{
    FitOptions options;
    options.start.accelerator = *PresetLibrary::builtIn().accelerator("t4");
    options.start.precision = Precision::Int8;
    return options;
}

const FittedParameter* find(const FitResult& fit, const std::string& name)
{
    for (const auto& p : fit.parameters)
        if (p.name == name)
            return &p;
    return nullptr;
}

} // namespace

class TestFitBounds : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void idlePowerNeverFitsToZero()
    {
        // Power that extrapolates to 0 W at batch 0: the fit may not follow it below 2% of
        // the T4's 70 W.
        auto fit = fitToSweep(sweepWithPower(0.0, 0.5, 69.0), t4Options());
        QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
        const auto* idle = find(*fit, "power_idle_w");
        QVERIFY(idle);
        QVERIFY2(idle->value >= 0.02 * 70.0 - 1e-9, qPrintable(QString::number(idle->value)));
    }

    void aBoardAboveItsRatingIsCalledOut()
    {
        // 300 W read from a 70 W card: a node's power, not the board's.
        auto fit = fitToSweep(sweepWithPower(40.0, 2.0, 300.0), t4Options());
        QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
        const auto* dynamic = find(*fit, "power_dynamic_w");
        QVERIFY(dynamic);
        QVERIFY(dynamic->value <= 1.05 * 70.0 + 1e-9);
        const bool warned =
            std::any_of(fit->warnings.begin(), fit->warnings.end(), [](const std::string& w) {
                return w.find("rated 70 W") != std::string::npos;
            });
        QVERIFY(warned);
    }

    void aPlausibleSweepIsNotWarned()
    {
        auto fit = fitToSweep(sweepWithPower(15.0, 0.2, 50.0), t4Options());
        QVERIFY(fit);
        for (const auto& w : fit->warnings)
            QVERIFY2(w.find("rated") == std::string::npos, w.c_str());
    }
};

QTEST_APPLESS_MAIN(TestFitBounds)
#include "tst_fitbounds.moc"
