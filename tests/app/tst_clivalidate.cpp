// Checking the model against what was measured, from the command line: `batchscope-cli
// validate` (a real MLPerf Server run predicted from its Offline result and harness settings,
// beside what was measured, with every assumption) and `fit --fit-max-batch/--predict` (a fit
// asked about batch sizes it did not see, with 90% prediction intervals).
#include "clirun.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using bs::test::CliRun;
using bs::test::runCli;

namespace {

/// A perf_analyzer CSV of the real TFT runs in the shared data folder.
QString tftSweep(const QString& shared, const QString& name)
{
    return shared +
           QStringLiteral("/triton/perf_analyzer/Mutinifni_DeepLearningExamples/PyTorch/"
                          "Forecasting/TFT/runner_workspace/executor/shared/") +
           name;
}

} // namespace

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

    void perfAnalyzerRowsPredictedBesideMeasured()
    {
        // The TFT concurrency sweep with its deployment's settings (2 instances, max batch
        // 1024, preferred 512/1024, 1 µs delay): every row predicted, the residuals summarised
        // and every assumed setting printed. tst_perfanalyzervalidation checks the accuracy.
        BS_REQUIRE_SHARED_DATA(shared);
        const QStringList args =
            QStringList{QStringLiteral("validate"),
                        tftSweep(shared, QStringLiteral("triton_performance_online.csv"))} +
            QStringLiteral("--instances 2 --max-batch 1024 --preferred 512,1024 "
                           "--max-queue-delay-us 1 --requests 5000")
                .split(QLatin1Char(' '));
        const CliRun text = runCli(args);
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("Residuals over 32 row(s):"));
        QVERIFY(text.out.contains("2 model instance(s)"));
        QVERIFY(text.out.contains("max_batch_size 1024 items, preferred sizes [512, 1024]"));
        const CliRun json = runCli(args + QStringList{QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
        const QJsonArray rows = doc[QStringLiteral("rows")].toArray();
        QCOMPARE(rows.size(), 32);
        const QJsonObject first = rows[0].toObject();
        QCOMPARE(first[QStringLiteral("concurrency")].toInt(), 8);
        QCOMPARE(first[QStringLiteral("throughput_per_s")][QStringLiteral("measured")].toDouble(),
                 8032.0);
        QVERIFY(doc[QStringLiteral("assumptions")].toArray().size() >= 5);
    }

    void perfAnalyzerFixtureStatesTritonsDefaults()
    {
        // Without settings the command assumes Triton's defaults and says so; runs without the
        // shared data folder (a small hand-written sweep, tests/data/perf_analyzer).
        const QString file =
            bs::test::testDataPath(QStringLiteral("perf_analyzer/concurrency.csv"));
        const CliRun run = runCli({QStringLiteral("validate"), file, QStringLiteral("--requests"),
                                   QStringLiteral("2000")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("Residuals over 4 row(s):"), run.out.constData());
        QVERIFY(run.out.contains("1 model instance(s)"));
        QVERIFY(run.out.contains("no dynamic batching: every request is a batch of its own"));
    }

    void perfAnalyzerSettingsFromTheModelsConfig()
    {
        // --triton-config reads the settings from config.pbtxt; an option replaces its value.
        QTemporaryDir folder;
        const QString config = folder.filePath(QStringLiteral("config.pbtxt"));
        QFile out(config);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("max_batch_size: 64\ninstance_group [ { count: 3 kind: KIND_GPU } ]\n"
                  "dynamic_batching { preferred_batch_size: [ 8, 16 ] }\n");
        out.close();
        const QString file =
            bs::test::testDataPath(QStringLiteral("perf_analyzer/concurrency.csv"));
        const CliRun run =
            runCli({QStringLiteral("validate"), file, QStringLiteral("--triton-config"), config,
                    QStringLiteral("--instances"), QStringLiteral("2"),
                    QStringLiteral("--requests"), QStringLiteral("2000")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("2 model instance(s)"), run.out.constData());
        QVERIFY(run.out.contains("max_batch_size 64 items, preferred sizes [8, 16]"));
        const CliRun bad =
            runCli({QStringLiteral("validate"), file, QStringLiteral("--triton-config"),
                    folder.filePath(QStringLiteral("missing.pbtxt"))});
        QVERIFY(bad.exitCode != 0);
        QVERIFY(bad.err.contains("missing.pbtxt: cannot be read"));
    }

    void perfAnalyzerRequestRateRowsArePredicted()
    {
        // perf_analyzer's request-rate mode (open loop): arrivals at the row's rate, the time
        // outside the server added to the latencies, and the assumption says so.
        const QString file =
            bs::test::testDataPath(QStringLiteral("perf_analyzer/request_rate.csv"));
        const CliRun run = runCli({QStringLiteral("validate"), file, QStringLiteral("--requests"),
                                   QStringLiteral("2000")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(" 100/s |"), run.out.constData());
        QVERIFY(run.out.contains("p50 ms pred/meas"));
        QVERIFY(run.out.contains("request-rate rows: requests arrive at the row's rate"));
    }

    void modelAnalyzerCheckpointRunsEachConfigurationAsStated()
    {
        const QString file =
            bs::test::testDataPath(QStringLiteral("model_analyzer_checkpoint/two_configs.ckpt"));
        const QStringList args = {QStringLiteral("validate"), file, QStringLiteral("--requests"),
                                  QStringLiteral("2000")};
        const CliRun run = runCli(args);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("mean ms pred/meas"), run.out.constData());
        QVERIFY(run.out.contains("     1*demo/demo_config_0 "));
        QVERIFY(run.out.contains("configuration demo/demo_config_0 (its model configuration in "
                                 "the file): 2 model instance(s)"));
        const CliRun json = runCli(args + QStringList{QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonArray rows =
            QJsonDocument::fromJson(json.out).object()[QStringLiteral("rows")].toArray();
        QCOMPARE(rows.size(), 3);
        QVERIFY(rows[0].toObject().contains(QStringLiteral("mean_s")));
        QVERIFY(!rows[0].toObject().contains(QStringLiteral("p50_s")));
        QVERIFY(rows[0][QStringLiteral("calibrates_series")].toBool());
        // Settings given for a file that states its own would not be used: refused.
        const CliRun refused = runCli(
            {QStringLiteral("validate"), file, QStringLiteral("--instances"), QStringLiteral("4")});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("--instances is for perf_analyzer CSVs: a Model Analyzer "
                                      "checkpoint states each configuration's instances and "
                                      "batching"),
                 refused.err.constData());
    }

    void fitPredictsHeldOutBatchesWithIntervals()
    {
        BS_REQUIRE_SHARED_DATA(shared);
        const QString sweep = tftSweep(shared, QStringLiteral("triton_performance_offline.csv"));
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

    void fitReportsWhatTheSweepCannotPin()
    {
        // A perf_analyzer sweep at batch 1…24 whose time grows as 1.5 ms + 4 µs·b (±0.3%):
        // one straight line cannot say how host overhead, weight read, activation and compute
        // time split it. The text and the JSON carry the identifiability report: which
        // parameters are held at their prior, why, and where the value comes from.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("membound.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("Batch,Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,"
                   "Server Queue,Server Compute Input,Server Compute Infer,Server Compute "
                   "Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency,avg "
                   "latency\n");
        const int batches[] = {1, 2, 3, 4, 6, 8, 12, 16, 24};
        const double wobble[] = {0.002, -0.003, 0.001, -0.002, 0.003, -0.001, 0.002, -0.002, 0.001};
        for (int i = 0; i < 9; ++i) {
            const double us = (1500.0 + 4.0 * batches[i]) * (1.0 + wobble[i]);
            const QByteArray t = QByteArray::number(us, 'f', 1);
            file.write(QByteArray::number(batches[i]) + ",1," +
                       QByteArray::number(batches[i] / us * 1e6, 'f', 3) + ",0,0,0,0," + t +
                       ",0,0," + t + ',' + t + ',' + t + ',' + t + ',' + t + '\n');
        }
        file.close();
        const CliRun text = runCli({QStringLiteral("fit"), path});
        QCOMPARE(text.exitCode, 0);
        qInfo("%s", text.out.constData());
        QVERIFY(text.out.contains("\nIdentifiability: condition number "));
        QVERIFY(text.out.contains(" with every parameter free, "));
        QVERIFY(text.out.contains("\n  fixed  "));
        QVERIFY(text.out.contains("(the fit's starting value from the sweep's shape; no workload "
                                  "preset named)"));
        QVERIFY(text.out.contains("\n  pinned host_overhead_s ("));
        QVERIFY(text.out.contains("fixed  (prior: the sweep cannot pin it)"));
        const CliRun json = runCli({QStringLiteral("fit"), path, QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject id = QJsonDocument::fromJson(json.out)
                                   .object()[QStringLiteral("identifiability")]
                                   .toObject();
        QVERIFY(id[QStringLiteral("initial_condition_number")].toDouble() > 1e8 ||
                id[QStringLiteral("initially_singular")].toBool());
        const QJsonArray fixed = id[QStringLiteral("fixed")].toArray();
        QVERIFY(!fixed.isEmpty());
        for (const auto& f : fixed) {
            QVERIFY(!f[QStringLiteral("reason")].toString().isEmpty());
            QVERIFY(!f[QStringLiteral("prior_source")].toString().isEmpty());
        }
        QVERIFY(!id[QStringLiteral("lines")].toArray().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliValidate)
#include "tst_clivalidate.moc"
