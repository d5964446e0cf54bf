// Checking the model against what was measured, from the command line: `batchscope-cli
// validate` (a real MLPerf Server run predicted from its Offline result and harness settings,
// beside what was measured, with every assumption) and `fit --fit-max-batch/--predict` (a fit
// asked about batch sizes it did not see, with 90% prediction intervals).
#include "clirun.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using bs::test::CliRun;
using bs::test::runCli;

class TestCliValidate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void usageErrorsExitTwo()
    {
        const CliRun none = runCli({QStringLiteral("validate")});
        QCOMPARE(none.exitCode, 2);
        QVERIFY(none.err.contains("submitter's folder"));
        const CliRun noSystem = runCli({QStringLiteral("validate"), QStringLiteral("/tmp")});
        QCOMPARE(noSystem.exitCode, 2);
        QVERIFY(noSystem.err.contains("--system"));
    }

    void aFolderWithoutTheSubmissionNamesTheFile()
    {
        QTemporaryDir dir;
        const CliRun run = runCli({QStringLiteral("validate"), dir.path(),
                                   QStringLiteral("--system"), QStringLiteral("T4x8_TRT"),
                                   QStringLiteral("--benchmark"), QStringLiteral("resnet50"),
                                   QStringLiteral("--accelerator"), QStringLiteral("t4")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("configs/resnet50/Offline/config.json"), run.err.constData());
    }

    void t4x8PredictedBesideMeasured()
    {
        BS_REQUIRE_SHARED_DATA(shared);
        const QStringList args = {
            QStringLiteral("validate"),
            shared + QStringLiteral("/mlperf/inference_results_v0.7/closed/NVIDIA"),
            QStringLiteral("--system"),
            QStringLiteral("T4x8_TRT"),
            QStringLiteral("--benchmark"),
            QStringLiteral("resnet50"),
            QStringLiteral("--accelerator"),
            QStringLiteral("t4")};
        const CliRun text = runCli(args);
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("compared with 5 measured run(s)"));
        QVERIFY(text.out.contains("  p99 "));
        QVERIFY(text.out.contains("Assumed (nothing is fitted to the Server runs):"));
        QVERIFY(text.out.contains("gpu_inference_streams"));
        const CliRun json = runCli(args + QStringList{QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
        const QJsonObject p99 = doc[QStringLiteral("latency")][QStringLiteral("p99_s")].toObject();
        QCOMPARE(p99[QStringLiteral("measured_runs")].toArray().size(), 5);
        QVERIFY(std::abs(p99[QStringLiteral("relative_error")].toDouble()) <= 0.25);
        QCOMPARE(doc[QStringLiteral("devices")].toInt(), 8);
        QVERIFY(doc[QStringLiteral("assumptions")].toArray().size() >= 5);
    }

    void fitPredictsHeldOutBatchesWithIntervals()
    {
        BS_REQUIRE_SHARED_DATA(shared);
        const QString sweep =
            shared + QStringLiteral("/triton/perf_analyzer/Mutinifni_DeepLearningExamples/"
                                    "PyTorch/Forecasting/TFT/runner_workspace/executor/shared/"
                                    "triton_performance_offline.csv");
        const QStringList args = {QStringLiteral("fit"),
                                  sweep,
                                  QStringLiteral("--accelerator"),
                                  QStringLiteral("a100-sxm-80gb"),
                                  QStringLiteral("--fit-max-batch"),
                                  QStringLiteral("256"),
                                  QStringLiteral("--predict"),
                                  QStringLiteral("2048")};
        const CliRun text = runCli(args);
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("Predictions (90% prediction intervals; fitted batch 1-256)"));
        QVERIFY(text.out.contains("extrapolated, held out"));
        QVERIFY(text.out.contains("warning: predictions outside the fitted batch range"));
        const CliRun json = runCli(args + QStringList{QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonArray rows =
            QJsonDocument::fromJson(json.out).object()[QStringLiteral("predictions")].toArray();
        QCOMPARE(rows.size(), 3); // 512 and 1024 held out, 2048 asked for
        for (const auto& row : rows) {
            QVERIFY(row[QStringLiteral("extrapolated")].toBool());
            const QJsonArray interval = row[QStringLiteral("interval_s")].toArray();
            QCOMPARE(interval.size(), 2);
            if (row.toObject().contains(QStringLiteral("measured_s"))) {
                const double measured = row[QStringLiteral("measured_s")].toDouble();
                QVERIFY(measured >= interval[0].toDouble() && measured <= interval[1].toDouble());
            }
        }
        const CliRun bad = runCli(
            {QStringLiteral("fit"), sweep, QStringLiteral("--predict"), QStringLiteral("0.5")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("--predict"));
    }
};

QTEST_GUILESS_MAIN(TestCliValidate)
#include "tst_clivalidate.moc"
