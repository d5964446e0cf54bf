// `batchscope-cli validate`: a real MLPerf Server run predicted from its Offline result and
// harness settings, printed beside what was measured, with every assumption.
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
};

QTEST_GUILESS_MAIN(TestCliValidate)
#include "tst_clivalidate.moc"
