#include "charts/chartpanel.h"
#include "document/projectdocument.h"
#include "io/readdataset.h"
#include "jobs/jobrunner.h"
#include "mainwindow.h"
#include "panels/modelpanel.h"
#include "panels/parametercontrol.h"
#include "state/settings.h"
#include "testsupport.h"
#include "views/simulationview.h"
#include "views/sweepview.h"
#include "workbench/workbenchcontroller.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSlider>
#include <QUndoStack>
#include <QtTest>

using namespace bs;
using namespace bs::widgets;

namespace {

/// The points of the series called `name` on one of the sweep view's panels.
QList<QPointF> seriesPoints(gui::MainWindow& window, int panel, const QString& name)
{
    const ChartContent content = window.sweepView()->panels()[panel]->content();
    for (const auto& series : content.series) {
        if (series.data.name == name)
            return series.data.points;
    }
    return {};
}

/// The p99 values of the simulated overlay on the sweep view's latency chart.
QList<QPointF> simulatedP99(gui::MainWindow& window)
{
    const ChartContent latency = window.sweepView()->panels()[1]->content();
    for (const auto& series : latency.series) {
        if (series.data.name == QStringLiteral("Simulated"))
            return series.data.points;
    }
    return {};
}

} // namespace

class TestWorkbench : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void movingASliderChangesThePlotAndUndoRestoresIt();
    void aSliderDragIsOneUndoStep();
    void modelOverlayFollowsThePowerCap();
    void modelOverlayMeansWhatTheCandidateSweepMeasured();
    void badScenarioIsShownNotCrashed();
    void replayingAnImportedTraceSimulatesItsRequests();

private:
    std::unique_ptr<gui::MainWindow> openDemo();
    QTemporaryDir m_dir;
    std::unique_ptr<Settings> m_settings;
};

void TestWorkbench::init()
{
    m_settings = std::make_unique<Settings>(m_dir.filePath(QStringLiteral("settings.ini")));
}

std::unique_ptr<gui::MainWindow> TestWorkbench::openDemo()
{
    auto window = std::make_unique<gui::MainWindow>(m_settings.get());
    QSignalSpy applied(window->workbench(), &WorkbenchController::resultsApplied);
    window->openInitial({});
    if (applied.isEmpty())
        applied.wait(60000);
    return window;
}

void TestWorkbench::movingASliderChangesThePlotAndUndoRestoresIt()
{
    auto window = openDemo();
    const QList<QPointF> before = simulatedP99(*window);
    QVERIFY2(!before.isEmpty(), "the demo's scenario produced no simulated curve");
    const QString summaryBefore = window->simulationView()->summaryText();

    QSignalSpy applied(window->workbench(), &WorkbenchController::resultsApplied);
    ParameterControl* rate = window->modelPanel()->control(QStringLiteral("rate"));
    QVERIFY(rate);
    rate->spinBox()->setValue(rate->value() * 1.5);
    QVERIFY(applied.wait(60000));
    const QList<QPointF> after = simulatedP99(*window);
    QVERIFY(after != before);
    QVERIFY(window->simulationView()->summaryText() != summaryBefore);

    window->document()->undoStack()->undo();
    QVERIFY(applied.wait(60000));
    // Same scenario, same seeds: bit-identical numbers come back.
    QCOMPARE(simulatedP99(*window), before);
    QCOMPARE(window->simulationView()->summaryText().section(QStringLiteral("Computed in"), 0, 0),
             summaryBefore.section(QStringLiteral("Computed in"), 0, 0));
}

void TestWorkbench::aSliderDragIsOneUndoStep()
{
    auto window = openDemo();
    QUndoStack* undo = window->document()->undoStack();
    const int steps = undo->count();
    ParameterControl* maxBatch = window->modelPanel()->control(QStringLiteral("maxBatch"));
    QVERIFY(maxBatch);
    const double original = maxBatch->value();
    QSlider* slider = maxBatch->slider();
    Q_EMIT slider->sliderPressed();
    for (int position : {100, 200, 300, 400})
        slider->setValue(position);
    Q_EMIT slider->sliderReleased();
    QCOMPARE(undo->count(), steps + 1);
    QVERIFY(maxBatch->value() != original);
    undo->undo();
    QCOMPARE(maxBatch->value(), original);
    QVERIFY(window->jobs()->waitForIdle(60000));
}

void TestWorkbench::modelOverlayFollowsThePowerCap()
{
    auto window = openDemo();
    auto modelPower = [&]() {
        const ChartContent power = window->sweepView()->panels()[3]->content();
        for (const auto& series : power.series) {
            if (series.data.name == QStringLiteral("Model"))
                return series.data.points;
        }
        return QList<QPointF>();
    };
    QSignalSpy applied(window->workbench(), &WorkbenchController::resultsApplied);
    nlohmann::json model = window->modelPanel()->model();
    model["power_cap_w"] = 150.0;
    window->document()->setSection(ProjectSection::Model, model, QStringLiteral("cap"));
    QVERIFY(applied.wait(60000));
    const auto capped = modelPower();
    QVERIFY(!capped.isEmpty());
    for (const QPointF& p : capped)
        QVERIFY2(p.y() <= 150.0 + 1e-6, qPrintable(QString::number(p.y())));
    QCOMPARE(window->sweepView()->panels()[3]->content().references.size(), 1);
}

void TestWorkbench::modelOverlayMeansWhatTheCandidateSweepMeasured()
{
    // Throughput, power and energy on both sides of the overlay are figures at the same
    // offered load: the model is drawn at the candidate sweep's request rate per batch, so
    // where the model describes the device that was measured the two lines coincide.
    auto window = openDemo();
    const data::Dataset* candidate = nullptr;
    for (const auto& dataset : window->document()->project().datasets)
        if (dataset.role == data::DatasetRole::Candidate && dataset.sweep())
            candidate = &dataset;
    QVERIFY(candidate);
    QVERIFY(window->sweepView()->caption()->text().contains(QStringLiteral("offered load")));
    const auto close = [](double model, double measured, double tolerance) {
        return std::abs(model - measured) <= tolerance * measured;
    };
    const auto throughput = seriesPoints(*window, 0, QStringLiteral("Model"));
    const auto energyMj = seriesPoints(*window, 2, QStringLiteral("Model"));
    const auto powerW = seriesPoints(*window, 3, QStringLiteral("Model"));
    QVERIFY(!throughput.isEmpty());
    int compared = 0;
    for (const auto& point : candidate->sweep()->points) {
        for (int i = 0; i < throughput.size(); ++i) {
            if (int(throughput[i].x()) != point.batchSize)
                continue;
            const QString at = QStringLiteral("batch %1").arg(point.batchSize);
            QVERIFY2(close(throughput[i].y(), *point.throughputPerS, 0.03), qPrintable(at));
            QVERIFY2(close(powerW[i].y(), *point.powerW, 0.05), qPrintable(at));
            QVERIFY2(close(energyMj[i].y(), *point.energyPerInferenceJ * 1e3, 0.05),
                     qPrintable(at));
            ++compared;
        }
    }
    // All nine measured batch sizes, 1 to 256, though the policy batches only up to 32.
    QVERIFY2(compared == 9, qPrintable(QString::number(compared)));
}

void TestWorkbench::badScenarioIsShownNotCrashed()
{
    auto window = openDemo();
    QSignalSpy applied(window->workbench(), &WorkbenchController::resultsApplied);
    nlohmann::json scenarios = window->document()->project().scenarios;
    scenarios[0]["policy"]["max_batch"] = 0;
    window->document()->setSection(ProjectSection::Scenarios, scenarios, QStringLiteral("bad"));
    QVERIFY(applied.wait(60000));
    QVERIFY2(window->simulationView()->summaryText().contains(
                 QStringLiteral("scenario.policy.max_batch")),
             qPrintable(window->simulationView()->summaryText()));
}

void TestWorkbench::replayingAnImportedTraceSimulatesItsRequests()
{
    // Issue 21: the Arrivals box could not replay an imported request trace.
    auto window = openDemo();
    auto trace = io::readDataset(
        test::testDataPath(QStringLiteral("request_trace/azure_replay_400.csv")).toStdString());
    QVERIFY2(trace, trace ? "" : trace.error().toString().c_str());
    window->document()->addDataset(*trace);
    auto* arrivals = window->modelPanel()->findChild<QComboBox*>(QStringLiteral("arrivals"));
    QVERIFY(arrivals);
    const int replay = arrivals->findText(QStringLiteral("Replay imported trace: ") +
                                              QString::fromStdString(trace->name),
                                          Qt::MatchStartsWith);
    QVERIFY2(replay >= 0, "no replay choice for the imported trace");

    QSignalSpy applied(window->workbench(), &WorkbenchController::resultsApplied);
    arrivals->setCurrentIndex(replay);
    Q_EMIT arrivals->activated(replay);
    QVERIFY(applied.wait(60000));
    const WorkbenchOutputs* outputs = window->workbench()->lastOutputs();
    QVERIFY(outputs);
    QVERIFY2(!outputs->simulationError,
             outputs->simulationError ? outputs->simulationError->toString().c_str() : "");
    QVERIFY(outputs->current);
    const sim::Result& result = *outputs->current;
    QVERIFY2(result.stability.stable, result.stability.reason.c_str());
    // Every replication measures the trace's requests, once each.
    QCOMPARE(result.latency.count, std::uint64_t(trace->requestTrace()->size()));
    QCOMPARE(result.scenario.warmupRequests, std::uint64_t(0));
}

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
