// Predicted beside measured in the GUI (issue 17): the Model menu's perf_analyzer check shows
// the same rows, errors and assumptions as `batchscope-cli validate` computes (core
// analysis::validatePerfAnalyzer), on the real TFT online sweep.
#include "analysis/perfanalyzervalidation.h"
#include "appimport.h"
#include "charts/chartpanel.h"
#include "document/projectdocument.h"
#include "import/importcontroller.h"
#include "jobs/jobrunner.h"
#include "mainwindow.h"
#include "panels/datasetpanel.h"
#include "panels/validationdialog.h"
#include "state/settings.h"
#include "testsupport.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

using namespace bs;

class TestValidationDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void realTftSweepPredictedBesideMeasuredAsTheCoreDoes();
    void sweepWithoutServerColumnsSaysWhatIsMissing();
    void tritonConfigFillsTheSettingsOrSaysWhy();
    void checkpointStatesItsOwnSettings();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<widgets::Settings> m_settings;
    int m_settingsFiles = 0;
};

void TestValidationDialog::init()
{
    m_settings = std::make_unique<widgets::Settings>(
        m_dir.filePath(QStringLiteral("settings-%1.ini").arg(++m_settingsFiles)));
}

void TestValidationDialog::realTftSweepPredictedBesideMeasuredAsTheCoreDoes()
{
    BS_REQUIRE_SHARED_FILE(path,
                           QStringLiteral("triton/perf_analyzer/Mutinifni_DeepLearningExamples/"
                                          "PyTorch/Forecasting/TFT/runner_workspace/executor/"
                                          "shared/triton_performance_online.csv"));
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    QVERIFY(test::importInto(window, path));

    // Reached from the Model menu; the imported perf_analyzer sweep is the one chosen.
    QAction* action = nullptr;
    for (QAction* a : window.menuBar()->findChildren<QAction*>())
        if (a->text().contains(QStringLiteral("perf_analyzer")))
            action = a;
    QVERIFY(action);
    action->trigger();
    auto* dialog = window.findChild<widgets::ValidationDialog*>();
    QVERIFY(dialog);
    QCOMPARE(dialog->sweepPicker()->currentData().toString(),
             QString::fromStdString(window.document()->project().datasets.back().id));
    QSignalSpy shown(dialog, &widgets::ValidationDialog::predictionShown);
    // The TFT model ran with two instances and dynamic batching up to 1024 (its config.pbtxt,
    // as the README of core/accel states); fewer requests keep the test short.
    dialog->instances()->setValue(2);
    dialog->maxBatch()->setValue(1024);
    dialog->requests()->setValue(4000);
    dialog->predict();
    QVERIFY(shown.wait(240000));
    const auto result = dialog->result();
    QVERIFY2(result, qPrintable(dialog->summary()->text()));

    analysis::TritonModelSettings settings;
    settings.instances = 2;
    settings.maxBatchItems = 1024;
    const auto direct = analysis::validatePerfAnalyzer(
        *window.document()->project().datasets.back().sweep(), settings, 4000);
    QVERIFY(direct);
    QCOMPARE(result->rows.size(), direct->rows.size());
    for (std::size_t i = 0; i < result->rows.size(); ++i) {
        QCOMPARE(result->rows[i].predictedP99S, direct->rows[i].predictedP99S);
        QCOMPARE(result->rows[i].measuredItemsPerS, direct->rows[i].measuredItemsPerS);
    }
    QCOMPARE(dialog->rowTable()->rowCount(), int(result->rows.size()));
    const auto spread = analysis::summarizeResiduals(*result);
    const QString p99Median =
        QLocale().toString(spread.p99.medianAbs * 100.0, 'f', 1) + QLatin1Char('%');
    QVERIFY2(dialog->summary()->text().contains(QStringLiteral("p99 median |error| ") + p99Median),
             qPrintable(dialog->summary()->text()));
    QVERIFY(dialog->assumptions()->toPlainText().contains(QStringLiteral("concurrency")));
    // Measured and predicted side by side: a pair of lines per figure and run.
    const auto& throughput = dialog->panels()[0]->content();
    QVERIFY(throughput.series.size() >= 2);
    QCOMPARE(throughput.series[0].data.points.size(), throughput.series[1].data.points.size());
    QVERIFY(throughput.series[0].data.name.endsWith(QStringLiteral("measured")));
    QVERIFY(throughput.series[1].data.name.endsWith(QStringLiteral("predicted")));
    dialog->close();
}

void TestValidationDialog::sweepWithoutServerColumnsSaysWhatIsMissing()
{
    // The demo's sweeps are request-rate sweeps without perf_analyzer's server columns.
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    auto* dialog = window.openValidationDialog();
    QVERIFY(dialog);
    QSignalSpy shown(dialog, &widgets::ValidationDialog::predictionShown);
    if (!dialog->result() && !dialog->summary()->text().startsWith(QStringLiteral("No ")))
        QVERIFY(shown.wait(60000));
    QVERIFY(!dialog->result());
    const QString text = dialog->summary()->text();
    QVERIFY2(text.startsWith(QStringLiteral("No prediction: ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("row 1: the column \"Server Compute Input\" is "
                                          "missing")),
             qPrintable(text));
    dialog->close();
}

void TestValidationDialog::tritonConfigFillsTheSettingsOrSaysWhy()
{
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    auto* dialog = window.openValidationDialog();
    QVERIFY(dialog);
    QTemporaryDir folder;
    const QString good = folder.filePath(QStringLiteral("config.pbtxt"));
    QFile out(good);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("max_batch_size: 1024\ninstance_group {\n  count: 2\n  kind: KIND_GPU\n}\n"
              "dynamic_batching {\n  preferred_batch_size: 512\n  preferred_batch_size: 1024\n"
              "  max_queue_delay_microseconds: 1\n}\n");
    out.close();
    QVERIFY(dialog->loadTritonConfig(good));
    QCOMPARE(dialog->instances()->value(), 2);
    QCOMPARE(dialog->maxBatch()->value(), 1024);
    QCOMPARE(dialog->preferred()->text(), QStringLiteral("512, 1024"));
    QCOMPARE(dialog->maxQueueDelayUs()->value(), 1.0);

    const QString bad = folder.filePath(QStringLiteral("bad.pbtxt"));
    QFile broken(bad);
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("max_batch_size: 8\ndynamic_batching {\n");
    broken.close();
    QVERIFY(!dialog->loadTritonConfig(bad));
    QCOMPARE(dialog->instances()->value(), 2); // unchanged
    QVERIFY2(dialog->summary()->text().contains(QStringLiteral("bad.pbtxt:2")),
             qPrintable(dialog->summary()->text()));
    QVERIFY(window.jobs()->waitForIdle(60000));
    dialog->close();
}

void TestValidationDialog::checkpointStatesItsOwnSettings()
{
    // A Model Analyzer checkpoint states each configuration's instances and batching: every row
    // runs under its own, the fields are not used (disabled, and the dialog says why), the
    // typical latency is the mean it keeps, and the no-load row that calibrates its series is
    // marked.
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    QVERIFY(test::importInto(
        window, test::testDataPath(QStringLiteral("model_analyzer_checkpoint/two_configs.ckpt"))));
    auto* dialog = window.openValidationDialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->sweepPicker()->currentData().toString(),
             QString::fromStdString(window.document()->project().datasets.back().id));
    QSignalSpy shown(dialog, &widgets::ValidationDialog::predictionShown);
    dialog->requests()->setValue(2000);
    dialog->predict();
    QVERIFY(shown.wait(60000));
    QVERIFY2(dialog->result(), qPrintable(dialog->summary()->text()));
    QCOMPARE(dialog->result()->rows.size(), std::size_t(3));
    QVERIFY(!dialog->settingsSource()->isHidden());
    QVERIFY(dialog->settingsSource()->text().contains(QStringLiteral("2 configuration(s)")));
    QVERIFY(!dialog->instances()->isEnabled());
    QVERIFY(!dialog->maxBatch()->isEnabled());
    QCOMPARE(dialog->rowTable()->horizontalHeaderItem(5)->text(),
             QStringLiteral("mean predicted / measured"));
    QCOMPARE(dialog->rowTable()->item(0, 0)->text(), QStringLiteral("1*"));
    QVERIFY(dialog->summary()->text().contains(QStringLiteral("mean median |error|")));
    QVERIFY(dialog->assumptions()->toPlainText().contains(
        QStringLiteral("demo/demo_config_0 (its model configuration in the file)")));
    // With BATCHSCOPE_SCREENSHOT_DIR set, the dialog as a user sees it.
    if (const QString dir = qEnvironmentVariable("BATCHSCOPE_SCREENSHOT_DIR"); !dir.isEmpty())
        QVERIFY(dialog->grab().save(dir + QStringLiteral("/validation-checkpoint.png")));
    QVERIFY(window.jobs()->waitForIdle(60000));
    dialog->close();
}

QTEST_MAIN(TestValidationDialog)
#include "tst_validationdialog.moc"
