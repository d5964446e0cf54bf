// Fitting the accelerator model to a sweep from the GUI (issue 17): the Model dock's button
// opens the fit, which is the core's fit number for number, shows its uncertainty, residuals and
// identifiability findings, and "Use fitted model" calibrates the project's model as one undo
// step; choosing another preset afterwards drops the calibrated values.
#include "accel/presetlibrary.h"
#include "appimport.h"
#include "charts/chartpanel.h"
#include "document/projectdocument.h"
#include "import/importcontroller.h"
#include "jobs/jobrunner.h"
#include "mainwindow.h"
#include "panels/datasetpanel.h"
#include "panels/fitdialog.h"
#include "panels/modelpanel.h"
#include "state/settings.h"
#include "testsupport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QUndoStack>
#include <QtTest>

using namespace bs;

class TestFitDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void modelDockFitsTheDemoBaselineAsTheCoreDoes();
    void usingTheFitCalibratesTheModelAsOneUndoStep();
    void realPerfAnalyzerSweepFitsWithItsFindings();

private:
    widgets::FitDialog* openFromModelDock(gui::MainWindow& window);

    QTemporaryDir m_dir;
    std::unique_ptr<widgets::Settings> m_settings;
    int m_settingsFiles = 0;
};

void TestFitDialog::init()
{
    m_settings = std::make_unique<widgets::Settings>(
        m_dir.filePath(QStringLiteral("settings-%1.ini").arg(++m_settingsFiles)));
}

widgets::FitDialog* TestFitDialog::openFromModelDock(gui::MainWindow& window)
{
    auto* button = window.modelPanel()->findChild<QPushButton*>(QStringLiteral("fitToSweep"));
    if (!button)
        return nullptr;
    button->click();
    auto* dialog = window.findChild<widgets::FitDialog*>();
    if (!dialog)
        return nullptr;
    QSignalSpy shown(dialog, &widgets::FitDialog::fitShown);
    if (!dialog->result() && !shown.wait(60000))
        return nullptr;
    return dialog;
}

void TestFitDialog::modelDockFitsTheDemoBaselineAsTheCoreDoes()
{
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    auto* dialog = openFromModelDock(window);
    QVERIFY(dialog);
    // The demo's baseline is preselected; its workload is the Model dock's (resnet50).
    QCOMPARE(dialog->sweepPicker()->currentText(), QStringLiteral("Baseline: 400 W"));
    QVERIFY(dialog->workloadKnown()->isChecked());
    const auto fit = dialog->result();
    QVERIFY2(fit, qPrintable(dialog->summary()->text()));

    // The same fit as the core's on the same sweep, options and starting model.
    const data::Dataset& baseline = window.document()->project().datasets.at(0);
    auto start = accel::paramsFromJson(window.document()->project().model, "model", {},
                                       accel::PresetLibrary::builtIn());
    QVERIFY(start);
    accel::FitOptions options;
    options.start = *start;
    options.workloadKnown = true;
    const auto direct = accel::fitToSweep(*baseline.sweep(), options);
    QVERIFY(direct);
    QCOMPARE(fit->rSquared, direct->rSquared);
    QCOMPARE(fit->parameters.size(), direct->parameters.size());
    for (std::size_t i = 0; i < fit->parameters.size(); ++i)
        QCOMPARE(fit->parameters[i].value, direct->parameters[i].value);

    // What it shows: the summary's R², one row per parameter, measured points and the fitted
    // curve with its 90% interval, one residual per measured batch size.
    QVERIFY(dialog->summary()->text().contains(QStringLiteral("R² ")));
    QCOMPARE(dialog->parameterTable()->rowCount(), int(fit->parameters.size()));
    const auto& service = dialog->panels()[0]->content();
    QCOMPARE(service.series[0].data.points.size(), 9);
    QCOMPARE(service.series[0].data.points[0].y(), fit->points[0].measuredS * 1e3);
    QVERIFY(service.series.size() >= 3); // measured, fitted, interval
    const auto& residuals = dialog->panels()[1]->content();
    QCOMPARE(residuals.series[0].data.points.size(), 9);
    QCOMPARE(residuals.series[0].data.points[3].y(), fit->points[3].relativeResidual * 100.0);
    QVERIFY(residuals.series.size() == 2); // the demo sweep has power: its residuals too
    QVERIFY(!dialog->findings()->toPlainText().isEmpty());
    dialog->close();
}

void TestFitDialog::usingTheFitCalibratesTheModelAsOneUndoStep()
{
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    const nlohmann::json before = window.document()->project().model;
    auto* dialog = openFromModelDock(window);
    QVERIFY(dialog && dialog->result());
    const auto fit = dialog->result();
    QVERIFY(dialog->useButton()->isEnabled());
    dialog->useButton()->click();
    QCOMPARE(window.document()->project().model, accel::toJson(fit->params));
    QVERIFY(window.document()->project().model.contains("eta_compute"));
    auto* note = window.modelPanel()->calibrationNote();
    QVERIFY(!note->isHidden());
    QVERIFY2(note->text().contains(QStringLiteral("eta_compute")), qPrintable(note->text()));

    window.document()->undoStack()->undo();
    QCOMPARE(window.document()->project().model, before);
    QVERIFY(note->isHidden());

    // Calibrated, then another accelerator chosen: the calibrated values go with the old one.
    window.document()->undoStack()->redo();
    auto* accelerator = window.modelPanel()->findChild<QComboBox*>(QStringLiteral("accelerator"));
    QVERIFY(accelerator);
    const int other = accelerator->findData(QStringLiteral("h100-sxm"));
    QVERIFY(other >= 0);
    accelerator->setCurrentIndex(other);
    Q_EMIT accelerator->activated(other);
    QCOMPARE(window.document()->project().model["accelerator"].get<std::string>(),
             std::string("h100-sxm"));
    QVERIFY(!window.document()->project().model.contains("eta_compute"));
    QVERIFY(note->isHidden());
}

void TestFitDialog::realPerfAnalyzerSweepFitsWithItsFindings()
{
    BS_REQUIRE_SHARED_FILE(path,
                           QStringLiteral("triton/perf_analyzer/Mutinifni_DeepLearningExamples/"
                                          "PyTorch/Forecasting/TFT/runner_workspace/executor/"
                                          "shared/triton_performance_offline.csv"));
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    QVERIFY(test::importInto(window, path));
    const auto& datasets = window.document()->project().datasets;
    window.datasetPanel()->selectDataset(QString::fromStdString(datasets.back().id));
    auto* dialog = openFromModelDock(window);
    QVERIFY(dialog);
    QCOMPARE(dialog->sweepPicker()->currentData().toString(),
             QString::fromStdString(datasets.back().id));
    // TFT is not the Model dock's workload: fit its time terms instead.
    QSignalSpy shown(dialog, &widgets::FitDialog::fitShown);
    dialog->workloadKnown()->setChecked(false);
    QVERIFY(shown.wait(60000));
    const auto fit = dialog->result();
    QVERIFY2(fit, qPrintable(dialog->summary()->text()));
    QVERIFY(fit->rSquared > 0.95);
    QVERIFY(dialog->summary()->text().contains(QStringLiteral("fitted on batch 1–")));
    // Every parameter is fitted with a 1σ, held at a prior, or at a bound: the table says which.
    for (int row = 0; row < dialog->parameterTable()->rowCount(); ++row) {
        const QString status = dialog->parameterTable()->item(row, 3)->text();
        const QString sigma = dialog->parameterTable()->item(row, 2)->text();
        QVERIFY2(status.startsWith(QStringLiteral("held")) ||
                     status.startsWith(QStringLiteral("at ")) ||
                     sigma.startsWith(QStringLiteral("± ")),
                 qPrintable(status + QStringLiteral(" / ") + sigma));
    }
    QVERIFY(dialog->findings()->toPlainText().contains(QStringLiteral("condition")));

    // The file holds five runs: the second has its own eleven batch sizes; the third one point,
    // which is said rather than fitted.
    QCOMPARE(dialog->runPicker()->count(), 6);
    dialog->runPicker()->setCurrentIndex(2);
    Q_EMIT dialog->runPicker()->activated(2);
    QVERIFY(shown.wait(60000));
    QVERIFY2(dialog->result(), qPrintable(dialog->summary()->text()));
    QCOMPARE(dialog->result()->selection.run, 2);
    QVERIFY(dialog->summary()->text().contains(QStringLiteral("run 2 of 5")));
    dialog->runPicker()->setCurrentIndex(3);
    Q_EMIT dialog->runPicker()->activated(3);
    QVERIFY(shown.wait(60000));
    QVERIFY(!dialog->result());
    QVERIFY(!dialog->useButton()->isEnabled());
    QVERIFY2(dialog->summary()->text().contains(
                 QStringLiteral("run 3 of 5: 1 point at 1 batch size; a fit needs at least 3")),
             qPrintable(dialog->summary()->text()));

    // Used, the fitted TFT workload (inline time terms) is what the Model dock names.
    dialog->runPicker()->setCurrentIndex(2);
    Q_EMIT dialog->runPicker()->activated(2);
    QVERIFY(shown.wait(60000));
    dialog->useButton()->click();
    QVERIFY(window.document()->project().model["workload"].is_object());
    auto* workload = window.modelPanel()->findChild<QComboBox*>(QStringLiteral("workload"));
    QVERIFY(workload);
    QVERIFY2(workload->currentText().startsWith(QStringLiteral("Fitted: ")),
             qPrintable(workload->currentText()));
    QVERIFY(window.modelPanel()->calibrationNote()->text().contains(
        QStringLiteral("the workload's time terms")));
}

QTEST_MAIN(TestFitDialog)
#include "tst_fitdialog.moc"
