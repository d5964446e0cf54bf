// Predicting a real MLPerf Server run from its Offline result and the harness settings alone
// (issue 17): the T4x8 v0.7 ResNet-50 submission in the shared data. Nothing is tuned to this
// system: the Offline throughput calibrates the T4 preset's kernel times, the harness configs
// give batch size, deque timeout and inference streams, and the five measured Server runs
// are only compared with.
#include "accel/model.h"
#include "analysis/mlperfvalidation.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace bs;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

class TestMlperfServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void harnessConfigErrorsNameFileAndKey()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("config.json")).toStdString();
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"T4x8": {"gpu_batch_size": -3}})");
        file.close();
        auto missing = analysis::readNvidiaHarnessConfig(path, "A100x1");
        QVERIFY(!missing);
        QVERIFY(missing.error().toString().find("A100x1") != std::string::npos);
        auto bad = analysis::readNvidiaHarnessConfig(path, "T4x8");
        QVERIFY(!bad);
        QVERIFY2(bad.error().toString().find("T4x8.gpu_batch_size") != std::string::npos,
                 bad.error().toString().c_str());
        QVERIFY(bad.error().toString().find(path) != std::string::npos);
    }

    void t4x8ServerFromOfflineAndHarness()
    {
        BS_REQUIRE_SHARED_DATA(shared);
        analysis::MlperfSubmissionQuery query;
        query.root = shared.toStdString() + "/mlperf/inference_results_v0.7/closed/NVIDIA";
        query.system = "T4x8_TRT";
        query.benchmark = "resnet50";
        auto model =
            accel::modelFromJson({{"accelerator", "t4"}, {"workload", "resnet50"}}, "model", "");
        QVERIFY(model);
        auto v = analysis::validateMlperfServer(query, model->params(), 300000, 5);
        QVERIFY2(v, v ? "" : v.error().toString().c_str());
        // What the harness configs and the system description say.
        QCOMPARE(v->devices, 8);
        QCOMPARE(v->built.scenario["policy"]["max_batch"].get<int>(), 26);
        QCOMPARE(v->built.scenario["servers"]["streams"].get<int>(), 2);
        QCOMPARE(v->measured.size(), std::size_t(5));
        QCOMPARE(v->measured.front().targetQps, 44500.0);
        QCOMPARE(v->offlineSamplesPerS, 48897.8);

        std::vector<double> p50, p99;
        for (const auto& run : v->measured) {
            p50.push_back(run.p50S);
            p99.push_back(run.p99S);
        }
        const double measuredP50 = median(p50);
        const double measuredP99 = median(p99);
        const double predictedP50 = v->predicted.latency.p50.value;
        const double predictedP99 = v->predicted.latency.p99.value;
        qInfo("T4x8 ResNet-50 Server at 44500 qps: predicted p50 %.2f ms, p99 %.2f ms; measured "
              "(median of 5 runs) p50 %.2f ms, p99 %.2f ms; p99 range %.2f-%.2f ms",
              predictedP50 * 1e3, predictedP99 * 1e3, measuredP50 * 1e3, measuredP99 * 1e3,
              *std::min_element(p99.begin(), p99.end()) * 1e3,
              *std::max_element(p99.begin(), p99.end()) * 1e3);
        for (const auto& line : v->built.assumptions)
            qInfo("  assumed: %s", line.c_str());
        QVERIFY2(std::abs(predictedP99 / measuredP99 - 1.0) <= 0.25, "p99 within ±25%");
        QVERIFY2(std::abs(predictedP50 / measuredP50 - 1.0) <= 0.20, "p50 within ±20%");
        // The spread the old one-batch-per-device model missed (it predicted p99/p50 ≈ 1.1).
        QVERIFY(predictedP99 / predictedP50 > 1.4);
    }

    void aMissingRunNamesTheFolder()
    {
        QTemporaryDir dir;
        analysis::MlperfSubmissionQuery query{dir.path().toStdString(), "T4x8_TRT", "resnet50", {}};
        auto model =
            accel::modelFromJson({{"accelerator", "t4"}, {"workload", "resnet50"}}, "model", "");
        QVERIFY(model);
        auto v = analysis::validateMlperfServer(query, model->params(), 1000, 2);
        QVERIFY(!v);
        QVERIFY2(v.error().toString().find("configs/resnet50/Offline/config.json") !=
                     std::string::npos,
                 v.error().toString().c_str());
    }
};

QTEST_APPLESS_MAIN(TestMlperfServer)
#include "tst_mlperfserver.moc"
