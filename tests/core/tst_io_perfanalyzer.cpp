#include "iotesthelpers.h"
#include "util/sha256.h"

#include <cmath>

using namespace bs;

class TestIoPerfAnalyzer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void detectsAndReadsConcurrencySweep();
    void readsRequestRateLayout();
    void readsConcatenatedRunsWithCrlf();
    void readsVerboseGpuColumns();
    void gzipIsTransparent();
    void batchSizeOption();
    void badInput_data();
    void badInput();
    void cancelledReadStops();
    void progressReachesTheStoredSize();
};

void TestIoPerfAnalyzer::detectsAndReadsConcurrencySweep()
{
    const auto path = test::testDataPath(QStringLiteral("perf_analyzer/concurrency.csv"));
    auto detected = io::detectFormat(path.toStdString());
    QVERIFY(detected);
    QCOMPARE(detected->reader, std::string("perf_analyzer"));
    QCOMPARE(detected->reason, std::string("CSV header has \"Concurrency\" and "
                                           "\"Inferences/Second\" columns (Triton perf_analyzer "
                                           "-f)"));
    auto read = test::readFixture(QStringLiteral("perf_analyzer/concurrency.csv"));
    BS_VERIFY_READ(read);
    const auto table = read->sweep();
    QVERIFY(table);
    QCOMPARE(table->loadAxis, data::LoadAxis::Concurrency);
    QCOMPARE(table->points.size(), std::size_t(4));
    // File order is kept: perf_analyzer sorts rows by throughput, not by concurrency.
    QCOMPARE(*table->points[1].concurrency, 4.0);
    QCOMPARE(*table->points[1].throughputPerS, 2950.25);
    QCOMPARE(*table->points[1].latencyP99S, 1710e-6);
    QCOMPARE(*table->points[3].latencyP50S, 1950e-6);
    QVERIFY(!table->points[0].latencyMeanS); // the plain layout has no average column
    // The latency breakdown (µs): server columns as they are, client-side ones summed.
    QCOMPARE(*table->points[0].serverQueueS, 30e-6);
    QCOMPARE(*table->points[0].computeInputS, 40e-6);
    QCOMPARE(*table->points[0].computeInferS, 1000e-6);
    QCOMPARE(*table->points[0].computeOutputS, 20e-6);
    QVERIFY(std::abs(*table->points[0].clientOverheadS - (20 + 150 + 5) * 1e-6) < 1e-15);
    QCOMPARE(table->points[0].batchSize, 1);
    QCOMPARE(table->points[0].series, std::string());
    QCOMPARE(test::warningLines(*read),
             QStringList{QStringLiteral("1: no \"Batch\" column; batch size taken as 1 (set the "
                                        "reader option \"batch_size\" if perf_analyzer ran with "
                                        "-b)")});
    const auto& p = read->provenance;
    QCOMPARE(p.reader, std::string("perf_analyzer"));
    QCOMPARE(p.sizeBytes, std::uint64_t(QFileInfo(path).size()));
    QCOMPARE(p.sha256, *sha256OfFile(path.toStdString()));
    QCOMPARE(p.path, QFileInfo(path).absoluteFilePath().toStdString());
    QCOMPARE(p.detectedBecause, detected->reason);
    QCOMPARE(read->name, std::string("concurrency.csv"));
}

void TestIoPerfAnalyzer::readsRequestRateLayout()
{
    auto read = test::readFixture(QStringLiteral("perf_analyzer/request_rate.csv"));
    BS_VERIFY_READ(read);
    const auto table = read->sweep();
    QCOMPARE(table->loadAxis, data::LoadAxis::RequestRate);
    QCOMPARE(table->points.size(), std::size_t(2));
    QCOMPARE(*table->points[1].requestRatePerS, 200.0);
    QVERIFY(!table->points[1].concurrency);
    QCOMPARE(*table->points[1].latencyMeanS, 1020e-6);
    QCOMPARE(*table->points[1].latencyP95S, 1150e-6);
}

void TestIoPerfAnalyzer::readsConcatenatedRunsWithCrlf()
{
    auto read = test::readFixture(QStringLiteral("perf_analyzer/batch_runs.csv"));
    BS_VERIFY_READ(read);
    const auto table = read->sweep();
    QCOMPARE(table->points.size(), std::size_t(4));
    QCOMPARE(table->metadata.at("runs"), std::string("2"));
    const int batches[] = {1, 2, 4, 1};
    const char* series[] = {"run 1", "run 1", "run 1", "run 2"};
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(table->points[std::size_t(i)].batchSize, batches[i]);
        QCOMPARE(table->points[std::size_t(i)].series, std::string(series[i]));
    }
    QCOMPARE(*table->points[1].throughputPerS, 487.333);
    QCOMPARE(*table->points[3].latencyP99S, 4365e-6);
    QCOMPARE(*table->points[3].latencyMeanS, 3740e-6);
    QVERIFY(read->provenance.warnings.empty());
}

void TestIoPerfAnalyzer::readsVerboseGpuColumns()
{
    auto read = test::readFixture(QStringLiteral("perf_analyzer/verbose.csv"));
    BS_VERIFY_READ(read);
    const auto& p = read->sweep()->points;
    QCOMPARE(p.size(), std::size_t(2));
    QCOMPARE(*p[0].utilization, 0.3);   // mean over the two GPUs
    QCOMPARE(*p[0].powerW, 201.0);      // sum over the two GPUs
    QCOMPARE(*p[0].memoryBytes, 3.0e6); // sum over the two GPUs
    QCOMPARE(*p[1].utilization, 0.7);
    QCOMPARE(*p[1].powerW, 350.0);
    QCOMPARE(*p[1].latencyMeanS, 2200e-6);
}

void TestIoPerfAnalyzer::gzipIsTransparent()
{
    auto plain = test::readFixture(QStringLiteral("perf_analyzer/concurrency.csv"));
    auto gz = test::readFixture(QStringLiteral("perf_analyzer/concurrency.csv.gz"));
    BS_VERIFY_READ(plain);
    BS_VERIFY_READ(gz);
    QVERIFY(plain->sweep()->points == gz->sweep()->points);
    QVERIFY(plain->provenance.sha256 != gz->provenance.sha256); // hashes the stored bytes
    QCOMPARE(gz->provenance.reader, std::string("perf_analyzer"));
}

void TestIoPerfAnalyzer::batchSizeOption()
{
    auto read = test::readFixtureAs(QStringLiteral("perf_analyzer/concurrency.csv"),
                                    "perf_analyzer", {{"batch_size", 8}});
    BS_VERIFY_READ(read);
    for (const auto& p : read->sweep()->points)
        QCOMPARE(p.batchSize, 8);
    QVERIFY(read->provenance.warnings.empty());
    QCOMPARE(read->readerOptionsJson, std::string(R"({"batch_size":8})"));

    auto bad = test::readFixtureAs(QStringLiteral("perf_analyzer/concurrency.csv"), "perf_analyzer",
                                   {{"batch", 8}});
    QVERIFY(!bad);
    QCOMPARE(QString::fromStdString(bad.error().message),
             QStringLiteral("reader_options.batch: unknown key (known keys here: batch_size)"));
}

void TestIoPerfAnalyzer::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("expected");
    QTest::newRow("wrong header")
        << "bad_header.csv"
        << "perf_analyzer"
        << "1:1: not a perf_analyzer CSV header: there is no \"Inferences/Second\" column";
    QTest::newRow("non-numeric cell")
        << "non_numeric.csv"
        << ""
        << "3:3: column \"Inferences/Second\" holds \"abc\", which is not a number";
    QTest::newRow("negative latency")
        << "negative_latency.csv"
        << ""
        << "2:14: column \"p99 latency\" holds -1000; a negative value is not valid here";
    QTest::newRow("NaN") << "nan_latency.csv"
                         << ""
                         << "2:10: column \"p50 latency\" holds \"nan\", which is not a finite "
                            "number";
    QTest::newRow("short row") << "short_row.csv"
                               << ""
                               << "2:1: the row has 4 fields but the header has 5";
    QTest::newRow("empty, detected") << "empty.csv"
                                     << ""
                                     << "0:0: the file is empty";
    QTest::newRow("empty, forced") << "empty.csv"
                                   << "perf_analyzer"
                                   << "0:0: the file is empty";
    QTest::newRow("binary, detected")
        << "binary.csv"
        << ""
        << "2:0: binary data (a NUL byte) in what should be a text or JSON file";
    QTest::newRow("binary, forced")
        << "binary.csv"
        << "perf_analyzer"
        << "2:0: binary data (a NUL byte) in what should be a text file";
    QTest::newRow("truncated gzip")
        << "truncated.csv.gz"
        << "perf_analyzer"
        << "0:0: truncated gzip data: the stream ends after 100 compressed bytes without its end "
           "marker";
}

void TestIoPerfAnalyzer::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, format);
    QFETCH(QString, expected);
    auto read = test::readFixtureAs(QStringLiteral("perf_analyzer/") + file, format.toStdString());
    QVERIFY(!read);
    QCOMPARE(test::whereAndWhy(read.error()), expected);
    const auto path = test::testDataPath(QStringLiteral("perf_analyzer/") + file);
    QCOMPARE(QString::fromStdString(read.error().path), QFileInfo(path).absoluteFilePath());
}

void TestIoPerfAnalyzer::cancelledReadStops()
{
    CancelToken cancel;
    cancel.cancel();
    auto read = io::readDataset(
        test::testDataPath(QStringLiteral("perf_analyzer/concurrency.csv")).toStdString(), {},
        Progress::null(), cancel);
    QVERIFY(!read);
    QCOMPARE(read.error().code, ErrorCode::Cancelled);
}

void TestIoPerfAnalyzer::progressReachesTheStoredSize()
{
    std::vector<ProgressUpdate> updates;
    Progress progress([&updates](const ProgressUpdate& u) { updates.push_back(u); });
    const auto path = test::testDataPath(QStringLiteral("perf_analyzer/concurrency.csv.gz"));
    auto read = io::readDataset(path.toStdString(), {}, progress);
    BS_VERIFY_READ(read);
    QVERIFY(!updates.empty());
    QCOMPARE(updates.front().phase, std::string("Reading concurrency.csv.gz"));
    QCOMPARE(updates.back().total, std::uint64_t(QFileInfo(path).size()));
    QCOMPARE(updates.back().done, updates.back().total);
}

QTEST_APPLESS_MAIN(TestIoPerfAnalyzer)
#include "tst_io_perfanalyzer.moc"
