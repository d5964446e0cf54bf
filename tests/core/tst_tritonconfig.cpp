// Reading a Triton model configuration (config.pbtxt, protobuf text format) for the
// perf_analyzer prediction (issue 17): the real TFT deployment's configuration as its runner log
// printed it, the list and repeated-field forms, Triton's defaults, and errors that name the
// file and line.
#include "analysis/tritonconfig.h"
#include "io/utf8text.h"
#include "testsupport.h"

#include <QFile>
#include <QtTest>

using namespace bs;

class TestTritonConfig : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realTftConfigFromItsRunnerLog();
    void listFormAndSeveralInstanceGroups();
    void withoutDynamicBatchingEachRequestRunsAlone();
    void badConfigsNameTheFileAndLine_data();
    void badConfigsNameTheFileAndLine();
    void fuzzFoundBytesThatAreNotUtf8StayOutOfTheMessage();
};

void TestTritonConfig::realTftConfigFromItsRunnerLog()
{
    BS_REQUIRE_SHARED_FILE(log,
                           QStringLiteral("triton/perf_analyzer/Mutinifni_DeepLearningExamples/"
                                          "PyTorch/Forecasting/TFT/runner_workspace/logs/"
                                          "runner.log"));
    QFile file(log);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    // Model Navigator prints the config.pbtxt it generated, up to the first empty line.
    const QString marker = QStringLiteral("Generated Triton config:\n");
    const qsizetype start = text.indexOf(marker);
    QVERIFY(start >= 0);
    const qsizetype from = start + marker.size();
    const QString config = text.mid(from, text.indexOf(QStringLiteral("\n\n"), from) - from);
    const auto settings = analysis::tritonSettingsFromConfig(config.toStdString(), "runner.log");
    QVERIFY2(settings, settings ? "" : settings.error().toString().c_str());
    QCOMPARE(settings->instances, 2);
    QCOMPARE(settings->maxBatchItems, 1024);
    QCOMPARE(settings->preferredBatchItems, (std::vector<int>{512, 1024}));
    QCOMPARE(settings->maxQueueDelayS, 1e-6);
}

void TestTritonConfig::listFormAndSeveralInstanceGroups()
{
    const std::string config = R"(name: "resnet50"  # a comment
platform: "tensorrt_plan"
max_batch_size: 64
instance_group [
  { count: 2 kind: KIND_GPU gpus: [ 0 ] },
  { count: 4, kind: KIND_CPU },
  { count: 3 }
]
dynamic_batching { preferred_batch_size: [ 8, 16 ] max_queue_delay_microseconds: 250 }
optimization { cuda { graphs: true } }
)";
    const auto settings = analysis::tritonSettingsFromConfig(config, "config.pbtxt");
    QVERIFY2(settings, settings ? "" : settings.error().toString().c_str());
    QCOMPARE(settings->instances, 5); // the CPU group does not share the GPU
    QCOMPARE(settings->maxBatchItems, 64);
    QCOMPARE(settings->preferredBatchItems, (std::vector<int>{8, 16}));
    QCOMPARE(settings->maxQueueDelayS, 250e-6);
}

void TestTritonConfig::withoutDynamicBatchingEachRequestRunsAlone()
{
    const auto settings =
        analysis::tritonSettingsFromConfig("max_batch_size: 32\n", "config.pbtxt");
    QVERIFY(settings);
    QCOMPARE(settings->instances, 1);     // Triton's default: one instance
    QCOMPARE(settings->maxBatchItems, 0); // no dynamic batcher: requests are not combined
}

void TestTritonConfig::badConfigsNameTheFileAndLine_data()
{
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("expected");
    QTest::newRow("negative max batch")
        << QStringLiteral("name: \"m\"\nmax_batch_size: -3\n")
        << QStringLiteral("config.pbtxt:2: max_batch_size: '-3' is not a whole number");
    QTest::newRow("unclosed message")
        << QStringLiteral("dynamic_batching {\n  max_queue_delay_microseconds: 5\n")
        << QStringLiteral("config.pbtxt:2: a message is not closed with '}'");
    QTest::newRow("preferred above max")
        << QStringLiteral("max_batch_size: 8\ndynamic_batching { preferred_batch_size: 16 }\n")
        << QStringLiteral("preferred_batch_size 16 is larger than max_batch_size 8");
    QTest::newRow("nested without end")
        << QStringLiteral("a {").repeated(100000)
        << QStringLiteral("config.pbtxt:1: messages nested more than 64 deep");
    QTest::newRow("field without value")
        << QStringLiteral("max_batch_size:\n}")
        << QStringLiteral("config.pbtxt:2: expected a value for 'max_batch_size'");
}

void TestTritonConfig::badConfigsNameTheFileAndLine()
{
    QFETCH(QString, config);
    QFETCH(QString, expected);
    const auto settings = analysis::tritonSettingsFromConfig(config.toStdString(), "config.pbtxt");
    QVERIFY(!settings);
    const QString message = QString::fromStdString(settings.error().toString());
    QVERIFY2(message.contains(expected), qPrintable(message));
}

// fuzz_triton_config: a field name with bytes that are not UTF-8 was quoted as it was.
void TestTritonConfig::fuzzFoundBytesThatAreNotUtf8StayOutOfTheMessage()
{
    QFile file(test::testDataPath(
        QStringLiteral("fuzz-regressions/fuzz_triton_config/invalid-utf8-field-name.pbtxt")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto settings =
        analysis::tritonSettingsFromConfig(file.readAll().toStdString(), "config.pbtxt");
    QVERIFY(!settings);
    QVERIFY(io::isValidUtf8(settings.error().message));
    QVERIFY2(settings.error().toString().rfind("config.pbtxt:", 0) == 0,
             settings.error().toString().c_str());
}

QTEST_APPLESS_MAIN(TestTritonConfig)
#include "tst_tritonconfig.moc"
