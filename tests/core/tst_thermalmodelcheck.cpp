// The thermal-model check: a log written by the model's own RC agrees with it (the closed-form
// step response is the independent reference), a log from a hotter room is called hotter with
// the size of the difference, and logs it cannot judge say why.

#include "analysis/thermalmodelcheck.h"

#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::analysis;

namespace {

/// The A100 preset's thermal values: T_amb 25 °C, R 0.15 °C/W, C 266.7 J/°C (τ 40 s).
accel::ThermalSpec a100Thermal()
{
    accel::ThermalSpec t;
    t.ambientC = 25.0;
    t.resistanceCPerW = 0.15;
    t.capacitanceJPerC = 266.7;
    t.throttleC = 87.0;
    return t;
}

/// 1 Hz readings: idle 60 W for 10 s, then 300 W for `loadedS` seconds. Temperatures from the
/// closed-form step response of an RC with ambient `ambientC` (the model's R and C), rounded to
/// whole degrees as nvidia-smi reports them.
data::PowerSeries stepLog(double ambientC, int loadedS, bool withTemperature = true)
{
    const double r = 0.15, tau = 0.15 * 266.7;
    data::PowerSeries s;
    const double idleC = ambientC + 60.0 * r, loadedC = ambientC + 300.0 * r;
    for (int k = 0; k <= 10 + loadedS; ++k) {
        s.timeS.push_back(1.7e9 + k);
        const bool loaded = k > 10; // reading k averages (k-1, k]
        s.powerW.push_back(loaded ? 300.0 : 60.0);
        const double temperature =
            k <= 10 ? idleC : loadedC + (idleC - loadedC) * std::exp(-(k - 10) / tau);
        if (withTemperature)
            s.temperatureC.push_back(std::round(temperature));
    }
    return s;
}

} // namespace

class TstThermalModelCheck : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aLogFromTheModelsRcAgrees()
    {
        const auto check = checkThermalModel(stepLog(25.0, 200), a100Thermal());
        QVERIFY2(check, check ? "" : check.error().message.c_str());
        QVERIFY(check->available);
        QVERIFY2(check->agrees, check->verdict.c_str());
        QVERIFY(check->meanAbsErrorC < 0.6); // whole-degree rounding only
        // 40 s into the step: 70 + (34 − 70)·e^(−40/τ) ≈ 56.76 °C from the closed form; the
        // integration starts from the first reading (34 °C, a whole degree already).
        const std::size_t at40 = 50;
        QCOMPARE(check->timeS[at40] - check->timeS.front(), 50.0);
        QVERIFY(std::fabs(check->predictedC[at40] -
                          (70.0 - 36.0 * std::exp(-40.0 / (0.15 * 266.7)))) < 1e-6);
        QCOMPARE(check->peakPowerW, 300.0);
        QVERIFY(std::fabs(check->modelSteadyAtPeakC - 70.0) < 1e-9);
        QVERIFY(check->verdict.find("follows the model") != std::string::npos);
        QVERIFY(check->verdict.find("time constant") == std::string::npos);
    }

    void aLogFromAHotterRoomIsCalledHotter()
    {
        // The same power, a room 20 °C warmer: the log starts 20 °C higher and the model,
        // started from that first reading, relaxes towards its own (cooler) steady state.
        const auto check = checkThermalModel(stepLog(45.0, 300), a100Thermal());
        QVERIFY(check);
        QVERIFY(check->available);
        QVERIFY(!check->agrees);
        QVERIFY(check->biasC > 10.0);
        QVERIFY2(check->verdict.find("hotter") != std::string::npos, check->verdict.c_str());
        QCOMPARE(check->loggedMaxC, 90.0); // 45 + 300 · 0.15, reached within 1 °C after 7.5 τ
    }

    void aCoolerLogIsCalledCooler()
    {
        const auto check = checkThermalModel(stepLog(10.0, 300), a100Thermal());
        QVERIFY(check && check->available && !check->agrees);
        QVERIFY(check->biasC < -5.0);
        QVERIFY(check->verdict.find("cooler") != std::string::npos);
    }

    void aShortLogSaysItChecksOnlyTheTransient()
    {
        const auto check = checkThermalModel(stepLog(25.0, 10), a100Thermal());
        QVERIFY(check && check->available);
        QVERIFY2(check->verdict.find("less than the model's 40 s time constant") !=
                     std::string::npos,
                 check->verdict.c_str());
    }

    void aLogWithoutTemperaturesIsNotJudged()
    {
        const auto check = checkThermalModel(stepLog(25.0, 100, false), a100Thermal());
        QVERIFY(check);
        QVERIFY(!check->available);
        QCOMPARE(check->reason, std::string("the power log has no temperature readings"));
    }

    void badInputIsAnErrorNotANumber()
    {
        auto log = stepLog(25.0, 20);
        log.powerW[5] = std::nan("");
        const auto check = checkThermalModel(log, a100Thermal());
        QVERIFY(!check);
        QVERIFY(check.error().message.find("power reading 6") != std::string::npos);
        accel::ThermalSpec broken = a100Thermal();
        broken.capacitanceJPerC = 0.0;
        QVERIFY(!checkThermalModel(stepLog(25.0, 20), broken));
    }
};

QTEST_APPLESS_MAIN(TstThermalModelCheck)
#include "tst_thermalmodelcheck.moc"
