// Power joins and thermal evidence: hand-computed integrals, bands and throttling findings on
// small series, and the real nvidia-smi log of ../shared/data/power_logs checked against the
// pyJoules energy records written by the same machine (an independent measurement: NVML's
// energy counter, read per query).

#include "analysis/idlepower.h"
#include "analysis/powerjoin.h"
#include "analysis/thermalevidence.h"
#include "io/readdataset.h"
#include "nearcompare.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::analysis;

namespace {

#define BS_NEAR(a, b) BS_NEAR_WITHIN(a, b, 1e-9)

/// Readings at t = 0, 1, 2, 3 s of 100, 200, 200, 100 W, each an instantaneous value.
data::PowerSeries ramp()
{
    data::PowerSeries s;
    s.timeS = {0.0, 1.0, 2.0, 3.0};
    s.powerW = {100.0, 200.0, 200.0, 100.0};
    return s;
}

struct PyJoulesRecord
{
    double beginS = 0.0;
    double durationS = 0.0;
    double gpuEnergyJ = 0.0;
};

/// pyJoules text output: "begin timestamp : T; tag : query; duration : D; ...; nvidia_gpu_0 : mJ".
/// Parsed here, not by BatchScope, so the check is independent of its readers.
QList<PyJoulesRecord> readPyJoules(const QString& path)
{
    QList<PyJoulesRecord> out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return out;
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    for (const QByteArray& line : lines) {
        PyJoulesRecord r;
        for (const QByteArray& field : line.trimmed().split(';')) {
            const QList<QByteArray> kv = field.split(':');
            const QByteArray key = kv.value(0).trimmed(), value = kv.value(1).trimmed();
            if (key == "begin timestamp")
                r.beginS = value.toDouble();
            else if (key == "duration")
                r.durationS = value.toDouble();
            else if (key == "nvidia_gpu_0")
                r.gpuEnergyJ = value.toDouble() / 1e3;
        }
        out.append(r);
    }
    return out;
}

} // namespace

class TestAnalysisPower : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void integratesInterpolatedPowerWithBand();
    void placesAveragedReadingsAtTheirCentre();
    void windowsOutsideTheLogAreUncovered();
    void sumsOrSelectsChannels();
    void badInputsAreErrors();
    void thermalEvidenceFindsTheClockDrop();
    void thermalEvidenceWithoutClockSaysSo();
    void idlePowerComesFromTheIdleReadings_data();
    void idlePowerComesFromTheIdleReadings();
    void realNvidiaSmiLogIdlesAt24W();
    void realNvidiaSmiLogMatchesPyJoules();
};

void TestAnalysisPower::integratesInterpolatedPowerWithBand()
{
    // Window [0.5, 2.5]: trapezoids 0.5*(150+200)/2 + 200 + 0.5*(200+150)/2 = 375 J. Band: the
    // lower neighbour held, 0.5*100 + 200 + 0.5*100 = 300 J; the higher, 0.5*200 + 200 + 0.5*200
    // = 400 J. Readings inside: t = 1 and 2.
    const std::vector<EnergyWindow> windows{{"step", 0.5, 2.5, 5.0, 300.0}};
    const auto join = joinPower(ramp(), windows);
    QVERIFY(join);
    QCOMPARE(join->windows.size(), std::size_t(1));
    const EnergyEstimate& e = join->windows[0];
    BS_NEAR(e.energyJ, 375.0);
    BS_NEAR(e.lowJ, 300.0);
    BS_NEAR(e.highJ, 400.0);
    BS_NEAR(e.meanPowerW, 187.5);
    BS_NEAR(e.perItemJ, 75.0);
    QCOMPARE(e.readings, std::uint64_t(2));
    QVERIFY(e.covered);
    BS_NEAR(join->totalJ, 375.0);
    BS_NEAR(join->totalReferenceJ, 300.0);
    BS_NEAR(join->referenceRatio, 1.25);
    BS_NEAR(join->samplingIntervalS, 1.0);
    QCOMPARE(join->uncovered, std::uint64_t(0));
}

void TestAnalysisPower::placesAveragedReadingsAtTheirCentre()
{
    // A 1 s average describes the second before its timestamp: readings move to -0.5, 0.5, 1.5,
    // 2.5. Window [0.5, 2.5] then holds 200 W for 1 s and 200 -> 100 W over the next:
    // 200 + 150 = 350 J.
    data::PowerSeries s = ramp();
    s.readingWindowS = 1.0;
    const std::vector<EnergyWindow> windows{{"step", 0.5, 2.5}};
    const auto join = joinPower(s, windows);
    QVERIFY(join);
    BS_NEAR(join->windows[0].energyJ, 350.0);
    BS_NEAR(join->readingWindowS, 1.0);
    QVERIFY(join->note.find("~1 s average") != std::string::npos);
    // The caller may state the averaging window instead.
    PowerJoinOptions instantaneous;
    instantaneous.readingWindowS = 0.0;
    BS_NEAR(joinPower(s, windows, instantaneous)->windows[0].energyJ, 375.0);
}

void TestAnalysisPower::windowsOutsideTheLogAreUncovered()
{
    // [2.5, 4] runs past the last reading: its in-log part (2.5..3: 0.5*(150+100)/2 = 62.5 J) is
    // reported, but it is flagged and kept out of the totals, as is one entirely before the log.
    const std::vector<EnergyWindow> windows{
        {"inside", 1.0, 2.0}, {"tail", 2.5, 4.0}, {"before", -5.0, -4.0}};
    const auto join = joinPower(ramp(), windows);
    QVERIFY(join);
    QVERIFY(join->windows[0].covered);
    QVERIFY(!join->windows[1].covered);
    BS_NEAR(join->windows[1].energyJ, 62.5);
    QVERIFY(!join->windows[2].covered);
    BS_NEAR(join->windows[2].energyJ, 0.0);
    QCOMPARE(join->uncovered, std::uint64_t(2));
    BS_NEAR(join->totalJ, 200.0);
    QVERIFY(std::isnan(join->referenceRatio)); // no reference given
}

void TestAnalysisPower::sumsOrSelectsChannels()
{
    // GPU 0 draws 100 W, GPU 1 50 W, both read at t = 0, 1, 2 in interleaved order.
    data::PowerSeries s;
    s.timeS = {0, 0, 1, 1, 2, 2};
    s.powerW = {100, 50, 100, 50, 100, 50};
    s.channel = {0, 1, 0, 1, 0, 1};
    const std::vector<EnergyWindow> windows{{"all", 0.0, 2.0}};
    BS_NEAR(joinPower(s, windows)->totalJ, 300.0);
    PowerJoinOptions one;
    one.channel = 1;
    BS_NEAR(joinPower(s, windows, one)->totalJ, 100.0);
    one.channel = 7;
    const auto missing = joinPower(s, windows, one);
    QVERIFY(!missing);
    QCOMPARE(missing.error().message, std::string("the power log has no channel 7"));
}

void TestAnalysisPower::badInputsAreErrors()
{
    data::PowerSeries one;
    one.timeS = {0.0};
    one.powerW = {10.0};
    const std::vector<EnergyWindow> windows{{"w", 0.0, 1.0}};
    QCOMPARE(joinPower(one, windows).error().message,
             std::string("the power log needs at least 2 power readings"));

    data::PowerSeries nan = ramp();
    nan.powerW[2] = std::nan("");
    QCOMPARE(joinPower(nan, windows).error().message,
             std::string("power reading 3 has a non-finite time or power"));

    const std::vector<EnergyWindow> backwards{{"w", 0.0, 1.0}, {"late", 2.0, 1.0}};
    QCOMPARE(joinPower(ramp(), backwards).error().message,
             std::string("energy window 2 (late) ends before it starts"));

    CancelToken cancel;
    cancel.cancel();
    const auto cancelled = joinPower(ramp(), windows, {}, Progress::null(), cancel);
    QVERIFY(!cancelled);
    QCOMPARE(cancelled.error().code, ErrorCode::Cancelled);
}

void TestAnalysisPower::thermalEvidenceFindsTheClockDrop()
{
    // Ten 1 s readings: idle at 50 W for two, then loaded at 250 W. The SM clock holds 1500 MHz
    // under load except readings 6 and 7 (1200 MHz) while the temperature climbs 40 -> 80 C.
    // Idle = the readings at the lowest clock state = 50 W; loaded from 150 W; sustained = p95 of
    // the loaded clocks = 1500 MHz; one drop over t = 6..7 of 1 - 1200/1500 = 20%. Completions
    // follow the clock.
    data::PowerSeries s;
    s.timeS = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    s.powerW = {50, 50, 250, 250, 250, 250, 240, 260, 250, 250};
    s.smClockMHz = {300, 300, 1500, 1500, 1500, 1500, 1200, 1200, 1500, 1500};
    s.temperatureC = {40, 40, 45, 50, 55, 60, 70, 80, 75, 72};
    std::vector<double> completions;
    for (int second = 0; second < 10; ++second) {
        const int perSecond = int(s.smClockMHz[std::size_t(second)] / 100.0);
        for (int k = 0; k < perSecond; ++k)
            completions.push_back(second + (k + 0.5) / perSecond);
    }
    const auto e = thermalEvidence(s, completions, 1.0);
    QVERIFY(e);
    QVERIFY(e->available);
    QCOMPARE(e->startS.size(), std::size_t(10));
    BS_NEAR(e->idlePowerW, 50.0);
    BS_NEAR(e->sustainedClockMHz, 1500.0);
    QCOMPARE(e->drops.size(), std::size_t(1));
    const ClockDrop& d = e->drops[0];
    BS_NEAR(d.startS, 6.0);
    BS_NEAR(d.endS, 7.0);
    BS_NEAR(d.minClockMHz, 1200.0);
    BS_NEAR(d.dropFraction, 0.2);
    BS_NEAR(d.meanPowerW, 250.0);
    BS_NEAR(d.maxTemperatureC, 80.0);
    BS_NEAR(e->temperatureRiseC, 72.0 - 45.0); // last minus first loaded window
    BS_NEAR(e->throughputPerS[2], 15.0);
    BS_NEAR(e->throughputPerS[6], 12.0);
    BS_NEAR(e->clockThroughputCorrelation, 1.0);
    QVERIFY(e->verdict.find(
                "1 clock drop(s) under load, down to 20% below the sustained 1500 MHz") == 0);
    QVERIFY(e->verdict.find("throughput follows the clock") != std::string::npos);
}

void TestAnalysisPower::thermalEvidenceWithoutClockSaysSo()
{
    const auto e = thermalEvidence(ramp(), {}, 1.0);
    QVERIFY(e);
    QVERIFY(e->available);
    QVERIFY(e->drops.empty());
    QCOMPARE(e->verdict,
             std::string("the power log has no SM clock column: clock drops cannot be checked"));
    data::PowerSeries one;
    one.timeS = {0.0};
    one.powerW = {10.0};
    QVERIFY(!thermalEvidence(one, {})->available);
}

// Regression (issue 21, Views): the Power & thermal tab said "idle 229 W" for a log idling at
// 60.7 W because idle was the 5th percentile of all readings, which is a loaded reading when
// the log is mostly under load. The fixture has 4 idle readings among 100: its 5th percentile
// is a loaded one.
void TestAnalysisPower::idlePowerComesFromTheIdleReadings_data()
{
    QTest::addColumn<bool>("keepUtilisation");
    QTest::addColumn<bool>("keepClock");
    QTest::addColumn<int>("rule");
    QTest::addColumn<double>("idleW");
    QTest::addColumn<int>("readings");
    QTest::addColumn<QString>("described");
    QTest::newRow("utilisation <= 5%") << true << true << int(IdleRule::LowUtilisation) << 60.7 << 4
                                       << QStringLiteral("GPU utilisation <= 5%");
    QTest::newRow("lowest clock state") << false << true << int(IdleRule::LowestClockState) << 60.7
                                        << 4 << QStringLiteral("<= 231 MHz");
    // No column marks a reading idle: the 1st percentile, between the two lowest readings.
    QTest::newRow("1st percentile")
        << false << false << int(IdleRule::LowPercentile) << 60.6 + 0.99 * 0.1 << 100
        << QStringLiteral("1st percentile of all readings");
}

void TestAnalysisPower::idlePowerComesFromTheIdleReadings()
{
    QFETCH(bool, keepUtilisation);
    QFETCH(bool, keepClock);
    QFETCH(int, rule);
    QFETCH(double, idleW);
    QFETCH(int, readings);
    QFETCH(QString, described);
    const QString path = test::testDataPath(QStringLiteral("power/nvidia_smi_mostly_loaded.csv"));
    const auto dataset = io::readDataset(path.toStdString());
    QVERIFY2(dataset, dataset ? "" : dataset.error().toString().c_str());
    data::PowerSeries series = *dataset->powerSeries();
    QCOMPARE(series.size(), std::size_t(100));
    std::vector<double> sortedW = series.powerW;
    std::ranges::sort(sortedW);
    QVERIFY(quantileOfSorted(sortedW, 0.05) > 200.0); // what "idle" used to say
    if (!keepUtilisation)
        series.utilizationPct.clear();
    if (!keepClock)
        series.smClockMHz.clear();
    const IdlePower idle = idlePower(powerChannelSamples(series, -1));
    QCOMPARE(int(idle.rule), rule);
    BS_NEAR_WITHIN(idle.powerW, idleW, 1e-6);
    QCOMPARE(idle.readings, std::size_t(readings));
    QVERIFY2(QString::fromStdString(idle.description).contains(described),
             idle.description.c_str());

    // The evidence carries the same value and says how it was found.
    const auto evidence = thermalEvidence(series, {});
    QVERIFY(evidence && evidence->available);
    BS_NEAR_WITHIN(evidence->idlePowerW, idleW, 1e-6);
    QCOMPARE(evidence->idlePowerRule, idle.description);
    QVERIFY(evidence->method.find("idle power = " + idle.description) == 0);
}

// The real V100S log idles at 24.38 W for its first 22 readings (SM clock 135 MHz) and runs
// at 1245 MHz and 35-49 W for the other 1,325: its 5th percentile (43.8 W) is not idle power.
void TestAnalysisPower::realNvidiaSmiLogIdlesAt24W()
{
    BS_REQUIRE_SHARED_FILE(path, QStringLiteral("power_logs/ob234_cpc_ob234/cpc-main/backup/"
                                                "nvidia_output_1700706197.log"));
    const auto dataset = io::readDataset(path.toStdString());
    QVERIFY2(dataset, dataset ? "" : dataset.error().toString().c_str());
    const auto evidence = thermalEvidence(*dataset->powerSeries(), {});
    QVERIFY(evidence && evidence->available);
    BS_NEAR_WITHIN(evidence->idlePowerW, 24.38, 0.005);
    QCOMPARE(QString::fromStdString(evidence->idlePowerRule),
             QStringLiteral("median of the 22 readings at the lowest SM clock state (<= 148 MHz)"));
}

void TestAnalysisPower::realNvidiaSmiLogMatchesPyJoules()
{
    BS_REQUIRE_SHARED_DATA(shared);
    const QString dir = shared + QStringLiteral("/power_logs/ob234_cpc_ob234/cpc-main/backup");
    const QString smiPath = dir + QStringLiteral("/nvidia_output_1700706197.log");
    const QString pyJoulesPath =
        dir + QStringLiteral("/pyjoules_output_text-generation_pipeline_cuda_1700706195.log");
    QVERIFY2(QFile::exists(smiPath) && QFile::exists(pyJoulesPath), qPrintable(dir));

    const QList<PyJoulesRecord> records = readPyJoules(pyJoulesPath);
    QCOMPARE(records.size(), qsizetype(9930));
    std::vector<EnergyWindow> windows;
    double referenceJ = 0.0;
    for (const PyJoulesRecord& r : records) {
        windows.push_back({"query", r.beginS, r.beginS + r.durationS, 1.0, r.gpuEnergyJ});
        referenceJ += r.gpuEnergyJ;
    }

    // nvidia-smi wrote local time on a machine at UTC-5: the file name's Unix time (1700706197)
    // is its first timestamp, 2023/11/22 21:23:17.673 local.
    io::ReadOptions options;
    options.readerOptions = {{"utc_offset_s", -18000}};
    const auto local = io::readDataset(smiPath.toStdString(), options);
    QVERIFY(local);
    const auto series = local->powerSeries();
    QCOMPARE(series->size(), std::size_t(1347));
    BS_NEAR_WITHIN(series->timeS.front(), 1700706197.673, 1e-6); // a ulp here is ~2.4e-7 s
    BS_NEAR(series->readingWindowS, 1.0);

    const auto join = joinPower(*series, windows);
    QVERIFY(join);
    // The first query starts before the log; the last five end within the final reading's
    // second, after its centre (the log's end, 0.5 s before its last timestamp).
    QCOMPARE(join->uncovered, std::uint64_t(6));
    qInfo("nvidia-smi %.1f J [%.1f, %.1f] vs pyJoules %.1f J over %zu queries: ratio %.4f",
          join->totalJ, join->totalLowJ, join->totalHighJ, join->totalReferenceJ,
          windows.size() - std::size_t(join->uncovered), join->referenceRatio);
    // Two instruments (1 Hz power averages vs the energy counter) agree within 5% overall.
    QVERIFY(join->referenceRatio > 0.95 && join->referenceRatio < 1.05);
    QVERIFY(join->totalReferenceJ < referenceJ); // the uncovered query is left out

    // Taken as UTC, the log sits five hours before the queries: nothing is covered.
    const auto naive = io::readDataset(smiPath.toStdString());
    QVERIFY(naive);
    const auto misaligned = joinPower(*naive->powerSeries(), windows);
    QVERIFY(misaligned);
    QCOMPARE(misaligned->uncovered, std::uint64_t(windows.size()));
    QVERIFY(std::isnan(misaligned->referenceRatio));
}

QTEST_GUILESS_MAIN(TestAnalysisPower)
#include "tst_analysis_power.moc"
