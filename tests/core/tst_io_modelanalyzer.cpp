#include "iotesthelpers.h"

using namespace bs;

class TestIoModelAnalyzer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void joinsGpuMetricsBesideTheInferenceFile();
    void readsRequestRateWithoutSibling();
    void readsServerOnly();
    void gpuFileAlone();
    void readsMultiModelPerCombination();
    void badInput_data();
    void badInput();
};

void TestIoModelAnalyzer::joinsGpuMetricsBesideTheInferenceFile()
{
    auto read =
        test::readFixture(QStringLiteral("model_analyzer/concurrency/metrics-model-inference.csv"));
    BS_VERIFY_READ(read);
    QCOMPARE(read->provenance.reader, std::string("model_analyzer"));
    QVERIFY(read->provenance.detectedBecause.find(
                "joined with GPU metrics from metrics-model-gpu.csv") != std::string::npos);
    const auto t = read->sweep();
    QCOMPARE(t->loadAxis, data::LoadAxis::Concurrency);
    QCOMPARE(t->points.size(), std::size_t(3));
    const auto& a = t->points[0];
    QCOMPARE(a.series, std::string("resnet/resnet_config_0"));
    QCOMPARE(a.batchSize, 4);
    QCOMPARE(*a.concurrency, 8.0);
    QCOMPARE(*a.throughputPerS, 1200.5);
    QCOMPARE(*a.latencyP99S, 0.0125);
    QCOMPARE(*a.latencyMeanS, 0.00925);
    QCOMPARE(*a.powerW, 280.0);      // two GPU rows summed
    QCOMPARE(*a.memoryBytes, 2.2e9); // MB -> bytes, summed
    QCOMPARE(*a.utilization, 0.4);   // % -> fraction, averaged
    // Same batch and concurrency, another config: joined with its own GPU row.
    const auto& c = t->points[2];
    QCOMPARE(c.series, std::string("resnet/resnet_config_1"));
    QCOMPARE(*c.powerW, 200.0);
    QCOMPARE(*c.utilization, 0.7);
    QCOMPARE(t->metadata.at("points_not_satisfying_constraints"), std::string("1"));
    QCOMPARE(t->metadata.at("layout"), std::string("model_inference"));
}

void TestIoModelAnalyzer::readsRequestRateWithoutSibling()
{
    auto read = test::readFixture(
        QStringLiteral("model_analyzer/request_rate/metrics-model-inference.csv"));
    BS_VERIFY_READ(read);
    const auto t = read->sweep();
    QCOMPARE(t->loadAxis, data::LoadAxis::RequestRate);
    QCOMPARE(*t->points[0].requestRatePerS, 32.0);
    QCOMPARE(*t->points[1].latencyP99S, 0.0015);
    QVERIFY(!t->points[0].powerW);
    QVERIFY(!t->metadata.count("joined_gpu_metrics"));
}

void TestIoModelAnalyzer::readsServerOnly()
{
    auto read = test::readFixture(QStringLiteral("model_analyzer/metrics-server-only.csv"));
    BS_VERIFY_READ(read);
    const auto t = read->sweep();
    QCOMPARE(t->points.size(), std::size_t(1)); // the empty last line is not a row
    QCOMPARE(*t->points[0].powerW, 56.1);
    QCOMPARE(*t->points[0].memoryBytes, 870e6);
    QCOMPARE(t->metadata.at("layout"), std::string("server_only"));
    QCOMPARE(t->points[0].series, std::string("triton-server on GPU-aaaa"));
}

void TestIoModelAnalyzer::gpuFileAlone()
{
    auto read =
        test::readFixture(QStringLiteral("model_analyzer/concurrency/metrics-model-gpu.csv"));
    BS_VERIFY_READ(read);
    const auto t = read->sweep();
    QCOMPARE(t->points.size(), std::size_t(4)); // one per GPU row
    QCOMPARE(*t->points[1].powerW, 130.0);
    QCOMPARE(t->points[1].series, std::string("resnet/resnet_config_0 on GPU-bbbb"));
}

// Regression: multi-model reports ("Batch" = "1,1", one row per model combination) failed to
// read; each row is now one point of its model combination.
void TestIoModelAnalyzer::readsMultiModelPerCombination()
{
    auto read =
        test::readFixture(QStringLiteral("model_analyzer/multi_model/metrics-model-inference.csv"));
    BS_VERIFY_READ(read);
    const auto t = read->sweep();
    QCOMPARE(t->points.size(), std::size_t(3));
    const auto& a = t->points[0];
    QCOMPARE(a.series, std::string("resnet50_libtorch_config_3 + vgg19_libtorch_config_2"));
    QCOMPARE(a.batchSize, 1);
    QCOMPARE(*a.concurrency, 3.0);      // 2 + 1 requests in flight
    QCOMPARE(*a.throughputPerS, 290.0); // the combination's total, not a model's share
    QCOMPARE(*a.latencyP99S, 0.0125);
    QCOMPARE(*a.powerW, 193.0);
    // Same configs and total load, the other split: joined with its own GPU row.
    QCOMPARE(*t->points[1].concurrency, 3.0);
    QCOMPARE(*t->points[1].powerW, 217.0);
    QCOMPARE(t->points[2].series,
             std::string("resnet50_libtorch_config_0 + vgg19_libtorch_config_0"));
    QCOMPARE(*t->points[2].concurrency, 2.0);
    QCOMPARE(t->metadata.at("models_per_point"), std::string("2"));
    QCOMPARE(t->metadata.at("points_not_satisfying_constraints"), std::string("1"));
}

void TestIoModelAnalyzer::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("errorFile");
    QTest::addColumn<QString>("expected");
    // Regression: the error named the sibling GPU file, not the file the user opened.
    QTest::newRow("non-numeric cell in the GPU file")
        << "bad_gpu/metrics-model-inference.csv"
        << "bad_gpu/metrics-model-inference.csv"
        << "0:0: cannot join the GPU metrics beside it: metrics-model-gpu.csv:3:59: column \"GPU "
           "Power Usage (W)\" holds \"n/a\", which is not a number (read without them with the "
           "reader option {\"gpu_metrics\": false})";
    QTest::newRow("models of a combination with different batch sizes")
        << "multi_model_batches.csv"
        << "multi_model_batches.csv"
        << "2:36: the models ran with different batch sizes (\"1,4\"); a sweep point has one "
           "batch size";
    QTest::newRow("negative latency")
        << "negative_latency.csv"
        << "negative_latency.csv"
        << "2:19: column \"p99 Latency (ms)\" holds -3; a negative value is not valid here";
}

void TestIoModelAnalyzer::badInput()
{
    QFETCH(QString, file);
    QFETCH(QString, errorFile);
    QFETCH(QString, expected);
    auto read = test::readFixture(QStringLiteral("model_analyzer/") + file);
    QVERIFY(!read);
    QCOMPARE(test::whereAndWhy(read.error()), expected);
    QCOMPARE(QFileInfo(QString::fromStdString(read.error().path)).canonicalFilePath(),
             QFileInfo(test::testDataPath(QStringLiteral("model_analyzer/") + errorFile))
                 .canonicalFilePath());
}

QTEST_APPLESS_MAIN(TestIoModelAnalyzer)
#include "tst_io_modelanalyzer.moc"
