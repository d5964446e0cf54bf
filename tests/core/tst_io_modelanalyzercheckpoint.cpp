// The Model Analyzer checkpoint reader (io/modelanalyzercheckpoint.cpp): every measurement with
// perf_analyzer's server breakdown, and each configuration's Triton settings kept with the
// sweep. Hand-written fixtures in tests/data/model_analyzer_checkpoint, and the real
// checkpoints of Model Analyzer's own tests in the shared data folder.
#include "data/tritonsettings.h"
#include "iotesthelpers.h"
#include "testsupport.h"

#include <cmath>

using namespace bs;

namespace {

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}

QString realCheckpoint(const QString& shared, const char* folder)
{
    return shared + QStringLiteral("/triton/model_analyzer/tests/common/") + QLatin1String(folder) +
           QStringLiteral("/0.ckpt");
}

} // namespace

class TestIoModelAnalyzerCheckpoint : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsEveryMeasurementWithItsBreakdown()
    {
        auto read = test::readFixture(QStringLiteral("model_analyzer_checkpoint/two_configs.ckpt"));
        BS_VERIFY_READ(read);
        QCOMPARE(read->provenance.reader, std::string("model_analyzer_checkpoint"));
        const auto t = read->sweep();
        QCOMPARE(t->loadAxis, data::LoadAxis::Concurrency);
        QCOMPARE(t->points.size(), std::size_t(3));
        // Stored concurrency 2 before 1; read from the smallest load up.
        const auto& a = t->points[0];
        QCOMPARE(a.series, std::string("demo/demo_config_0"));
        QCOMPARE(a.batchSize, 1);
        QCOMPARE(*a.concurrency, 1.0);
        QCOMPARE(*a.throughputPerS, 1100.0);
        QVERIFY(near(*a.latencyMeanS, 0.9e-3));
        QVERIFY(near(*a.latencyP99S, 1.2e-3));
        QVERIFY(!a.latencyP50S); // a checkpoint keeps no p50
        QVERIFY(near(*a.serverQueueS, 0.02e-3));
        QVERIFY(near(*a.computeInputS, 0.1e-3));
        QVERIFY(near(*a.computeInferS, 0.5e-3));
        QVERIFY(near(*a.computeOutputS, 0.08e-3));
        // Outside the server: send/recv + (response wait - queue - input - infer - output).
        QVERIFY(near(*a.clientOverheadS, (0.01 + (0.88 - 0.02 - 0.1 - 0.5 - 0.08)) * 1e-3));
        QCOMPARE(*a.powerW, 90.0);
        QCOMPARE(*a.memoryBytes, 1.5e9);
        QCOMPARE(*a.utilization, 0.2);
        QCOMPARE(*t->points[1].concurrency, 2.0);
        const auto& c = t->points[2];
        QCOMPARE(c.series, std::string("demo/demo_config_default"));
        QCOMPARE(c.batchSize, 2);
        QVERIFY(!c.powerW); // no GPU records: nothing invented
        QCOMPARE(t->metadata.at("gpu"), std::string("NVIDIA A10, NVIDIA A10"));
        QCOMPARE(t->metadata.at("model"), std::string("demo"));
    }

    void keepsEachConfigurationsSettings()
    {
        auto read = test::readFixture(QStringLiteral("model_analyzer_checkpoint/two_configs.ckpt"));
        BS_VERIFY_READ(read);
        const auto t = read->sweep();
        // Two instances pinned to one GPU; preferred sizes sorted; the queue delay written as
        // a string ("100", protobuf's 64-bit form).
        const auto tuned = data::tritonSettingsOf(*t, "demo/demo_config_0");
        QVERIFY(tuned);
        QCOMPARE(*tuned, (data::TritonModelSettings{2, 8, {4, 8}, 100e-6}));
        // No dynamic batching: each request runs alone whatever max_batch_size says; a group
        // without count or GPUs is one instance on each of the two GPUs.
        const auto plain = data::tritonSettingsOf(*t, "demo/demo_config_default");
        QVERIFY(plain);
        QCOMPARE(*plain, (data::TritonModelSettings{2, 0, {}, 0.0}));
        QVERIFY(!data::tritonSettingsOf(*t, "demo/unknown"));
        QCOMPARE(data::requestDistributionOf(*t, "demo/demo_config_0"),
                 data::RequestDistribution::Constant);
    }

    void readsRequestRateRunsAndTheirDistribution()
    {
        auto read =
            test::readFixture(QStringLiteral("model_analyzer_checkpoint/request_rate.ckpt"));
        BS_VERIFY_READ(read);
        const auto t = read->sweep();
        QCOMPARE(t->loadAxis, data::LoadAxis::RequestRate);
        QCOMPARE(*t->points[0].requestRatePerS, 50.0);
        QVERIFY(!t->points[0].concurrency);
        QCOMPARE(data::requestDistributionOf(*t, "demo/demo_config_1"),
                 data::RequestDistribution::Poisson);
        // dynamicBatching {}: Triton's batcher with its defaults.
        QCOMPARE(*data::tritonSettingsOf(*t, "demo/demo_config_1"),
                 (data::TritonModelSettings{1, 4, {}, 0.0}));
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expected");
        QTest::newRow("two models measured together")
            << "multi_model.ckpt"
            << "configuration \"a_config_0,b_config_0\" of model \"a,b\": a configuration of 2 "
               "models together; read Model Analyzer's CSV report "
               "(metrics-model-inference.csv) for multi-model runs";
        QTest::newRow("nothing measured yet")
            << "no_measurements.ckpt"
            << "the checkpoint holds no measurement (Model Analyzer had not measured a "
               "configuration yet when it wrote it)";
        QTest::newRow("a preferred batch size that is not a number")
            << "bad_preferred.ckpt"
            << "configuration \"demo_config_0\" of model \"demo\": "
               "\"dynamicBatching.preferredBatchSize\" holds \"four\"; expected whole numbers "
               "from 1";
    }

    void badInput()
    {
        QFETCH(QString, file);
        QFETCH(QString, expected);
        auto read = test::readFixtureAs(QStringLiteral("model_analyzer_checkpoint/") + file,
                                        "model_analyzer_checkpoint");
        QVERIFY(!read);
        QVERIFY2(read.error().path.find(file.toStdString()) != std::string::npos,
                 read.error().path.c_str());
        QCOMPARE(QString::fromStdString(read.error().message), expected);
    }

    void somethingElseIsNotACheckpoint()
    {
        auto read = test::readFixtureAs(QStringLiteral("llm/aiperf_small.json"),
                                        "model_analyzer_checkpoint");
        QVERIFY(!read);
        QVERIFY(read.error().message.find("not a Model Analyzer checkpoint") != std::string::npos);
    }

    void readsModelAnalyzersOwnCheckpoints()
    {
        BS_REQUIRE_SHARED_DATA(shared);
        auto concurrency =
            io::readDataset(realCheckpoint(shared, "single-model-ckpt").toStdString());
        BS_VERIFY_READ(concurrency);
        QCOMPARE(concurrency->provenance.reader, std::string("model_analyzer_checkpoint"));
        const auto c = concurrency->sweep();
        QCOMPARE(c->points.size(), std::size_t(16));
        QCOMPARE(c->metadata.at("gpu"), std::string("NVIDIA TITAN RTX"));
        // The same figures as Model Analyzer's CSV report of the same run
        // (golden-metrics-model-inference.csv: add_sub_config_3, batch 2, concurrency 2).
        const auto it = std::find_if(c->points.begin(), c->points.end(), [](const auto& p) {
            return p.series == "add_sub/add_sub_config_3" && p.batchSize == 2 &&
                   *p.concurrency == 2.0;
        });
        QVERIFY(it != c->points.end());
        QVERIFY(std::abs(*it->throughputPerS - 6967.9) < 0.1);
        QVERIFY(std::abs(*it->latencyP99S - 0.81e-3) < 1e-9);
        QCOMPARE(*data::tritonSettingsOf(*c, "add_sub/add_sub_config_3"),
                 (data::TritonModelSettings{2, 2, {}, 0.0}));
        QCOMPARE(*data::tritonSettingsOf(*c, "add_sub/add_sub_config_default"),
                 (data::TritonModelSettings{1, 0, {}, 0.0}));
        auto rate = io::readDataset(realCheckpoint(shared, "request-rate-ckpt").toStdString());
        BS_VERIFY_READ(rate);
        QCOMPARE(rate->sweep()->loadAxis, data::LoadAxis::RequestRate);
        QCOMPARE(rate->sweep()->points.size(), std::size_t(34));
        QCOMPARE(data::tritonSettingsOf(*rate->sweep(), "add_sub/add_sub_config_8")->instances, 5);
    }
};

QTEST_GUILESS_MAIN(TestIoModelAnalyzerCheckpoint)
#include "tst_io_modelanalyzercheckpoint.moc"
