// The Sweep view's Δ display (candidate − baseline), driven as a user does: pick "Δ Candidate −
// baseline" in the Show box, read the plotted values and compare them with hand-computed ones.
#include "charts/chartlegend.h"
#include "charts/chartpanel.h"
#include "charts/chartview.h"
#include "charts/sweepdeltacharts.h"
#include "document/projectdocument.h"
#include "io/projectfile.h"
#include "models/seriestablemodel.h"
#include "testsupport.h"
#include "views/sweepview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QTemporaryDir>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::widgets;

namespace {

data::SweepPoint point(int batch, double throughputPerS, double p50Ms, double p99Ms, double energyJ)
{
    data::SweepPoint p;
    p.batchSize = batch;
    p.throughputPerS = throughputPerS;
    p.latencyP50S = p50Ms / 1e3;
    p.latencyP99S = p99Ms / 1e3;
    p.energyPerInferenceJ = energyJ;
    return p;
}

data::Dataset sweepDataset(const std::string& id, const std::string& name, data::DatasetRole role,
                           std::vector<data::SweepPoint> points)
{
    auto table = std::make_shared<data::SweepTable>();
    table->name = name;
    table->points = std::move(points);
    data::Dataset dataset;
    dataset.id = id;
    dataset.name = name;
    dataset.role = role;
    dataset.setContent(std::shared_ptr<const data::SweepTable>(table));
    return dataset;
}

/// Baseline at batch 1, 2, 4, 8; candidate at 2, 4, 8, 16. The baseline's energy at batch 4 is
/// 0 (a meter that read nothing): its relative change is undefined.
data::Project pairProject(data::DatasetRole first, data::DatasetRole second)
{
    data::Project project;
    project.datasets.push_back(
        sweepDataset("ds1", "Base", first,
                     {point(1, 100.0, 1.0, 2.0, 0.5), point(2, 180.0, 1.2, 3.0, 0.4),
                      point(4, 300.0, 1.5, 4.0, 0.0), point(8, 400.0, 2.0, 8.0, 0.2)}));
    project.datasets.push_back(
        sweepDataset("ds2", "Cand", second,
                     {point(2, 200.0, 1.0, 3.5, 0.3), point(4, 330.0, 1.5, 5.0, 0.1),
                      point(8, 380.0, 2.5, 6.0, 0.25), point(16, 900.0, 3.0, 9.0, 0.2)}));
    return project;
}

/// Picks the n-th entry of a combo box with the keyboard, as a user does (emits activated).
void pick(QComboBox* box, int index)
{
    box->setFocus();
    while (box->currentIndex() < index)
        QTest::keyClick(box, Qt::Key_Down);
    while (box->currentIndex() > index)
        QTest::keyClick(box, Qt::Key_Up);
}

void comparePoints(const QList<QPointF>& actual, const QList<QPointF>& expected)
{
    QCOMPARE(actual.size(), expected.size());
    for (qsizetype i = 0; i < actual.size(); ++i) {
        QCOMPARE(actual[i].x(), expected[i].x());
        QVERIFY2(std::fabs(actual[i].y() - expected[i].y()) < 1e-9,
                 qPrintable(QStringLiteral("point %1: %2 instead of %3")
                                .arg(i)
                                .arg(actual[i].y())
                                .arg(expected[i].y())));
    }
}

/// Nothing on screen may read "nan" or "inf": not the values, not the caption, not a tooltip.
void verifyAllFinite(const SweepView& view)
{
    for (ChartPanel* panel : view.panels()) {
        for (const SeriesSpec& spec : panel->content().series) {
            for (const QPointF& p : spec.data.points)
                QVERIFY(std::isfinite(p.x()) && std::isfinite(p.y()));
            for (const QString& note : spec.pointNotes)
                QVERIFY2(!note.contains(QLatin1String("nan"), Qt::CaseInsensitive) &&
                             !note.contains(QLatin1String("inf "), Qt::CaseInsensitive),
                         qPrintable(note));
        }
    }
    QVERIFY(!view.caption()->text().contains(QLatin1String("nan"), Qt::CaseInsensitive));
}

/// The Δ input of two sweeps named "B" and "C", significance threshold 2%.
SweepDeltaInput pairOf(const data::SweepTable& baseline, const data::SweepTable& candidate)
{
    return {QStringLiteral("B"), QStringLiteral("C"),
            playbook::sweepDeltas(baseline, candidate, 0.02)};
}

/// A sweep point at an offered request rate, with the sample count that gives it intervals.
data::SweepPoint loaded(int batch, double ratePerS, double throughputPerS, double p99Ms)
{
    data::SweepPoint p = point(batch, throughputPerS, p99Ms / 2.0, p99Ms, 0.1);
    p.latencyP90S = p99Ms * 0.8 / 1e3;
    p.requestRatePerS = ratePerS;
    p.sampleCount = 10000;
    return p;
}

} // namespace

class TestSweepDeltaView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void deltaChartsPlotCandidateMinusBaseline();
    void relativeDeltasInPercentLeaveZeroBaselinesOut();
    void chartToolsWorkOnDeltaCharts();
    void withoutAPairTheViewSaysHowToSetRoles();
    void severalConcurrenciesPerBatchGetOneSeriesEach();
    void demoProjectHasABaselineCandidatePair();
    void differentOfferedLoadsAreNotDrawnAsADelta();
    void severalLoadsPerBatchPairByLoad();
    void intervalsGiveADeltaBand();
};

void TestSweepDeltaView::initTestCase()
{
    // Tooltip texts are compared literally: a fixed decimal point, no group separators.
    QLocale::setDefault(QLocale::c());
}

void TestSweepDeltaView::deltaChartsPlotCandidateMinusBaseline()
{
    ProjectDocument document;
    document.reset(pairProject(data::DatasetRole::Baseline, data::DatasetRole::Candidate), {});
    SweepView view(&document);
    auto* show = view.findChild<QComboBox*>(QStringLiteral("sweepDisplay"));
    QVERIFY(show);
    pick(show, 1);
    QCOMPARE(view.display(), SweepView::Display::Delta);

    // Throughput: batch 2: 200 − 180 = +20; 4: 330 − 300 = +30; 8: 380 − 400 = −20 inf/s.
    const ChartContent throughput = view.panels()[0]->content();
    QCOMPARE(throughput.yTitle, QStringLiteral("Δ throughput (inferences/s)"));
    QCOMPARE(throughput.xTitle, QStringLiteral("Batch size (items)"));
    QCOMPARE(throughput.series.size(), 1);
    QCOMPARE(throughput.series[0].data.name, QStringLiteral("Cand − Base"));
    comparePoints(throughput.series[0].data.points, {{2, 20.0}, {4, 30.0}, {8, -20.0}});
    // The zero line.
    QCOMPARE(throughput.references.size(), 1);
    QCOMPARE(throughput.references[0].value, 0.0);
    QCOMPARE(throughput.references[0].orientation, Qt::Horizontal);

    // p99: 3.5 − 3 = +0.5, 5 − 4 = +1, 6 − 8 = −2 ms. p50: −0.2, 0, +0.5 ms.
    const ChartContent p99 = view.panels()[1]->content();
    QCOMPARE(p99.yTitle, QStringLiteral("Δ p99 latency (ms)"));
    comparePoints(p99.series[0].data.points, {{2, 0.5}, {4, 1.0}, {8, -2.0}});
    const ChartContent p50 = view.panels()[2]->content();
    QCOMPARE(p50.yTitle, QStringLiteral("Δ p50 latency (ms)"));
    comparePoints(p50.series[0].data.points, {{2, -0.2}, {4, 0.0}, {8, 0.5}});
    // Energy in mJ: 300 − 400 = −100, 100 − 0 = +100, 250 − 200 = +50.
    const ChartContent energy = view.panels()[3]->content();
    QCOMPARE(energy.yTitle, QStringLiteral("Δ energy per inference (mJ)"));
    comparePoints(energy.series[0].data.points, {{2, -100.0}, {4, 100.0}, {8, 50.0}});

    // The tooltip of batch 2's throughput gives both sides and both changes (+20/180 = 11.11%).
    const QString tip =
        view.panels()[0]->chartView()->tooltipText(QStringLiteral("Cand − Base"), QPointF(2, 20));
    QVERIFY2(tip.contains(QStringLiteral("baseline 180 inferences/s → candidate 200 inferences/s")),
             qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("Δ +20 inferences/s (+11.11 %)")), qPrintable(tip));
    // Batch 4's energy: the relative change is undefined and says so.
    const QString zeroTip = view.panels()[3]->chartView()->tooltipText(
        QStringLiteral("Cand − Base"), QPointF(4, 100.0));
    QVERIFY2(zeroTip.contains(QStringLiteral("relative change undefined: baseline is 0")),
             qPrintable(zeroTip));

    // The caption names the pair, the matching and the rows left out.
    const QString caption = view.caption()->text();
    QVERIFY2(caption.contains(QStringLiteral(
                 "Δ = candidate “Cand” − baseline “Base”, matched by batch size: 3 point(s).")),
             qPrintable(caption));
    QVERIFY(caption.contains(QStringLiteral("batch 1: only in the baseline, no candidate point")));
    QVERIFY(caption.contains(QStringLiteral("batch 16: only in the candidate, no baseline point")));
    QVERIFY(view.caption()->isVisibleTo(&view));
    QVERIFY(!view.deltaMessage()->isVisibleTo(&view));
    verifyAllFinite(view);

    // Back to the overlay: the measured values again.
    pick(show, 0);
    QCOMPARE(view.panels()[0]->content().yTitle, QStringLiteral("Throughput (inferences/s)"));
    QCOMPARE(view.panels()[0]->content().series.size(), 2);
}

void TestSweepDeltaView::relativeDeltasInPercentLeaveZeroBaselinesOut()
{
    ProjectDocument document;
    document.reset(pairProject(data::DatasetRole::Baseline, data::DatasetRole::Candidate), {});
    SweepView view(&document);
    view.setDisplay(SweepView::Display::Delta);
    auto* scale = view.findChild<QComboBox*>(QStringLiteral("sweepDeltaScale"));
    QVERIFY(scale && scale->isVisibleTo(&view));
    pick(scale, 1);
    QCOMPARE(view.deltaScale(), DeltaScale::Relative);

    // +20/180, +30/300, −20/400 in percent.
    const ChartContent throughput = view.panels()[0]->content();
    QCOMPARE(throughput.yTitle, QStringLiteral("Δ throughput (%)"));
    comparePoints(throughput.series[0].data.points, {{2, 2000.0 / 180.0}, {4, 10.0}, {8, -5.0}});
    // p99: +0.5/3, +1/4, −2/8.
    comparePoints(view.panels()[1]->content().series[0].data.points,
                  {{2, 50.0 / 3.0}, {4, 25.0}, {8, -25.0}});
    // Energy: batch 4's baseline is 0, so it has no relative change and is not drawn.
    const ChartContent energy = view.panels()[3]->content();
    QCOMPARE(energy.yTitle, QStringLiteral("Δ energy per inference (%)"));
    comparePoints(energy.series[0].data.points, {{2, -25.0}, {8, 25.0}});
    QVERIFY2(view.caption()->text().contains(
                 QStringLiteral("Relative Δ energy per inference undefined at batch 4: the "
                                "baseline is 0")),
             qPrintable(view.caption()->text()));
    verifyAllFinite(view);
}

void TestSweepDeltaView::chartToolsWorkOnDeltaCharts()
{
    ProjectDocument document;
    document.reset(pairProject(data::DatasetRole::Baseline, data::DatasetRole::Candidate), {});
    SweepView view(&document);
    view.resize(1000, 700);
    view.setDisplay(SweepView::Display::Delta);
    ChartPanel* panel = view.panels()[1];

    // Table view of the same numbers.
    QCOMPARE(panel->tableModel()->rowCount(), 3);
    panel->showTable(true);
    QVERIFY(panel->isShowingTable());
    panel->showTable(false);
    QVERIFY(panel->csv().contains(QStringLiteral("Δ p99 latency (ms)")));

    // Export as PNG and SVG.
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("delta.png"));
    const QString svg = dir.filePath(QStringLiteral("delta.svg"));
    QVERIFY(panel->exportTo(png));
    QVERIFY(panel->exportTo(svg));
    QVERIFY(QFileInfo(png).size() > 0);
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    QVERIFY(svgFile.readAll().contains("Δ Latency p99"));

    // Attach to memo: the same button as on every chart (MainWindow stores the evidence).
    QSignalSpy attach(panel, &ChartPanel::attachToMemoRequested);
    auto* button = panel->findChild<QToolButton*>(QStringLiteral("attachToMemo"));
    QVERIFY(button);
    button->click();
    QCOMPARE(attach.size(), 1);
    // Log y makes no sense for a change that can be negative.
    bool logYDisabled = false;
    for (QCheckBox* box : view.findChildren<QCheckBox*>())
        if (box->text() == QStringLiteral("Log y"))
            logYDisabled = !box->isEnabled();
    QVERIFY(logYDisabled);
}

void TestSweepDeltaView::withoutAPairTheViewSaysHowToSetRoles()
{
    ProjectDocument document;
    document.reset(pairProject(data::DatasetRole::None, data::DatasetRole::None), {});
    SweepView view(&document);
    view.setDisplay(SweepView::Display::Delta);
    QVERIFY(!view.deltaInput());
    QVERIFY(view.deltaMessage()->isVisibleTo(&view));
    QCOMPARE(view.deltaMessage()->text(),
             QStringLiteral("No sweep has the Baseline or Candidate role. In the Datasets dock, "
                            "select a sweep and set its role to Baseline, then select another "
                            "and set its role to Candidate."));
    for (ChartPanel* panel : view.panels()) {
        QVERIFY(panel->content().series.isEmpty());
        QCOMPARE(panel->content().emptyText,
                 QStringLiteral("No baseline and candidate sweep to compare."));
    }

    // One role set: the message names the missing one.
    document.setDatasetRole(QStringLiteral("ds1"), data::DatasetRole::Baseline);
    QVERIFY(view.deltaMessage()->isVisibleTo(&view));
    QVERIFY(
        view.deltaMessage()->text().startsWith(QStringLiteral("No sweep has the Candidate role.")));

    // Both set: the charts appear and the message goes; undo brings it back.
    document.setDatasetRole(QStringLiteral("ds2"), data::DatasetRole::Candidate);
    QVERIFY(!view.deltaMessage()->isVisibleTo(&view));
    QCOMPARE(view.panels()[0]->content().series.size(), 1);
    document.undoStack()->undo();
    QVERIFY(view.deltaMessage()->isVisibleTo(&view));
    QVERIFY(view.panels()[0]->content().series.isEmpty());

    // A single sweep: the message says to import another.
    data::Project single;
    single.datasets.push_back(pairProject(data::DatasetRole::Baseline, {}).datasets[0]);
    document.reset(single, {});
    QVERIFY(view.deltaMessage()->text().startsWith(
        QStringLiteral("The Δ display compares two sweeps, and 1 sweep(s) are loaded.")));
}

void TestSweepDeltaView::severalConcurrenciesPerBatchGetOneSeriesEach()
{
    // Batch 1 and 2, each at concurrency 1 and 4, on both sides; the candidate adds 1 ms to p99.
    data::SweepTable baseline, candidate;
    for (int batch : {1, 2})
        for (double concurrency : {1.0, 4.0}) {
            auto p = point(batch, 100.0 * batch * concurrency, 1.0, 2.0 * concurrency, 0.1);
            p.concurrency = concurrency;
            baseline.points.push_back(p);
            p.latencyP99S = *p.latencyP99S + 0.001;
            candidate.points.push_back(p);
        }
    const SweepDeltaInput input = pairOf(baseline, candidate);
    QVERIFY(input.deltas.matchedOnConcurrency);
    QCOMPARE(sweepDeltaXAxis(input.deltas, SweepXAxis::BatchSize), SweepXAxis::BatchSize);
    const ChartContent p99 = sweepDeltaChart(input, SweepDeltaMetric::LatencyP99,
                                             DeltaScale::Absolute, SweepXAxis::BatchSize, true);
    QCOMPARE(p99.series.size(), 2);
    QCOMPARE(p99.series[0].data.name, QStringLiteral("concurrency 1"));
    QCOMPARE(p99.series[1].data.name, QStringLiteral("concurrency 4"));
    comparePoints(p99.series[0].data.points, {{1, 1.0}, {2, 1.0}});
    // Against concurrency: one series per batch size.
    const ChartContent byConcurrency = sweepDeltaChart(
        input, SweepDeltaMetric::LatencyP99, DeltaScale::Absolute, SweepXAxis::Concurrency, true);
    QCOMPARE(byConcurrency.series.size(), 2);
    QCOMPARE(byConcurrency.series[1].data.name, QStringLiteral("batch 2"));
    comparePoints(byConcurrency.series[1].data.points, {{1, 1.0}, {4, 1.0}});
    // Offered load is never the delta axis.
    QCOMPARE(sweepDeltaXAxis(input.deltas, SweepXAxis::RequestRate), SweepXAxis::BatchSize);
}

void TestSweepDeltaView::demoProjectHasABaselineCandidatePair()
{
    auto project = io::loadProject(test::sourceDir().toStdString() + "/resources/demo/demo.bsproj");
    QVERIFY2(project, project ? "" : project.error().toString().c_str());
    ProjectDocument document;
    document.reset(*project, {});
    SweepView view(&document);
    view.setDisplay(SweepView::Display::Delta);
    const auto input = view.deltaInput();
    QVERIFY(input);
    QCOMPARE(input->baselineName, QStringLiteral("Baseline: 400 W"));
    QCOMPARE(input->candidateName, QStringLiteral("Candidate: 250 W cap"));
    // Nine batch sizes, 1 to 256, all paired; from batch 16 up the candidate ran at a lower
    // offered load (its own capacity), so only batch 1 to 8 are drawn as deltas.
    QCOMPARE(input->deltas.points.size(), std::size_t(9));
    QVERIFY(input->deltas.unmatched.empty());
    QVERIFY(input->deltas.loadsCompared);
    QVERIFY(!view.deltaMessage()->isVisibleTo(&view));
    const auto& points = view.panels()[0]->content().series.at(0).data.points;
    QCOMPARE(points.size(), 4);
    const auto& base = *project->datasets[0].sweep();
    const auto& cand = *project->datasets[1].sweep();
    for (qsizetype i = 0; i < points.size(); ++i) {
        const std::size_t row = std::size_t(i);
        QCOMPARE(points[i].x(), double(base.points[row].batchSize));
        QVERIFY(std::fabs(points[i].y() - (*cand.points[row].throughputPerS -
                                           *base.points[row].throughputPerS)) < 1e-9);
    }
    verifyAllFinite(view);
}

// Regression (issue 21, Views): the Δ view matched by batch size only and drew, as the
// candidate's effect, deltas between points run at different offered loads.
void TestSweepDeltaView::differentOfferedLoadsAreNotDrawnAsADelta()
{
    data::SweepTable baseline, candidate;
    baseline.points = {loaded(1, 1000.0, 1000.0, 2.0), loaded(8, 5000.0, 5000.0, 6.0)};
    // Batch 1 at the same load (within 1%), batch 8 at 4,000 instead of 5,000 req/s.
    candidate.points = {loaded(1, 1005.0, 1005.0, 2.5), loaded(8, 4000.0, 4000.0, 5.0)};
    const SweepDeltaInput input = pairOf(baseline, candidate);
    QVERIFY(input.deltas.loadsCompared);
    QCOMPARE(input.deltas.points.size(), std::size_t(2));
    QVERIFY(!input.deltas.points[0].loadsDiffer);
    QVERIFY(input.deltas.points[1].loadsDiffer);

    const ChartContent p99 = sweepDeltaChart(input, SweepDeltaMetric::LatencyP99,
                                             DeltaScale::Absolute, SweepXAxis::BatchSize, true);
    comparePoints(p99.series.at(0).data.points, {{1, 0.5}});
    const QStringList notes = sweepDeltaNotes(input);
    QVERIFY2(notes.contains(QStringLiteral("Δ = candidate “C” − baseline “B”, matched by batch "
                                           "size and offered load: 1 point(s).")),
             qPrintable(notes.join(u'\n')));
    QVERIFY2(notes.join(u'\n').contains(
                 QStringLiteral("Offered load differs at batch 8 (5000 → 4000 req/s): no Δ drawn")),
             qPrintable(notes.join(u'\n')));

    // Every point at a different load: the chart is empty and says why.
    candidate.points[0].requestRatePerS = 800.0;
    const SweepDeltaInput none = pairOf(baseline, candidate);
    const ChartContent empty = sweepDeltaChart(none, SweepDeltaMetric::Throughput,
                                               DeltaScale::Absolute, SweepXAxis::BatchSize, true);
    QVERIFY(empty.series.isEmpty());
    QVERIFY(empty.emptyText.startsWith(QStringLiteral("Every matched point ran at a different "
                                                      "offered load")));
}

void TestSweepDeltaView::severalLoadsPerBatchPairByLoad()
{
    // Both sides swept batch 4 at 100, 200 and 300 req/s, in different file orders; the
    // candidate lacks 200 and adds 400: 100 and 300 pair by load, 200 and 400 are left over and
    // paired as a different-load point (not drawn).
    data::SweepTable baseline, candidate;
    baseline.points = {loaded(4, 300.0, 300.0, 9.0), loaded(4, 100.0, 100.0, 3.0),
                       loaded(4, 200.0, 200.0, 6.0)};
    candidate.points = {loaded(4, 100.0, 100.0, 4.0), loaded(4, 400.0, 400.0, 20.0),
                        loaded(4, 300.0, 300.0, 10.0)};
    const auto deltas = playbook::sweepDeltas(baseline, candidate, 0.02);
    QVERIFY(deltas.unmatched.empty());
    QCOMPARE(deltas.points.size(), std::size_t(3));
    QCOMPARE(*deltas.points[0].baselineLoadPerS, 100.0);
    QCOMPARE(*deltas.points[0].candidateLoadPerS, 100.0);
    QVERIFY(std::fabs(deltas.points[0].latencyP99S.delta - 0.001) < 1e-12);
    QCOMPARE(*deltas.points[1].baselineLoadPerS, 200.0);
    QCOMPARE(*deltas.points[1].candidateLoadPerS, 400.0);
    QVERIFY(deltas.points[1].loadsDiffer);
    QCOMPARE(*deltas.points[2].candidateLoadPerS, 300.0);
    QVERIFY(!deltas.points[2].loadsDiffer);
}

void TestSweepDeltaView::intervalsGiveADeltaBand()
{
    data::SweepTable baseline, candidate;
    baseline.points = {loaded(1, 1000.0, 1000.0, 2.0), loaded(2, 2000.0, 2000.0, 3.0)};
    candidate.points = {loaded(1, 1000.0, 1010.0, 2.5), loaded(2, 2000.0, 2020.0, 3.5)};
    const SweepDeltaInput input = pairOf(baseline, candidate);
    for (DeltaScale scale : {DeltaScale::Absolute, DeltaScale::Relative}) {
        const ChartContent throughput = sweepDeltaChart(input, SweepDeltaMetric::Throughput, scale,
                                                        SweepXAxis::BatchSize, true);
        QCOMPARE(throughput.series.size(), 3);
        const SeriesSpec& delta = throughput.series[0];
        const SeriesSpec& low = throughput.series[1];
        const SeriesSpec& high = throughput.series[2];
        QCOMPARE(low.data.name, QStringLiteral("95% interval of Δ"));
        QVERIFY(low.inLegend && !high.inLegend);
        QCOMPARE(low.toolTip, deltaBandDescription());
        QCOMPARE(low.data.points.size(), 2);
        for (qsizetype i = 0; i < 2; ++i) {
            QCOMPARE(low.data.points[i].x(), delta.data.points[i].x());
            QVERIFY(low.data.points[i].y() < delta.data.points[i].y());
            QVERIFY(high.data.points[i].y() > delta.data.points[i].y());
        }
        // Absolute: ±1.96/√10000 of each side in quadrature around +10 at batch 1.
        if (scale == DeltaScale::Absolute) {
            const double half = std::hypot(1010.0, 1000.0) * 1.96 / 100.0;
            QVERIFY2(std::fabs(high.data.points[0].y() - (10.0 + half)) < 1e-6,
                     qPrintable(QString::number(high.data.points[0].y())));
        }
    }
    QVERIFY(sweepDeltaNotes(input).contains(deltaBandDescription()));

    // In a panel: the band's one legend entry says what it is when hovered.
    ChartPanel panel;
    panel.resize(700, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setContent(sweepDeltaChart(input, SweepDeltaMetric::LatencyP99, DeltaScale::Absolute,
                                     SweepXAxis::BatchSize, true));
    QCOMPARE(panel.legend()->names().filter(QStringLiteral("95% interval")).size(), 1);
    QCOMPARE(panel.legend()->toolTipOf(QStringLiteral("95% interval of Δ")),
             deltaBandDescription());
}

QTEST_MAIN(TestSweepDeltaView)
#include "tst_sweepdeltaview.moc"
