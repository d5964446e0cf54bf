// The Traces, Region and Sweep Δ views on the demo project, driven as a user does.
#include "charts/chartpanel.h"
#include "charts/chartview.h"
#include "charts/regioncelltext.h"
#include "charts/regionheatmap.h"
#include "charts/regionheatmappanel.h"
#include "document/projectdocument.h"
#include "jobs/jobrunner.h"
#include "mainwindow.h"
#include "playbook/projectplaybook.h"
#include "state/settings.h"
#include "testsupport.h"
#include "views/regionview.h"
#include "views/sweepview.h"
#include "views/traceview.h"

#include <QAction>
#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest>

using namespace bs;

class TestAnalysisViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void tracesViewAnalysesTheDemoTraceAndPowerLog();
    void regionViewComputesTheDemoRegionAndLoadsACell();
    void regionHeatmapHasTableExportMemoAndBindingConstraints();
    void badRegionInputIsReportedNotComputed();
    void sweepDeltaChartOfTheDemoGoesIntoTheMemo();
    void sweepTabShowsTheSlaBandAndTheRegionRecommendation();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<widgets::Settings> m_settings;
};

void TestAnalysisViews::init()
{
    m_settings =
        std::make_unique<widgets::Settings>(m_dir.filePath(QStringLiteral("settings.ini")));
}

void TestAnalysisViews::tracesViewAnalysesTheDemoTraceAndPowerLog()
{
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    QVERIFY(window.jobs()->waitForIdle(120000));
    auto* view = window.traceView();
    QCOMPARE(view->requestPicker()->currentText(), QStringLiteral("Production slice, 250 W cap"));
    QCOMPARE(view->powerPicker()->currentText(), QStringLiteral("Power log, 250 W cap"));
    QVERIFY(view->requestAnalysis());
    QCOMPARE(view->requestAnalysis()->requests, std::uint64_t(20000));

    // The CDF ends at probability 1 and its last x is the slowest request in milliseconds.
    const auto& cdf = view->panels()[0]->content();
    QVERIFY(!cdf.series.isEmpty());
    const auto& latency = cdf.series.front().data.points;
    QVERIFY(latency.size() > 100);
    QCOMPARE(latency.back().y(), 1.0);
    QVERIFY(qAbs(latency.back().x() - view->requestAnalysis()->latency.max * 1e3) < 1e-9);
    // p99 marker and its interval are drawn as vertical lines.
    QVERIFY(std::any_of(cdf.references.begin(), cdf.references.end(),
                        [](const widgets::ReferenceLine& line) {
                            return line.label.startsWith(QStringLiteral("p99 "));
                        }));

    // Regression: the view showed the fitted model's gap CV, `analyze` the measured one. Both
    // show the measured one now.
    QTableWidget* summary = view->requestSummary();
    QString gapCv;
    for (int row = 0; row < summary->rowCount(); ++row)
        if (summary->item(row, 0)->text() == QStringLiteral("Arrival gap CV"))
            gapCv = summary->item(row, 1)->text();
    QCOMPARE(gapCv, QLocale().toString(view->requestAnalysis()->arrivals.gapCv, 'g', 4));

    // Two streams in the per-stream table, with their request counts summing to the trace.
    QTableWidget* streams = view->streamTable();
    QCOMPARE(streams->rowCount(), 2);
    qulonglong total = 0;
    for (int row = 0; row < 2; ++row)
        total += QLocale().toULongLong(streams->item(row, 1)->text());
    QCOMPARE(total, qulonglong(20000));

    // The power log's story agrees with the project model: the light production slice and the
    // load test at the 250 W cap after it keep the GPU far under its slowdown point, and the
    // logged temperature is what the model's thermal RC predicts from the logged power (the
    // demo once showed a log 25 °C hotter than its own model, throttling where the model said
    // none could happen at 250 W).
    QVERIFY(view->thermalEvidence());
    QVERIFY(view->thermalEvidence()->available);
    const auto power = view->powerAnalysis();
    QVERIFY(power && power->model);
    QVERIFY2(power->model->agrees, power->model->verdict.c_str());
    QVERIFY(power->model->loggedMaxC < power->model->model.throttleC - 20.0);
    bool modelDrawn = false;
    for (auto* panel : view->panels())
        if (panel->content().title == QStringLiteral("Temperature: log and thermal model"))
            modelDrawn = panel->content().series.size() == 2 &&
                         panel->content().series[1].style == widgets::SeriesStyle::Dashed;
    QVERIFY(modelDrawn);
    bool powerDrawn = false;
    for (auto* panel : view->panels())
        if (panel->content().title == QStringLiteral("Board power"))
            powerDrawn = !panel->content().series.isEmpty() &&
                         panel->content().series.front().data.points.size() > 50;
    QVERIFY(powerDrawn);
}

void TestAnalysisViews::regionViewComputesTheDemoRegionAndLoadsACell()
{
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    auto* view = window.regionView();
    QSignalSpy shown(view, &widgets::RegionView::resultShown);
    view->compute();
    QVERIFY(window.jobs()->waitForIdle(240000));
    QVERIFY(!shown.isEmpty());
    QCOMPARE(shown.last().at(0).toBool(), true);
    const auto result = view->result();
    QVERIFY(result);
    // 7 max-batch values × 6 delays from the demo's region section.
    QCOMPARE(result->cells.size(), std::size_t(42));
    QVERIFY(result->summary.feasible > 0);
    QVERIFY(result->recommendation.has_value());
    QVERIFY(view->recommendationLabel()->text().contains(QStringLiteral("Recommended")));
    // Every feasible cell meets the demo's SLA of 15 ms.
    for (const auto& cell : result->cells)
        if (cell.status == analysis::CellStatus::Feasible)
            QVERIFY(cell.metrics.p99S.value <= 0.015);

    // Clicking the recommended cell on the heatmap loads its policy into the scenario; undo
    // restores the previous one.
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    for (QWidget* w = view; w; w = w->parentWidget())
        if (auto* tabs = qobject_cast<QTabWidget*>(w))
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->widget(i) == view || tabs->widget(i)->isAncestorOf(view))
                    tabs->setCurrentIndex(i);
    QVERIFY(view->heatmap()->isVisible());
    const auto& recommended = result->cells[result->recommendation->cell];
    std::optional<QPoint> target;
    auto* heatmap = view->heatmap();
    for (std::size_t column = 0; column < 7 && !target; ++column)
        for (std::size_t row = 0; row < 6 && !target; ++row)
            if (heatmap->cellAt(heatmap->cellRect(column, row).center()) == recommended.index)
                target = heatmap->cellRect(column, row).center();
    QVERIFY(target.has_value());
    const nlohmann::json before = window.document()->project().scenarios;
    QTest::mouseClick(heatmap, Qt::LeftButton, {}, *target);
    const nlohmann::json after = window.document()->project().scenarios;
    QVERIFY(after != before);
    const double maxBatch = result->spec.axes[0].values[recommended.axisIndex[0]];
    QCOMPARE(after[0]["policy"]["max_batch"].get<double>(), maxBatch);
    window.document()->undoStack()->undo();
    QCOMPARE(window.document()->project().scenarios, before);
    window.jobs()->cancelAll();
    QVERIFY(window.jobs()->waitForIdle(60000));
}

void TestAnalysisViews::regionHeatmapHasTableExportMemoAndBindingConstraints()
{
    // Issue 21: the heatmap had no Table / Export / Attach-to-memo / context menu like the
    // other charts, and its cells did not say which constraint binds.
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    auto* view = window.regionView();
    view->compute();
    QVERIFY(window.jobs()->waitForIdle(240000));
    const auto result = view->result();
    QVERIFY(result);
    widgets::RegionHeatmapPanel* panel = view->heatmapPanel();
    QStringList actions;
    for (QAction* action : panel->chartActions())
        actions << action->text();
    QCOMPARE(actions, (QStringList{QStringLiteral("Table"), QStringLiteral("Copy"),
                                   QStringLiteral("Export…"), QStringLiteral("Attach to memo")}));
    QCOMPARE(view->heatmap()->contextMenuPolicy(), Qt::CustomContextMenu);

    // The table: one row per cell of the 7 × 6 grid, the binding constraint in words.
    panel->chartActions()[0]->trigger();
    QVERIFY(panel->isShowingTable());
    QTableWidget* table = panel->table();
    QCOMPARE(table->rowCount(), 42);
    int bindingColumn = -1;
    for (int column = 0; column < table->columnCount(); ++column)
        if (table->horizontalHeaderItem(column)->text() == QStringLiteral("Binding constraint"))
            bindingColumn = column;
    QVERIFY(bindingColumn >= 0);
    const auto& recommended = result->cells[result->recommendation->cell];
    const QString recommendedBinding = widgets::bindingText(recommended);
    QVERIFY2(recommendedBinding.contains(QStringLiteral("margin")), qPrintable(recommendedBinding));
    bool found = false;
    for (int row = 0; row < table->rowCount(); ++row)
        found = found || table->item(row, bindingColumn)->text() == recommendedBinding;
    QVERIFY(found);
    // The tooltip says it too, and the cell shows its short label.
    QVERIFY(view->heatmap()
                ->describeCell(recommended)
                .contains(QStringLiteral("Binding: ") + recommendedBinding));
    QVERIFY(!widgets::bindingShortLabel(recommended).isEmpty());

    // Export in the three formats.
    panel->showTable(false);
    panel->resize(700, 500);
    const QString csvPath = m_dir.filePath(QStringLiteral("region.csv"));
    QVERIFY(panel->exportTo(csvPath));
    QCOMPARE(test::readFile(csvPath).count('\n'), 43);
    for (const char* name : {"region.png", "region.svg"}) {
        const QString path = m_dir.filePath(QString::fromLatin1(name));
        QVERIFY2(panel->exportTo(path), name);
        QVERIFY2(QFileInfo(path).size() > 1000, name);
    }

    // Attach to memo: the report's heatmap figure goes into the memo's evidence.
    panel->chartActions()[3]->trigger();
    auto stored = playbook::readStoredPlaybook(window.document()->project());
    QVERIFY(stored);
    QCOMPARE(stored->memo.evidence.size(), std::size_t(1));
    QVERIFY(stored->memo.evidence[0].figure.heatmap.has_value());
    QCOMPARE(stored->memo.evidence[0].figure.heatmap->categories.size(), std::size_t(42));
    window.jobs()->cancelAll();
    QVERIFY(window.jobs()->waitForIdle(60000));
}

void TestAnalysisViews::badRegionInputIsReportedNotComputed()
{
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    QVERIFY(window.jobs()->waitForIdle(240000));
    auto* view = window.regionView();
    auto* batches = view->findChild<QLineEdit*>(QStringLiteral("regionMaxBatches"));
    QVERIFY(batches);
    batches->setText(QStringLiteral("1, two, 4"));
    view->compute();
    QVERIFY(view->recommendationLabel()->text().contains(QStringLiteral("'two' is not a number")));
    batches->setText(QStringLiteral("0, 4"));
    view->compute();
    QVERIFY2(view->recommendationLabel()->text().contains(QStringLiteral("max_batch")),
             qPrintable(view->recommendationLabel()->text()));
    window.jobs()->cancelAll();
    QVERIFY(window.jobs()->waitForIdle(60000));
}

void TestAnalysisViews::sweepDeltaChartOfTheDemoGoesIntoTheMemo()
{
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    QVERIFY(window.jobs()->waitForIdle(240000));
    auto* view = window.sweepView();
    // The demo's two sweeps carry the baseline and candidate roles: the Δ display has a pair.
    auto* show = view->findChild<QComboBox*>(QStringLiteral("sweepDisplay"));
    QVERIFY(show);
    show->setFocus();
    QTest::keyClick(show, Qt::Key_Down);
    QCOMPARE(view->display(), widgets::SweepView::Display::Delta);
    QVERIFY(!view->deltaMessage()->isVisibleTo(view));
    // From batch 16 up the candidate ran at its own, lower capacity: those Δs would compare
    // different offered loads, so only batch 1 to 8 are drawn and the caption says why.
    const QString caption = view->caption()->text();
    QVERIFY2(caption.contains(QStringLiteral("matched by batch size and offered load: 4 point(s)")),
             qPrintable(caption));
    QVERIFY2(caption.contains(QStringLiteral("Offered load differs at batch 16 (")),
             qPrintable(caption));

    widgets::ChartPanel* panel = view->panels()[1];
    QCOMPARE(panel->content().yTitle, QStringLiteral("Δ p99 latency (ms)"));
    const auto& points = panel->content().series.at(0).data.points;
    QCOMPARE(points.size(), 4);
    QCOMPARE(points.back().x(), 8.0);
    // The sweeps give sample counts: the Δ has its 95% band (two dashed bounds).
    QCOMPARE(panel->content().series.size(), 3);

    // Attached from its toolbar like any chart: the memo's figure has the series and the zero
    // line.
    auto* attach = panel->findChild<QToolButton*>(QStringLiteral("attachToMemo"));
    QVERIFY(attach);
    attach->click();
    auto stored = playbook::readStoredPlaybook(window.document()->project());
    QVERIFY(stored);
    QCOMPARE(stored->memo.evidence.size(), std::size_t(1));
    const auto& evidence = stored->memo.evidence[0];
    QCOMPARE(QString::fromStdString(evidence.title),
             QStringLiteral("Δ Latency p99 (candidate − baseline)"));
    QCOMPARE(evidence.figure.series.size(), std::size_t(3));
    QCOMPARE(evidence.figure.series[0].points.size(), std::size_t(4));
    QCOMPARE(evidence.figure.series[0].points.back().y, points.back().y());
    QCOMPARE(evidence.figure.referenceLines.size(), std::size_t(1));
    QCOMPARE(evidence.figure.referenceLines[0].value, 0.0);
    window.jobs()->cancelAll();
    QVERIFY(window.jobs()->waitForIdle(60000));
}

QTEST_MAIN(TestAnalysisViews)
void TestAnalysisViews::sweepTabShowsTheSlaBandAndTheRegionRecommendation()
{
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.jobs()->waitForIdle(240000));
    auto* sweep = window.sweepView();
    widgets::ChartPanel* latency = sweep->panels()[1];

    // The SLA line of the latency chart has its met side shaded, as a legend entry of its own.
    const auto& references = latency->content().references;
    QCOMPARE(references.size(), 1);
    QCOMPARE(references[0].acceptable, widgets::AcceptableSide::Below);
    QCOMPARE(references[0].value, 15.0); // the demo's SLA
    int bands = 0;
    for (QAbstractSeries* series : latency->chartView()->chart()->series())
        if (auto* band = qobject_cast<QAreaSeries*>(series)) {
            ++bands;
            QCOMPARE(band->name(), QStringLiteral("meets SLA p99"));
            QCOMPARE(band->upperSeries()->at(0).y(), 15.0);
        }
    QCOMPARE(bands, 1);

    // Before the Region tab has computed, there is no point and the note says where it comes
    // from; its link opens the Region tab, which computes.
    QVERIFY(!sweep->recommendation());
    QVERIFY(sweep->recommendationNote()->text().contains(QStringLiteral("Region")));
    auto hasRecommended = [](const widgets::ChartPanel* panel) {
        for (const auto& series : panel->content().series)
            if (series.emphasised)
                return true;
        return false;
    };
    QVERIFY(!hasRecommended(latency));
    QSignalSpy shown(window.regionView(), &widgets::RegionView::resultShown);
    Q_EMIT sweep->recommendationNote()->linkActivated(QStringLiteral("region"));
    QVERIFY(window.views()->currentWidget()->isAncestorOf(window.regionView()));
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && shown.last().at(0).toBool(), 240000);
    QVERIFY(window.jobs()->waitForIdle(240000));

    // The point drawn on the Sweep tab is the Region tab's recommendation, number for number.
    const auto result = window.regionView()->result();
    QVERIFY(result && result->recommendation);
    const auto& cell = result->cells[result->recommendation->cell];
    const auto recommendation = sweep->recommendation();
    QVERIFY(recommendation);
    QCOMPARE(recommendation->maxBatch, result->spec.axes[0].values[cell.axisIndex[0]]);
    QCOMPARE(recommendation->p99Ms, cell.metrics.p99S.value * 1e3);
    QCOMPARE(recommendation->throughputPerServerPerS,
             cell.metrics.throughputPerS.value / result->spec.scenario.servers.count);
    QVERIFY(window.regionView()->recommendationLabel()->text().contains(recommendation->policy));
    QCOMPARE(sweep->options().xAxis, widgets::SweepXAxis::BatchSize);
    const widgets::SeriesSpec* star = nullptr;
    for (const auto& series : latency->content().series)
        if (series.emphasised)
            star = &series;
    QVERIFY(star);
    QCOMPARE(star->data.points.size(), 1);
    QCOMPARE(star->data.points[0], QPointF(recommendation->maxBatch, recommendation->p99Ms));
    QVERIFY(star->data.points[0].y() <= 15.0); // it meets the SLA it is drawn against
    QVERIFY(hasRecommended(sweep->panels()[0]));
    QVERIFY(sweep->recommendationNote()->text().contains(recommendation->policy.toHtmlEscaped()));

    // Any change of the inputs retracts it until the Region tab recomputes.
    nlohmann::json region = window.document()->project().region;
    region["objective"] = "min-p99";
    window.document()->setSection(widgets::ProjectSection::Region, region,
                                  QStringLiteral("objective"));
    QVERIFY(!sweep->recommendation());
    QVERIFY(!hasRecommended(latency));
    QVERIFY(sweep->recommendationNote()->text().contains(QStringLiteral("changed")));
    window.jobs()->cancelAll();
    QVERIFY(window.jobs()->waitForIdle(60000));
}

#include "tst_analysisviews.moc"
