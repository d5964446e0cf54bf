// Issue 17, item 4: latency units cross-checked against throughput and load (Little's law,
// batch ÷ throughput), and DeepLearningExamples result tables read as their own kind.
#include "iotesthelpers.h"

#include <cmath>

using namespace bs;

namespace {

bool near(double actual, double expected)
{
    return std::abs(actual - expected) <= 1e-9 * std::max(1.0, std::abs(expected));
}

const data::SweepTable& sweepOf(const data::Dataset& dataset)
{
    return *dataset.sweep();
}

} // namespace

class TestIoUnitCheck : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void unitlessMillisecondsAreReadAsMilliseconds();
    void statedUnitIsOnlyWarnedAbout();
    void consistentFileHasNoWarning();
    void uncheckableGuessedUnitGetsANote();
    void perfAnalyzerMicrosecondsPassTheCheck();
    void dleTritonTableKeepsEveryLatency();
    void dleInferenceTablesMapPercentiles();
    void dleHeadersOfOtherTablesAreNotDle();
};

void TestIoUnitCheck::unitlessMillisecondsAreReadAsMilliseconds()
{
    auto read = test::readFixture(QStringLiteral("generic_csv/sweep_unitless_ms.csv"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("sweep_csv"));
    const auto& points = sweepOf(*read).points;
    QCOMPARE(points.size(), std::size_t(6));
    QVERIFY(near(*points[0].latencyMeanS, 2.128e-3));
    QVERIFY(near(*points[5].latencyMeanS, 6.096e-3));
    QCOMPARE(test::warningLines(*read),
             QStringList{QStringLiteral(
                 "0: sweep_unitless_ms.csv: batch ÷ throughput = 2.13 ms at batch 1 while "
                 "\"Avg Latency\" read as 2.128 s (its header gives no unit): read as ms")});
    // The saved mapping says ms, so a reload reads the same numbers, now as stated.
    const auto saved = nlohmann::json::parse(read->readerOptionsJson);
    QCOMPARE(saved["columns"]["latency_mean"]["unit"].get<std::string>(), std::string("ms"));
    auto again = test::readFixtureAs(QStringLiteral("generic_csv/sweep_unitless_ms.csv"),
                                     "sweep_csv", saved);
    BS_VERIFY_READ(again);
    QCOMPARE(sweepOf(*again).points, points);
    QVERIFY(again->provenance.warnings.empty());
}

void TestIoUnitCheck::statedUnitIsOnlyWarnedAbout()
{
    auto read = test::readFixture(QStringLiteral("generic_csv/sweep_stated_ms_wrong.csv"));
    BS_VERIFY_READ(read);
    const auto& points = sweepOf(*read).points;
    QVERIFY(near(*points[0].latencyP99S, 3.730)); // 3730 "ms", as the header says
    QCOMPARE(test::warningLines(*read),
             QStringList{QStringLiteral(
                 "0: sweep_stated_ms_wrong.csv: concurrency × batch ÷ throughput (Little's law) "
                 "= 3.7 ms at batch 1, concurrency 1 while \"p99 latency (ms)\" read as 3.73 s, "
                 "10^3 times too large for its stated unit (ms); kept as stated: check the "
                 "file")});
    // A user's mapping that states the unit is the user's word: kept, warned.
    const nlohmann::json mapping = {
        {"columns",
         {{"batch_size", {{"column", "Batch"}}},
          {"throughput", {{"column", "Throughput"}}},
          {"latency_mean", {{"column", "Avg Latency"}, {"unit", "s"}}}}}};
    auto stated = test::readFixtureAs(QStringLiteral("generic_csv/sweep_unitless_ms.csv"),
                                      "sweep_csv", mapping);
    BS_VERIFY_READ(stated);
    QVERIFY(near(*sweepOf(*stated).points[0].latencyMeanS, 2.128));
    QCOMPARE(stated->provenance.warnings.size(), std::size_t(1));
    QVERIFY(stated->provenance.warnings[0].message.find("kept as stated") != std::string::npos);
}

void TestIoUnitCheck::consistentFileHasNoWarning()
{
    auto read = test::readFixture(QStringLiteral("generic_csv/sweep_unitless_consistent.csv"));
    BS_VERIFY_READ(read);
    QVERIFY2(read->provenance.warnings.empty(),
             qPrintable(test::warningLines(*read).join(QLatin1Char('\n'))));
    QVERIFY(near(*sweepOf(*read).points[0].latencyMeanS, 0.0039));
}

void TestIoUnitCheck::uncheckableGuessedUnitGetsANote()
{
    // An open loop: Little's law needs the number in flight, which a request rate does not say.
    auto read = io::readDatasetFromBytes("batch,request rate,latency\n1,100,0.004\n8,400,0.02\n",
                                         "open.csv");
    BS_VERIFY_READ(read);
    QCOMPARE(test::warningLines(*read),
             QStringList{QStringLiteral("0: \"latency\" gives no unit and was read in s; the file "
                                        "has no throughput with a known load to check it "
                                        "against")});
    QVERIFY(near(*sweepOf(*read).points[0].latencyMeanS, 0.004));
}

void TestIoUnitCheck::perfAnalyzerMicrosecondsPassTheCheck()
{
    auto read = test::readFixture(QStringLiteral("perf_analyzer/batch_runs.csv"));
    BS_VERIFY_READ(read);
    for (const auto& w : read->provenance.warnings)
        QVERIFY2(w.message.find("stated unit") == std::string::npos, w.message.c_str());
    // The same figures under a "(ms)" header are 10^3 too large: warned, never rescaled.
    auto misread =
        io::readDatasetFromBytes("batch,concurrency,throughput,avg latency (us),p99 latency (ms)\n"
                                 "1,1,270.5,3688,3730\n2,1,487.333,4096,4142\n",
                                 "pasted.csv");
    BS_VERIFY_READ(misread);
    QCOMPARE(misread->provenance.warnings.size(), std::size_t(1));
    QVERIFY(misread->provenance.warnings[0].message.find("\"p99 latency (ms)\"") !=
            std::string::npos);
    QVERIFY(near(*sweepOf(*misread).points[0].latencyMeanS, 3.688e-3));
    QVERIFY(near(*sweepOf(*misread).points[0].latencyP99S, 3.730));
}

void TestIoUnitCheck::dleTritonTableKeepsEveryLatency()
{
    auto read = test::readFixture(QStringLiteral("dle/tft_triton_offline.csv"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("dle_table"));
    QVERIFY2(read->provenance.warnings.empty(),
             qPrintable(test::warningLines(*read).join(QLatin1Char('\n'))));
    const auto& table = sweepOf(*read);
    QCOMPARE(table.loadAxis, data::LoadAxis::Concurrency);
    QCOMPARE(table.points.size(), std::size_t(7));
    const auto& first = table.points[0];
    QCOMPARE(first.batchSize, 1);
    QVERIFY(near(*first.throughputPerS, 416.5));
    QVERIFY(near(*first.latencyP50S, 2.4e-3));
    QVERIFY(near(*first.latencyP90S, 2.5e-3));
    QVERIFY(near(*first.latencyP95S, 2.5e-3));
    QVERIFY(near(*first.latencyP99S, 2.6e-3));
    QVERIFY(near(*first.latencyMeanS, 2.4e-3));
    QVERIFY(near(*table.points[6].latencyP99S, 6.1e-3));
}

void TestIoUnitCheck::dleInferenceTablesMapPercentiles()
{
    auto bert = test::readFixture(QStringLiteral("dle/bert_tf2_squad_inference.csv"));
    BS_VERIFY_READ(bert);
    QCOMPARE(bert->provenance.reader, std::string("dle_table"));
    QVERIFY2(bert->provenance.warnings.empty(),
             qPrintable(test::warningLines(*bert).join(QLatin1Char('\n'))));
    const auto& table = sweepOf(*bert);
    QCOMPARE(table.loadAxis, data::LoadAxis::None);
    QCOMPARE(table.points.size(), std::size_t(3));
    const auto& big = table.points[1];
    QCOMPARE(big.batchSize, 256);
    QVERIFY(near(*big.throughputPerS, 886.0));
    QVERIFY(near(*big.latencyMeanS, 276.26e-3));
    QVERIFY(near(*big.latencyP90S, 274.53e-3));
    QVERIFY(near(*big.latencyP95S, 275.276e-3));
    QVERIFY(near(*big.latencyP99S, 275.946e-3));
    QVERIFY(!big.latencyP50S);

    auto convnet = test::readFixture(QStringLiteral("dle/convnet_inference.csv"));
    BS_VERIFY_READ(convnet);
    QCOMPARE(convnet->provenance.reader, std::string("dle_table"));
    QVERIFY(convnet->provenance.warnings.empty());
    QVERIFY(near(*sweepOf(*convnet).points[4].throughputPerS, 5480.0));
    QVERIFY(near(*sweepOf(*convnet).points[4].latencyP99S, 92.16e-3));
}

void TestIoUnitCheck::dleHeadersOfOtherTablesAreNotDle()
{
    // perf_analyzer's own header has no units; a sweep with one latency column is generic.
    auto pa = io::detectFormatFromHead("Batch,Concurrency,Inferences/Second,p50 latency,"
                                       "p99 latency,avg latency\n1,1,270.5,3690,3730,3688\n",
                                       "pa.csv", true);
    QVERIFY(pa);
    QCOMPARE(pa->reader, std::string("perf_analyzer"));
    auto generic =
        io::detectFormatFromHead("batch,throughput,p99 latency (ms)\n1,100,9\n", "g.csv", true);
    QVERIFY(generic);
    QCOMPARE(generic->reader, std::string("sweep_csv"));
    auto dle = io::detectFormatFromHead("Batch size,Throughput Avg,Latency Avg (ms),"
                                        "Latency 99% (ms)\n1,101,9.87,9.86\n",
                                        "d.csv", true);
    QVERIFY(dle);
    QCOMPARE(dle->reader, std::string("dle_table"));
}

QTEST_APPLESS_MAIN(TestIoUnitCheck)
#include "tst_io_unitcheck.moc"
