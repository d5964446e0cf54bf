#include "iotesthelpers.h"

using namespace bs;

namespace {

const data::SweepPoint& onlyPoint(const data::Dataset& dataset)
{
    return dataset.sweep()->points.at(0);
}

} // namespace

class TestIoMlperf : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void summaryAndDetailAgree();
    void detailJoinsMultiChannelPower();
    void summaryFindsPowerThroughTheDetailLog();
    void singleChannelPowerWindow();
    void rangingRunWithoutTotalsClaimsNoPower();
    void readsOldTextDetailForm();
    void readsOldSummaryAndSingleStream();
    void invalidRunIsAWarning();
    void optionsSetBatchAndSkipPower();
    void readsSplAlone();
    void badInput_data();
    void badInput();
};

void TestIoMlperf::summaryAndDetailAgree()
{
    auto summary = test::readFixture(QStringLiteral("mlperf/v2_server/mlperf_log_summary.txt"),
                                     {"", {{"power_log", false}}, {}});
    auto detail = test::readFixture(QStringLiteral("mlperf/v2_server/mlperf_log_detail.txt"),
                                    {"", {{"power_log", false}}, {}});
    BS_VERIFY_READ(summary);
    BS_VERIFY_READ(detail);
    QCOMPARE(summary->provenance.reader, std::string("mlperf_summary"));
    QCOMPARE(detail->provenance.reader, std::string("mlperf_detail"));
    const auto& s = onlyPoint(*summary);
    const auto& d = onlyPoint(*detail);
    QCOMPARE(*s.latencyP99S, 0.013); // 13000000 ns
    QCOMPARE(*s.latencyP99S, *d.latencyP99S);
    QCOMPARE(*s.latencyP999S, *d.latencyP999S);
    QCOMPARE(*s.latencyMeanS, *d.latencyMeanS);
    QCOMPARE(*s.throughputPerS, 999.75);
    QCOMPARE(*s.throughputPerS, *d.throughputPerS);
    QCOMPARE(*s.requestRatePerS, 1000.5);
    QCOMPARE(*d.requestRatePerS, 1000.5);
    QCOMPARE(summary->sweep()->loadAxis, data::LoadAxis::RequestRate);
    QCOMPARE(*d.sampleCount, std::uint64_t(10000));
    for (const auto* ds : {&*summary, &*detail}) {
        const auto& m = ds->sweep()->metadata;
        QCOMPARE(m.at("scenario"), std::string("Server"));
        QCOMPARE(m.at("result_validity"), std::string("VALID"));
        QCOMPARE(m.at("target_qps"), std::string("1000"));
        QCOMPARE(m.at("target_latency_s"), std::string("0.015"));
        QCOMPARE(m.at("early_stopping_satisfied"), std::string("yes"));
        QCOMPARE(m.at("performance_constraints_satisfied"), std::string("yes"));
    }
    QCOMPARE(detail->sweep()->metadata.at("target_latency_percentile"), std::string("0.99"));
    // LoadGen warnings in the detail log are summarised once, with their lines.
    QCOMPARE(test::warningLines(*detail).first(),
             QStringLiteral("11: LoadGen warning: Logging allocation detected: tid: 7 (and 1 more "
                            "time, on line 12)"));
}

void TestIoMlperf::detailJoinsMultiChannelPower()
{
    auto read = test::readFixture(QStringLiteral("mlperf/v2_server/mlperf_log_detail.txt"));
    BS_VERIFY_READ(read);
    const auto& p = onlyPoint(*read);
    // 11 readings inside [12:00:01, 12:00:11] (304..324 W, totals of two channels): mean 314 W;
    // 10 s window -> 3140 J over 10,000 samples.
    QCOMPARE(*p.powerW, 314.0);
    QCOMPARE(*p.energyPerInferenceJ, 0.314);
    const auto& m = read->sweep()->metadata;
    QCOMPARE(m.at("power_readings"), std::string("11"));
    QCOMPARE(m.at("power_window_s"), std::string("10"));
    QCOMPARE(m.at("energy_j"), std::string("3140"));
    QCOMPARE(m.at("meter_channels"), std::string("2"));
    QCOMPARE(m.at("power_begin"), std::string("02-23-2022 12:00:01.000"));
    QVERIFY(read->provenance.detectedBecause.find(
                "power window joined with spl.txt (11 readings)") != std::string::npos);
}

void TestIoMlperf::summaryFindsPowerThroughTheDetailLog()
{
    auto read = test::readFixture(QStringLiteral("mlperf/v2_server/mlperf_log_summary.txt"));
    BS_VERIFY_READ(read);
    const auto& p = onlyPoint(*read);
    QCOMPARE(*p.powerW, 314.0);
    // No query count in a summary: energy per sample = mean power / throughput.
    QCOMPARE(*p.energyPerInferenceJ, 3140.0 / (999.75 * 10.0));
}

void TestIoMlperf::singleChannelPowerWindow()
{
    auto read = test::readFixture(QStringLiteral("mlperf/single_channel/mlperf_log_detail.txt"));
    BS_VERIFY_READ(read);
    const auto& p = onlyPoint(*read);
    // Readings at 1, 2, 3, 4 s inside [0.5, 4.5] s: 200, 250, 300, 250 W -> 250 W over 4 s,
    // 1000 J for 1 query x 4000 samples.
    QCOMPARE(*p.powerW, 250.0);
    QCOMPARE(*p.energyPerInferenceJ, 0.25);
    QCOMPARE(read->sweep()->metadata.at("meter_channels"), std::string("1"));
    QCOMPARE(*p.latencyP99S, 3.9);
    QCOMPARE(read->sweep()->loadAxis, data::LoadAxis::None);
}

void TestIoMlperf::rangingRunWithoutTotalsClaimsNoPower()
{
    auto read = test::readFixture(QStringLiteral("mlperf/ranging/mlperf_log_detail.txt"));
    BS_VERIFY_READ(read);
    // Of the readings at 1..4 s inside [0.5, 4.5] s only the one at 4 s has a total.
    QVERIFY(!onlyPoint(*read).powerW);
    QCOMPARE(read->sweep()->metadata.at("power_readings"), std::string("1"));
    const QStringList warnings = test::warningLines(*read);
    QVERIFY(warnings.contains(QStringLiteral(
        "0: spl.txt line 2: the meter reports no total power (Watts -1); the reading is left out "
        "(and 2 more times, on lines 3, 4)")));
    QVERIFY(warnings.contains(QStringLiteral(
        "0: spl.txt has only 1 readings inside the 4 s power window (about 4 expected); power is "
        "not reported")));
}

void TestIoMlperf::readsOldTextDetailForm()
{
    auto read = test::readFixture(QStringLiteral("mlperf/v07_offline/mlperf_log_detail.txt"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("mlperf_detail"));
    const auto& m = read->sweep()->metadata;
    QCOMPARE(m.at("scenario"), std::string("Offline")); // the effective, not the requested one
    QCOMPARE(m.at("target_qps"), std::string("50000"));
    QCOMPARE(m.at("samples_per_query"), std::string("3300000"));
    QCOMPARE(m.at("sut_name"), std::string("LWIS_Server"));
    QCOMPARE(m.at("power_begin"), std::string("09-09-2020 04:46:33.251"));
    QCOMPARE(m.at("power_end"), std::string("09-09-2020 04:47:40.738"));
    QCOMPARE(m.at("loadgen_log_form"), std::string("text (pre-v1.0)"));
    QVERIFY(!onlyPoint(*read).throughputPerS);
    QVERIFY(test::warningLines(*read).contains(QStringLiteral(
        "0: this pre-v1.0 detail log holds settings and the power window but no results; read "
        "mlperf_log_summary.txt for throughput and latency")));
}

void TestIoMlperf::readsOldSummaryAndSingleStream()
{
    auto offline = test::readFixture(QStringLiteral("mlperf/v07_offline/mlperf_log_summary.txt"));
    BS_VERIFY_READ(offline);
    QCOMPARE(*onlyPoint(*offline).throughputPerS, 48897.8);
    QCOMPARE(*onlyPoint(*offline).latencyP99S, 66.815735478);
    QCOMPARE(offline->sweep()->loadAxis, data::LoadAxis::None);
    QVERIFY(!onlyPoint(*offline).powerW); // no spl.txt beside it

    auto single = test::readFixture(QStringLiteral("mlperf/singlestream/mlperf_log_summary.txt"));
    BS_VERIFY_READ(single);
    const auto& p = onlyPoint(*single);
    QCOMPARE(*p.latencyP90S, 660e-6);
    QCOMPARE(*p.latencyP99S, 699e-6);
    QCOMPARE(single->sweep()->metadata.at("qps_w_loadgen_overhead"), std::string("1510.47"));
    QCOMPARE(single->sweep()->metadata.at("scenario"), std::string("SingleStream"));
}

void TestIoMlperf::invalidRunIsAWarning()
{
    auto read = test::readFixture(QStringLiteral("mlperf/invalid_run/mlperf_log_summary.txt"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->sweep()->metadata.at("result_validity"), std::string("INVALID"));
    QVERIFY(test::warningLines(*read).contains(
        QStringLiteral("0: LoadGen marks this run INVALID (not met: early_stopping_satisfied)")));
}

void TestIoMlperf::optionsSetBatchAndSkipPower()
{
    auto read = test::readFixtureAs(QStringLiteral("mlperf/v2_server/mlperf_log_detail.txt"), "",
                                    {{"batch_size", 128}, {"power_log", false}});
    BS_VERIFY_READ(read);
    QCOMPARE(onlyPoint(*read).batchSize, 128);
    QVERIFY(!onlyPoint(*read).powerW);
    for (const auto& w : read->provenance.warnings)
        QVERIFY(w.message.find("batch size") == std::string::npos);
    auto bad = test::readFixtureAs(QStringLiteral("mlperf/v2_server/mlperf_log_detail.txt"), "",
                                   {{"batch_size", 0}});
    QVERIFY(!bad);
    QCOMPARE(QString::fromStdString(bad.error().message),
             QStringLiteral("reader_options.batch_size: must be at least 1 (got 0)"));
}

void TestIoMlperf::readsSplAlone()
{
    auto read = test::readFixture(QStringLiteral("mlperf/v2_server/spl.txt"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("mlperf_spl"));
    const auto series = read->powerSeries();
    QCOMPARE(series->size(), std::size_t(15));
    QCOMPARE(series->powerW.front(), 300.0);
    QCOMPARE(series->timeS.front(), 1645617599.0); // 2022-02-23 11:59:59 taken as UTC
    QCOMPARE(series->readingWindowS, 1.0);
    QCOMPARE(series->tags.extra.at("meter_channels"), std::string("2"));
    QCOMPARE(series->tags.extra.at("mark"), std::string("test_testing"));
}

void TestIoMlperf::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("JSON syntax error in a record")
        << "bad_json/mlperf_log_detail.txt"
        << "2:62: JSON syntax error in a :::MLLOG record at byte 61 of the line: syntax error "
           "while parsing object - unexpected string literal; expected '}'";
    QTest::newRow("non-numeric latency")
        << "bad_summary/mlperf_log_summary.txt"
        << "28:35: \"99.00 percentile latency (ns)\" holds \"13e6x\", which is not a non-negative "
           "number";
    QTest::newRow("negative watts")
        << "bad_spl.txt"
        << "1:36: column \"Watts\" holds -5; a negative value is not valid here";
}

void TestIoMlperf::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    auto read = test::readFixture(QStringLiteral("mlperf/") + file);
    QVERIFY(!read);
    QCOMPARE(test::whereAndWhy(read.error()), expected);
}

QTEST_APPLESS_MAIN(TestIoMlperf)
#include "tst_io_mlperf.moc"
