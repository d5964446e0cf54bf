// The workbench on an LLM server: the built-in LLM demo opens on the "LLM server" tab with the
// Model dock's LLM knobs; the view's operating point is the region's cell with the same knobs,
// number for number; a slider edit re-simulates it live as one undo step; a project without an
// LLM server says so. Screenshots of the tab when BATCHSCOPE_SCREENSHOT_DIR is set.
#include "analysis/llmregion.h"
#include "analysis/llmregionpack.h"
#include "analysis/projectregion.h"
#include "charts/chartpanel.h"
#include "charts/llmloadcharts.h"
#include "document/projectdocument.h"
#include "jobs/jobrunner.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/modelshape.h"
#include "mainwindow.h"
#include "models/datasetlistmodel.h"
#include "panels/llmmodelpanel.h"
#include "panels/messagebar.h"
#include "playbook/projectplaybook.h"
#include "state/settings.h"
#include "testsupport.h"
#include "views/llmregionpanel.h"
#include "views/llmserverview.h"
#include "views/summarytable.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QUndoStack>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace bs;

namespace {

analysis::LlmRegionSpec projectSpec(const gui::MainWindow& window)
{
    auto spec = analysis::llmRegionSpecOfProject(window.document()->project(), {});
    if (!spec || !spec->has_value())
        qFatal("the project has no LLM spec");
    return **spec;
}

bool waitForSimulation(gui::MainWindow& window)
{
    return window.jobs()->waitForIdle(60000) && window.llmServerView()->shownRun() != nullptr;
}

/// The project's LLM server set to the roofline scenario of Llama-3.1-8B on one H100 with a KV
/// cache sized from memory (tests/data/llmsim/roofline_8b_h100.json), as one edit; returns it.
llmsim::LlmScenario serveRooflineScenario(gui::MainWindow& window)
{
    auto json = llmsim::readScenarioFile(
        test::testDataPath(QStringLiteral("llmsim/roofline_8b_h100.json")).toStdString());
    Expected<llmsim::LlmScenario> scenario =
        json ? llmsim::llmScenarioFromJson(*json) : Expected<llmsim::LlmScenario>(json.error());
    if (!scenario)
        qFatal("%s", scenario.error().toString().c_str());
    analysis::LlmRegionSpec spec = projectSpec(window);
    spec.scenario = *scenario;
    spec.tensorParallel.clear();
    window.document()->setSection(widgets::ProjectSection::Llm, analysis::llmRegionSpecToJson(spec),
                                  QStringLiteral("serve Poisson arrivals on an H100"));
    return *scenario;
}

} // namespace

class TestLlmServerView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        // The LLM demo writes its simulated review runs under the user's data folder.
        QStandardPaths::setTestModeEnabled(true);
        m_settings = std::make_unique<widgets::Settings>(
            m_dir.filePath(QStringLiteral("settings-%1.ini").arg(++m_settingsFiles)));
    }

    void llmDemoOpensOnTheServerTabWithItsKnobs()
    {
        gui::MainWindow window(m_settings.get());
        window.resize(1600, 1000);
        window.openLlmDemo();
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(waitForSimulation(window));
        QVERIFY(window.views()->currentWidget()->isAncestorOf(window.llmServerView()));
        auto* knobs = window.findChild<QStackedWidget*>(QStringLiteral("modelKnobs"));
        QVERIFY(knobs);
        QCOMPARE(knobs->currentWidget(), static_cast<QWidget*>(window.llmModelPanel()));
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("Demo: Llama-3.1-8B")));
        // The message bar says which requests the demo serves, with or without the shared data.
        const QString note = window.findChild<widgets::MessageBar*>()->text();
        if (test::sharedDataDir().isEmpty()) {
            QVERIFY2(note.contains(QStringLiteral("fitted")), qPrintable(note));
        } else {
            QVERIFY2(note.contains(QStringLiteral("replays the 300 real requests")),
                     qPrintable(note));
            // The run is loaded: the Datasets dock counts its 300 request records.
            const auto& run = window.document()->project().datasets.front();
            QCOMPARE(widgets::DatasetListModel::rowsOf(run), qint64(300));
        }
        QVERIFY2(window.llmServerView()->headlineText().contains(
                     QStringLiteral("max_num_seqs 256, max_num_batched_tokens 2,048")),
                 qPrintable(window.llmServerView()->headlineText()));
        // The region over the demo's grid is computed when the project opens, by the same
        // function the CLI and the report use.
        QVERIFY(window.jobs()->waitForIdle(60000));
        const auto region = window.llmServerView()->regionPanel()->result();
        QVERIFY(region);
        auto expected = analysis::computeLlmRegion(projectSpec(window));
        QVERIFY(expected);
        QCOMPARE(region->cells.size(), expected->cells.size());
        QCOMPARE(region->feasible, expected->feasible);
        QCOMPARE(region->recommendation->cell, expected->recommendation->cell);
        if (const QByteArray dir = qgetenv("BATCHSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            const QString folder = QString::fromLocal8Bit(dir);
            QVERIFY(window.grab().save(folder + QStringLiteral("/llm-server-window.png")));
            QWidget* view = window.llmServerView();
            QVERIFY(view->grab().save(folder + QStringLiteral("/llm-server-view.png")));
        }
    }

    void operatingPointIsTheRegionsCellWithTheSameKnobs()
    {
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        const auto spec = projectSpec(window);
        auto region = analysis::computeLlmRegion(spec);
        QVERIFY2(region, region ? "" : region.error().toString().c_str());
        const analysis::LlmRegionCell* same = nullptr;
        for (const auto& c : region->cells)
            if (c.knobs.maxNumSeqs == spec.scenario.engine.maxNumSeqs &&
                c.knobs.maxNumBatchedTokens == spec.scenario.engine.maxNumBatchedTokens &&
                c.knobs.load == spec.scenario.arrivals.rateMultiplier)
                same = &c;
        QVERIFY(same);
        const auto& shown = window.llmServerView()->shownRun()->point.cell;
        QCOMPARE(int(shown.status), int(same->status));
        QCOMPARE(int(shown.binding), int(same->binding));
        QCOMPARE(shown.metrics.ttftP99Ms.value, same->metrics.ttftP99Ms.value);
        QCOMPARE(shown.metrics.tpotP99Ms.value, same->metrics.tpotP99Ms.value);
        QCOMPARE(shown.metrics.outputTokensPerS.value, same->metrics.outputTokensPerS.value);
        QCOMPARE(shown.metrics.powerPerGpuW.value, same->metrics.powerPerGpuW.value);
        QCOMPARE(shown.checks.size(), same->checks.size());
        // And the text the view shows carries those numbers.
        QVERIFY2(window.llmServerView()->checksText().contains(
                     QStringLiteral("TTFT p99 %1 ms")
                         .arg(widgets::numberText(same->metrics.ttftP99Ms.value))),
                 qPrintable(window.llmServerView()->checksText()));
    }

    void clickingARegionCellMovesTheOperatingPointThere()
    {
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        auto* panel = window.llmServerView()->regionPanel();
        const auto region = panel->result();
        QVERIFY(region);
        // A cell away from the demo's own knobs: 32 seats, budget 512, the grid's third load.
        const analysis::LlmRegionCell* target = nullptr;
        for (const auto& c : region->cells)
            if (c.knobs.maxNumSeqs == 32 && c.knobs.maxNumBatchedTokens == 512 &&
                c.at[std::size_t(analysis::LlmAxis::Load)] == 2)
                target = &c;
        QVERIFY(target);
        const int undoBefore = window.document()->undoStack()->count();
        Q_EMIT panel->cellActivated(target->index);
        QCOMPARE(window.document()->undoStack()->count(), undoBefore + 1);
        const auto moved = projectSpec(window).scenario;
        QCOMPARE(moved.engine.maxNumSeqs, 32);
        QCOMPARE(moved.engine.maxNumBatchedTokens, 512);
        QCOMPARE(moved.arrivals.rateMultiplier, target->knobs.load);
        QVERIFY(waitForSimulation(window));
        // The tab now judges exactly that cell, and the region stays: it is the same grid.
        const auto& shown = window.llmServerView()->shownRun()->point.cell;
        QCOMPARE(int(shown.status), int(target->status));
        QCOMPARE(shown.metrics.ttftP99Ms.value, target->metrics.ttftP99Ms.value);
        QCOMPARE(shown.metrics.tpotP99Ms.value, target->metrics.tpotP99Ms.value);
        QCOMPARE(panel->result(), region);
        window.document()->undoStack()->undo();
        QCOMPARE(projectSpec(window).scenario.engine.maxNumSeqs, 256);
        QVERIFY(waitForSimulation(window));
    }

    void loadChartsPutPowerInThePicture()
    {
        // Energy per output token and power per GPU over the loads are the load sweep's own
        // figures, and the power chart draws the demo's 300 W cap.
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        const auto sweep = window.llmServerView()->shownRun()->loadSweep;
        QVERIFY2(sweep, qPrintable(window.llmServerView()->shownRun()->loadSweepError));
        const auto energy = widgets::llmLoadEnergyChart(sweep.get(), {});
        const auto power = widgets::llmLoadPowerChart(sweep.get(), {});
        QCOMPARE(energy.series.size(), 1);
        QCOMPARE(power.series.size(), 1);
        qsizetype at = 0;
        for (const auto& cell : sweep->cells) {
            if (cell.status == analysis::LlmCellStatus::Refused)
                continue;
            QCOMPARE(energy.series[0].data.points[at].y(),
                     cell.metrics.energyPerOutputTokenJ.value);
            QCOMPARE(power.series[0].data.points[at].y(), cell.metrics.powerPerGpuW.value);
            QVERIFY(cell.metrics.powerPerGpuW.value <= 300.0);
            ++at;
        }
        QCOMPARE(energy.series[0].data.points.size(), at);
        QCOMPARE(power.references.size(), 1);
        QCOMPARE(power.references[0].value, 300.0);
        // Without a power model the charts say why instead of drawing nothing.
        auto noPower = *sweep;
        for (auto& cell : noPower.cells)
            cell.metrics.powerPerGpuW = cell.metrics.energyPerOutputTokenJ = sim::Estimate{};
        QVERIFY(widgets::llmLoadPowerChart(&noPower, {})
                    .emptyText.contains(QStringLiteral("No power model")));
    }

    void throughputChartMarksTheKnee()
    {
        // Output tokens/s over the load sweep: every simulated cell on the curve, split into
        // the loads that meet every limit and those that fail one, and the knee (the highest
        // load met) drawn where the sweep's capacity is; the checks text names it and what
        // fails beyond it.
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        const auto sweep = window.llmServerView()->shownRun()->loadSweep;
        QVERIFY2(sweep, qPrintable(window.llmServerView()->shownRun()->loadSweepError));
        const auto chart = widgets::llmLoadThroughputChart(sweep.get(), {});
        QVERIFY(chart.series.size() >= 2);
        const auto& curve = chart.series[0].data.points;
        qsizetype at = 0, met = 0;
        for (const auto& cell : sweep->cells) {
            if (cell.status == analysis::LlmCellStatus::Refused)
                continue;
            QCOMPARE(curve[at].x(), cell.knobs.load);
            QCOMPARE(curve[at].y(), cell.metrics.outputTokensPerS.value);
            met += cell.status == analysis::LlmCellStatus::Feasible ? 1 : 0;
            ++at;
        }
        QCOMPARE(curve.size(), at);
        QVERIFY(met >= 1 && met < at); // the demo's sweep crosses its knee
        QCOMPARE(chart.series[1].data.points.size(), met);
        const auto& capacity = sweep->capacity.front();
        QVERIFY(capacity.capacityCell && capacity.firstFailingCell);
        QCOMPARE(chart.references.size(), 1);
        QCOMPARE(chart.references[0].value, capacity.knobs.load);
        QVERIFY(chart.references[0].label.contains(QStringLiteral("knee")));
        QString checks;
        for (const QLabel* label : window.llmServerView()->findChildren<QLabel*>())
            if (label->text().contains(QStringLiteral("Knee at these knobs")))
                checks = label->text();
        QVERIFY2(checks.contains(QStringLiteral("the highest load met is")), qPrintable(checks));
        QVERIFY2(checks.contains(QStringLiteral(" fails ")), qPrintable(checks));
        // Without a sweep the chart says why instead of drawing nothing.
        QVERIFY(widgets::llmLoadThroughputChart(nullptr, QStringLiteral("not run"))
                    .emptyText.contains(QStringLiteral("not run")));
    }

    void itlCdfIsTheOperatingPointsOwnGaps()
    {
        // The ITL chart draws replication 0's gaps between tokens: its median is the median
        // the run's metrics report, to the sketch's resolution, and it reaches 1.
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        const auto run = window.llmServerView()->shownRun()->point.run;
        QVERIFY(run);
        const auto& itl = run->replications.front().itl;
        QVERIFY(itl.count > 1000);
        const auto panels = window.llmServerView()->chartPanels();
        QCOMPARE(panels.size(), 9);
        const widgets::ChartContent& chart = panels[1]->content();
        QVERIFY(chart.title.startsWith(QStringLiteral("Inter-token latency")));
        QCOMPARE(chart.series.size(), 1); // the demo runs at a tenth of the recorded load
        const auto& points = chart.series[0].data.points;
        QCOMPARE(points.back().y(), 1.0);
        const auto median = std::find_if(points.begin(), points.end(),
                                         [](const QPointF& p) { return p.y() >= 0.5; });
        QVERIFY(median != points.end());
        QVERIFY2(std::abs(median->x() - itl.p50S * 1e3) <= 0.008 * itl.p50S * 1e3,
                 qPrintable(QStringLiteral("CDF median %1 ms, metrics %2 ms")
                                .arg(median->x())
                                .arg(itl.p50S * 1e3)));
    }

    void regionHeatmapGoesIntoTheMemo()
    {
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        QVERIFY(window.jobs()->waitForIdle(60000));
        auto* heatmap = window.llmServerView()->regionPanel()->heatmapPanel();
        QVERIFY(heatmap->figure());
        heatmap->chartActions().last()->trigger();
        const auto stored = playbook::readStoredPlaybook(window.document()->project());
        QVERIFY(stored);
        QCOMPARE(stored->memo.evidence.size(), std::size_t(1));
        QVERIFY(stored->memo.evidence[0].figure.heatmap.has_value());
        QCOMPARE(stored->memo.evidence[0].figure.title, heatmap->figure()->title);
        QVERIFY2(stored->memo.evidence[0].source.find("LLM server") != std::string::npos,
                 stored->memo.evidence[0].source.c_str());
    }

    void budgetSliderResimulatesAsOneUndoStep()
    {
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        const double tpotBefore =
            window.llmServerView()->shownRun()->point.cell.metrics.tpotP99Ms.value;
        const int undoBefore = window.document()->undoStack()->count();
        auto sliders = window.llmModelPanel()->findChildren<QSlider*>();
        QSlider* budget = nullptr;
        for (QSlider* s : sliders)
            if (s->toolTip().startsWith(QStringLiteral("max_num_batched_tokens")))
                budget = s;
        QVERIFY(budget);
        const auto& steps = widgets::LlmModelPanel::budgetSteps();
        const auto at = [&steps](int tokens) {
            return int(std::find(steps.begin(), steps.end(), tokens) - steps.begin());
        };
        // A drag through two steps: one undo step, the project's knob follows.
        budget->setValue(at(4096));
        budget->setValue(at(256));
        QCOMPARE(window.document()->undoStack()->count(), undoBefore + 1);
        QCOMPARE(projectSpec(window).scenario.engine.maxNumBatchedTokens, 256);
        QVERIFY(waitForSimulation(window));
        const auto& after = *window.llmServerView()->shownRun();
        QCOMPARE(after.point.spec.scenario.engine.maxNumBatchedTokens, 256);
        QVERIFY(after.point.cell.metrics.tpotP99Ms.value != tpotBefore);
        // Live: the demo's operating point simulates well within a slider's tick.
        qInfo("demo operating point simulated in %.3f s", after.wallS);
        QVERIFY(after.wallS < 1.0);
        window.document()->undoStack()->undo();
        QCOMPARE(projectSpec(window).scenario.engine.maxNumBatchedTokens, 2048);
        QCOMPARE(budget->value(), at(2048));
        QVERIFY(waitForSimulation(window));
        QCOMPARE(window.llmServerView()->shownRun()->point.cell.metrics.tpotP99Ms.value,
                 tpotBefore);
    }

    void calibratingOnARateSweepIsOneUndoableEdit()
    {
        // "Calibrate…" (llmsim/rooflinesweepfile.h): refused with the reason where the arrivals
        // replay recorded requests (the demo's, with the shared data); on a Poisson scenario it
        // fits the roofline in the background, applies the step as one undo step, says what it
        // found and what it left out, and the evidence names the sweep. Changing the accelerator
        // forgets the calibration.
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        auto* panel = window.llmModelPanel();
        // With the shared data the demo replays the public run's requests: refused, and why;
        // without it the demo's arrivals are Poisson and the button is on.
        const bool replays =
            projectSpec(window).scenario.arrivals.kind == llmsim::LlmArrivalSpec::Kind::Replay;
        QCOMPARE(panel->calibrateButton()->isEnabled(), !replays);
        if (replays)
            QVERIFY2(panel->calibrateButton()->toolTip().contains(QStringLiteral("recorded "
                                                                                 "requests")),
                     qPrintable(panel->calibrateButton()->toolTip()));

        serveRooflineScenario(window);
        QVERIFY(waitForSimulation(window));
        QVERIFY(panel->calibrateButton()->isEnabled());
        QVERIFY(window.llmServerView()->shownRun()->point.evidence.ends_with(
            "roofline step, not calibrated to a measurement"));

        const int undoBefore = window.document()->undoStack()->count();
        panel->calibrateOn(test::testDataPath(QStringLiteral("llmsim/rate_sweep_small.jsonl")));
        QVERIFY(window.jobs()->waitForIdle(120000));
        QCOMPARE(window.document()->undoStack()->count(), undoBefore + 1);
        const auto step = projectSpec(window).scenario.step;
        QVERIFY2(step.calibratedOn.starts_with("rate sweep rate_sweep_small.jsonl (2 rates"),
                 step.calibratedOn.c_str());
        QVERIFY(std::abs(step.accelerator.etaCompute - 0.35) < 0.05);
        QVERIFY(step.overheadPerSeqMs > 0.04);
        const QString summary = panel->calibrationLabel()->text();
        QVERIFY2(summary.startsWith(QStringLiteral("Calibrated on rate_sweep_small.jsonl (2 runs")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Left out 4 req/s (sharegpt): mean prompt 120")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("time outside the server 0 → ")),
                 qPrintable(summary));
        QVERIFY(waitForSimulation(window));
        QVERIFY(window.llmServerView()->shownRun()->point.evidence.ends_with(
            "roofline step calibrated on " + step.calibratedOn));
        if (const QByteArray dir = qgetenv("BATCHSCOPE_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(window.grab().save(QString::fromLocal8Bit(dir) +
                                       QStringLiteral("/llm-calibrated-window.png")));

        QComboBox* accelerator = nullptr;
        for (QComboBox* box : panel->findChildren<QComboBox*>())
            if (box->findText(QStringLiteral("h200-sxm")) >= 0)
                accelerator = box;
        QVERIFY(accelerator);
        accelerator->setCurrentText(QStringLiteral("h200-sxm"));
        const auto moved = projectSpec(window).scenario.step;
        QVERIFY(moved.calibratedOn.empty());
        QCOMPARE(moved.overheadPerSeqMs, 0.0);
        QCOMPARE(moved.clientOverheadMs, 0.0);
        QCOMPARE(moved.accelerator.etaCompute, 0.7);
        // The summary goes with the calibration it describes.
        QVERIFY(panel->calibrationLabel()->isHidden());
        window.document()->undoStack()->undo();
        QCOMPARE(projectSpec(window).scenario.step, step);

        // A file that is no rate sweep: said, nothing applied.
        panel->calibrateOn(test::testDataPath(QStringLiteral("llmsim/azure_small.csv")));
        QVERIFY(window.jobs()->waitForIdle(60000));
        QVERIFY(panel->calibrationLabel()->text().startsWith(QStringLiteral("Not calibrated:")));
        QVERIFY(panel->calibrationLabel()->text().contains(QStringLiteral("azure_small.csv")));
        QCOMPARE(projectSpec(window).scenario.step, step);
    }

    void itlLimitFieldJudgesTheOperatingPoint()
    {
        // The dock's ITL p99 limit is optional ("none" at 0): set, it becomes the project's
        // limit and a check on the re-simulated operating point, with the simulated ITL p99 as
        // its value; back at "none", the check goes away again.
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        QVERIFY(!projectSpec(window).limits.maxItlP99Ms);
        const auto checksBefore = window.llmServerView()->shownRun()->point.cell.checks.size();
        QDoubleSpinBox* itl = nullptr;
        for (QDoubleSpinBox* f : window.llmModelPanel()->findChildren<QDoubleSpinBox*>())
            if (f->toolTip().startsWith(QStringLiteral("inter-token latency p99 limit")))
                itl = f;
        QVERIFY(itl);
        QCOMPARE(itl->value(), 0.0);
        QCOMPARE(itl->text(), QStringLiteral("none"));
        const int undoBefore = window.document()->undoStack()->count();
        itl->setValue(0.5);
        QCOMPARE(window.document()->undoStack()->count(), undoBefore + 1);
        QCOMPARE(projectSpec(window).limits.maxItlP99Ms.value_or(-1.0), 0.5);
        QVERIFY(waitForSimulation(window));
        const auto& cell = window.llmServerView()->shownRun()->point.cell;
        QCOMPARE(cell.checks.size(), checksBefore + 1);
        const auto check = std::find_if(cell.checks.begin(), cell.checks.end(), [](const auto& c) {
            return c.kind == analysis::LlmConstraint::ItlP99;
        });
        QVERIFY(check != cell.checks.end());
        QCOMPARE(check->limit, 0.5);
        QCOMPARE(check->value, cell.metrics.itlP99Ms.value);
        // No decode step of an 8B model on one GPU takes under half a millisecond.
        QVERIFY(!check->satisfied);
        QVERIFY(cell.status != analysis::LlmCellStatus::Feasible);
        // The load sweep's latency chart draws the limited ITL p99 beside TTFT and TPOT, each
        // point the sweep cell's own figure, and the limit as a line.
        const auto sweep = window.llmServerView()->shownRun()->loadSweep;
        QVERIFY(sweep);
        const auto latency = widgets::llmLoadLatencyChart(sweep.get(), {});
        QCOMPARE(latency.series.size(), 3);
        QCOMPARE(latency.series[2].data.name, QStringLiteral("ITL p99"));
        const auto served = std::find_if(sweep->cells.begin(), sweep->cells.end(), [](auto& c) {
            return c.status != analysis::LlmCellStatus::Refused;
        });
        QVERIFY(served != sweep->cells.end());
        QCOMPARE(latency.series[2].data.points.front().y(), served->metrics.itlP99Ms.value);
        QCOMPARE(latency.references.size(), 3);
        QCOMPARE(latency.references[2].value, 0.5);
        itl->setValue(0.0);
        QVERIFY(!projectSpec(window).limits.maxItlP99Ms);
        QVERIFY(waitForSimulation(window));
        QCOMPARE(window.llmServerView()->shownRun()->point.cell.checks.size(), checksBefore);
    }

    void sglangBudgetSliderSetsItsChunk()
    {
        // SGLang has no max_num_batched_tokens: with its policy the dock's budget slider is its
        // chunked_prefill_size, named so, and the operating point runs with what it shows.
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        auto* panel = window.llmModelPanel();
        QComboBox* policy = nullptr;
        for (QComboBox* box : panel->findChildren<QComboBox*>())
            if (box->findText(QStringLiteral("sglang")) >= 0)
                policy = box;
        QVERIFY(policy);
        policy->setCurrentText(QStringLiteral("sglang"));
        QVERIFY(waitForSimulation(window));
        const auto run = window.llmServerView()->shownRun();
        QCOMPARE(run->point.spec.scenario.engine.policy, std::string("sglang"));
        const auto* label = panel->findChild<QLabel*>(QStringLiteral("tokenBudgetLabel"));
        QVERIFY(label);
        QCOMPARE(label->text(), QStringLiteral("chunked_prefill_size"));
        QSlider* budget = nullptr;
        for (QSlider* s : panel->findChildren<QSlider*>())
            if (s->toolTip().startsWith(QStringLiteral("chunked_prefill_size")))
                budget = s;
        QVERIFY(budget);
        const auto& steps = widgets::LlmModelPanel::budgetSteps();
        const int stated = projectSpec(window).scenario.engine.chunkedPrefillSize;
        QCOMPARE(steps[std::size_t(budget->value())], stated);
        const double ttftBefore = run->point.cell.metrics.ttftP99Ms.value;
        budget->setValue(int(std::find(steps.begin(), steps.end(), 256) - steps.begin()));
        QCOMPARE(projectSpec(window).scenario.engine.chunkedPrefillSize, 256);
        QCOMPARE(window.document()->undoStack()->undoText(),
                 QStringLiteral("Set chunked_prefill_size"));
        QVERIFY(waitForSimulation(window));
        const auto& after = *window.llmServerView()->shownRun();
        QCOMPARE(after.point.cell.knobs.maxNumBatchedTokens, 256);
        QCOMPARE(analysis::llmCellScenario(after.point.spec, 0).engine.chunkedPrefillSize, 256);
        QVERIFY(after.point.cell.metrics.ttftP99Ms.value != ttftBefore);
        // Back to vllm_v1: the label names its knob again.
        policy->setCurrentText(QStringLiteral("vllm_v1"));
        QCOMPARE(label->text(), QStringLiteral("max_num_batched_tokens"));
    }

    void prefixCacheHitsCutTheTtft()
    {
        // The dock's "Prefix cache hits" (vllm_v1): 90% of each new prompt already cached turns
        // prefix caching on and prefills a tenth of each prompt, so the operating point's TTFT
        // p99 falls; one undo puts the scenario back.
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        const auto before = projectSpec(window).scenario.engine;
        QCOMPARE(before.policy, std::string("vllm_v1"));
        QCOMPARE(before.prefixCacheHitRate, 0.0);
        const double ttftBefore =
            window.llmServerView()->shownRun()->point.cell.metrics.ttftP99Ms.value;
        QDoubleSpinBox* hits = nullptr;
        for (QDoubleSpinBox* f : window.llmModelPanel()->findChildren<QDoubleSpinBox*>())
            if (f->toolTip().startsWith(QStringLiteral("prefix_cache_hit_rate")))
                hits = f;
        QVERIFY(hits);
        QVERIFY(hits->isEnabled());
        QCOMPARE(hits->text(), QStringLiteral("none"));
        const int undoBefore = window.document()->undoStack()->count();
        hits->setValue(90.0);
        QCOMPARE(window.document()->undoStack()->count(), undoBefore + 1);
        const auto after = projectSpec(window).scenario.engine;
        QCOMPARE(after.prefixCacheHitRate, 0.9);
        QVERIFY(after.enablePrefixCaching);
        QVERIFY(waitForSimulation(window));
        const double ttftAfter =
            window.llmServerView()->shownRun()->point.cell.metrics.ttftP99Ms.value;
        QVERIFY2(ttftAfter < 0.8 * ttftBefore,
                 qPrintable(QStringLiteral("%1 -> %2 ms").arg(ttftBefore).arg(ttftAfter)));
        window.document()->undoStack()->undo();
        QVERIFY(projectSpec(window).scenario.engine == before);
        QCOMPARE(hits->text(), QStringLiteral("none"));
        // Another policy: the field is off and says why.
        QComboBox* policy = nullptr;
        for (QComboBox* box : window.llmModelPanel()->findChildren<QComboBox*>())
            if (box->findText(QStringLiteral("sarathi")) >= 0)
                policy = box;
        QVERIFY(policy);
        policy->setCurrentText(QStringLiteral("sarathi"));
        QCOMPARE(projectSpec(window).scenario.engine.policy, std::string("sarathi"));
        QVERIFY(!hits->isEnabled());
        QVERIFY(hits->toolTip().contains(QStringLiteral("vllm_v1 policy only")));
    }

    void kvMemoryKnobsSizeTheCacheFromMemory()
    {
        // A scenario that sizes its KV cache from memory: the dock offers
        // gpu_memory_utilization instead of a block count, and tensor parallelism moves the
        // cache's split with the step's, as the region's tensor_parallel axis does.
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        auto spec = projectSpec(window);
        spec.scenario.engine.numGpuBlocks = 0;
        llmsim::KvMemorySpec memory;
        memory.modelConfig = llmsim::builtinModelConfig("llama-3.1-8b");
        memory.deviceMemoryGib = 23.99;
        memory.gpuMemoryUtilization = 0.9;
        spec.scenario.engine.kvMemory = memory;
        window.document()->setSection(widgets::ProjectSection::Llm,
                                      analysis::llmRegionSpecToJson(spec),
                                      QStringLiteral("size the cache from memory"));
        QVERIFY(waitForSimulation(window));
        const auto fields = window.llmModelPanel()->findChildren<QDoubleSpinBox*>();
        QDoubleSpinBox* share = nullptr;
        for (QDoubleSpinBox* f : fields)
            if (f->toolTip().startsWith(QStringLiteral("gpu_memory_utilization")))
                share = f;
        QVERIFY(share);
        QVERIFY(share->isEnabled());
        QCOMPARE(share->value(), 0.9);
        const auto blocksAt = [&window] {
            const auto run = window.llmServerView()->shownRun();
            return run && run->point.run ? run->point.run->scenario.engine.numGpuBlocks : -1;
        };
        const std::int64_t before = blocksAt();
        QVERIFY(before > 0);
        share->setValue(0.8);
        QCOMPARE(projectSpec(window).scenario.engine.kvMemory->gpuMemoryUtilization, 0.8);
        QVERIFY(waitForSimulation(window));
        QVERIFY2(blocksAt() < before, "less memory must give fewer KV blocks");
        // 60% of 24 GB cannot hold the 16 GB of bf16 weights and the runtime: the engine
        // would not start, and the view says so as the region refuses such a cell.
        share->setValue(0.6);
        QVERIFY(window.jobs()->waitForIdle(60000));
        const auto refused = window.llmServerView()->shownRun();
        QVERIFY(refused);
        QCOMPARE(refused->point.cell.status, analysis::LlmCellStatus::Refused);
        bool saidWhy = false;
        for (const QLabel* label : window.llmServerView()->findChildren<QLabel*>())
            saidWhy =
                saidWhy || (label->text().contains(QStringLiteral("refused by the engine")) &&
                            label->text().contains(QStringLiteral("leave no room for a KV block")));
        QVERIFY(saidWhy);
        share->setValue(0.8);
        QVERIFY(waitForSimulation(window));
        auto spins = window.llmModelPanel()->findChildren<QSpinBox*>();
        QSpinBox* tp = nullptr;
        for (QSpinBox* f : spins)
            if (f->maximum() == 64)
                tp = f;
        QVERIFY(tp);
        // Two GPUs need an interconnect for their all-reduces: refused until one is given.
        tp->setValue(2);
        QCOMPARE(projectSpec(window).scenario.step.tensorParallel, 1);
        QCOMPARE(tp->value(), 1);
        bool said = false;
        for (const QLabel* label : window.llmModelPanel()->findChildren<QLabel*>())
            said = said || (label->text().startsWith(QStringLiteral("Not applied:")) &&
                            label->text().contains(QStringLiteral("interconnect")));
        QVERIFY(said);
        QSpinBox* interconnect = nullptr;
        for (QSpinBox* f : spins)
            if (f->toolTip().startsWith(QStringLiteral("GPU-to-GPU")))
                interconnect = f;
        QVERIFY(interconnect);
        interconnect->setValue(64);
        tp->setValue(2);
        const auto after = projectSpec(window).scenario;
        QCOMPARE(after.step.tensorParallel, 2);
        QCOMPARE(after.engine.kvMemory->tensorParallel, 2);
        QCOMPARE(after.step.interconnectGbPerS, 64.0);
        QVERIFY(waitForSimulation(window));
    }

    void modelShapeAndAcceleratorReshapeTheStepAndItsKvCache()
    {
        // The Model dock's shape and accelerator pickers on a roofline step with a KV cache
        // sized from memory: the model's weights size the cache as well as the step, and the
        // GPU's memory comes with the GPU. Llama-3.1-70B's 141 GB of bf16 weights leave no KV
        // block in 90% of an H100's 80 GB (refused, as the engine would not start); on a
        // B200's 180 GB they leave room, and each decode step reads the 70B weights at 8 TB/s
        // (about 18 ms) where the 8B's took about 5 ms at 3.35 TB/s: TPOT p99 rises.
        gui::MainWindow window(m_settings.get());
        window.openLlmDemo();
        QVERIFY(waitForSimulation(window));
        const llmsim::LlmScenario scenario = serveRooflineScenario(window);
        QVERIFY(waitForSimulation(window));
        const double tpot8bH100 =
            window.llmServerView()->shownRun()->point.cell.metrics.tpotP99Ms.value;
        QComboBox* shape = nullptr;
        QComboBox* accelerator = nullptr;
        for (QComboBox* box : window.llmModelPanel()->findChildren<QComboBox*>()) {
            if (box->findText(QStringLiteral("llama-3.1-70b")) >= 0)
                shape = box;
            if (box->findText(QStringLiteral("b200")) >= 0)
                accelerator = box;
        }
        QVERIFY(shape && accelerator && shape->isEnabled() && accelerator->isEnabled());
        QCOMPARE(shape->currentText(), QStringLiteral("llama-3.1-8b"));
        QCOMPARE(accelerator->currentText(), QStringLiteral("h100-sxm"));

        const int undoBefore = window.document()->undoStack()->count();
        shape->setCurrentText(QStringLiteral("llama-3.1-70b"));
        QCOMPARE(window.document()->undoStack()->count(), undoBefore + 1);
        const std::string seventy = llmsim::builtinModelConfig("llama-3.1-70b");
        QCOMPARE(projectSpec(window).scenario.step.modelConfig, seventy);
        QCOMPARE(projectSpec(window).scenario.engine.kvMemory->modelConfig, seventy);
        QVERIFY(window.jobs()->waitForIdle(60000));
        const auto refused = window.llmServerView()->shownRun();
        QVERIFY(refused);
        QCOMPARE(refused->point.cell.status, analysis::LlmCellStatus::Refused);

        accelerator->setCurrentText(QStringLiteral("b200"));
        QCOMPARE(projectSpec(window).scenario.engine.kvMemory->deviceMemoryGib, 180.0);
        QVERIFY(waitForSimulation(window));
        const auto served = window.llmServerView()->shownRun();
        QVERIFY(served && served->point.cell.status != analysis::LlmCellStatus::Refused);
        const double tpot70bB200 = served->point.cell.metrics.tpotP99Ms.value;
        QVERIFY2(tpot70bB200 > 2.5 * tpot8bH100,
                 qPrintable(QStringLiteral("%1 -> %2 ms").arg(tpot8bH100).arg(tpot70bB200)));

        // Two undo steps bring back the 8B on the H100, cache and all.
        window.document()->undoStack()->undo();
        window.document()->undoStack()->undo();
        QVERIFY(projectSpec(window).scenario == scenario);
        QCOMPARE(shape->currentText(), QStringLiteral("llama-3.1-8b"));
        QCOMPARE(accelerator->currentText(), QStringLiteral("h100-sxm"));
    }

    void projectWithoutAnLlmServerSaysSo()
    {
        gui::MainWindow window(m_settings.get());
        window.openInitial({});
        QVERIFY(window.jobs()->waitForIdle(60000));
        QVERIFY(window.llmServerView()->shownRun() == nullptr);
        auto* knobs = window.findChild<QStackedWidget*>(QStringLiteral("modelKnobs"));
        QVERIFY(knobs->currentWidget() != static_cast<QWidget*>(window.llmModelPanel()));
        const auto labels = window.llmServerView()->findChildren<QLabel*>();
        bool said = false;
        for (const QLabel* label : labels)
            said = said || label->text().contains(QStringLiteral("studies no LLM server"));
        QVERIFY(said);
        // Opening the LLM demo afterwards switches the dock to the LLM knobs.
        window.openLlmDemo();
        QCOMPARE(knobs->currentWidget(), static_cast<QWidget*>(window.llmModelPanel()));
        QVERIFY(waitForSimulation(window));
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<widgets::Settings> m_settings;
    int m_settingsFiles = 0;
};

QTEST_MAIN(TestLlmServerView)
#include "tst_llmserverview.moc"
