// The LLM server's feasible region in the workbench (LlmRegionPanel): every figure it shows is
// compared with what analysis::computeLlmRegion gives for the same spec, computed here on its
// own. Known-answer grid: a linear step of 5 ms + 0.04 ms per prefill token + 0.5 ms per
// decoding sequence, prompts of 1,000 tokens and outputs of 20 (one request alone: S = 149.5
// ms), Poisson arrivals; without chunked prefill a 512-token budget can never fit a prompt and
// is refused up front, and one seat saturates at 1 / S = 6.7 requests/s.
#include "analysis/llmregionpack.h"
#include "charts/chartpanel.h"
#include "charts/llmregioncelltext.h"
#include "charts/llmregioncharts.h"
#include "charts/llmregionheatmap.h"
#include "jobs/jobrunner.h"
#include "panels/messagebar.h"
#include "panels/viewscrollarea.h"
#include "util/numbertext.h"
#include "views/llmregionpanel.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::widgets;
using analysis::LlmAxis;

namespace {

constexpr int kWaitMs = 120000;

analysis::LlmRegionSpec knownAnswerSpec()
{
    analysis::LlmRegionSpec spec;
    auto& s = spec.scenario;
    s.seed = 5;
    s.replications = 3;
    s.engine.numGpuBlocks = 8192;
    s.engine.enableChunkedPrefill = false;
    s.step.baseMs = 5.0;
    s.step.perPrefillTokenMs = 0.04;
    s.step.perDecodeSeqMs = 0.5;
    s.arrivals.kind = llmsim::LlmArrivalSpec::Kind::Poisson;
    s.arrivals.ratePerS = 2.0;
    s.arrivals.count = 300;
    s.arrivals.promptTokens.tokens = 1000;
    s.arrivals.outputTokens.tokens = 20;
    spec.maxNumSeqs = {1, 4, 16};
    spec.maxNumBatchedTokens = {512, 2048, 4096};
    spec.ratesPerS = {2.0, 4.0, 8.0};
    spec.limits.ttftP99Ms = 1500.0;
    spec.limits.tpotP99Ms = 25.0;
    return spec;
}

analysis::LlmRegionResult computedHere(const analysis::LlmRegionSpec& spec)
{
    auto result = analysis::computeLlmRegion(spec);
    if (!result)
        qFatal("%s", result.error().toString().c_str());
    return std::move(*result);
}

/// The figure as the C locale writes it with 4 significant digits (the test's locale).
QString number(double value)
{
    return QString::number(value, 'g', 4);
}

QString interval(const sim::Estimate& e)
{
    return QStringLiteral("%1 [%2, %3]").arg(number(e.value), number(e.ciLow), number(e.ciHigh));
}

/// What a heatmap cell must print, written out from the cell: TTFT p99 to 3 digits with "?"
/// when not confident, over the verdict (starred for the recommended cell).
QString expectedCellText(const analysis::LlmRegionCell& c, bool recommended)
{
    const QString star = recommended ? QStringLiteral("★ ") : QString();
    if (c.status == analysis::LlmCellStatus::Refused)
        return star + QStringLiteral("refused");
    const QString ttft = QString::fromStdString(significant(c.metrics.ttftP99Ms.value, 3)) +
                         (c.confident ? QString() : QStringLiteral("?"));
    QString verdict = QStringLiteral("ok");
    if (c.status == analysis::LlmCellStatus::Infeasible)
        verdict = c.binding == analysis::LlmConstraint::TtftP99 ? QStringLiteral("TTFT")
                                                                : QStringLiteral("TPOT");
    return ttft + QLatin1Char('\n') + star + verdict;
}

const analysis::LlmRegionCell& cellAt(const analysis::LlmRegionResult& r,
                                      std::array<std::size_t, analysis::kLlmAxisCount> at)
{
    return r.cells[analysis::llmCellIndex(r.spec, at)];
}

/// With BATCHSCOPE_SCREENSHOT_DIR set, the widget as a PNG there, to look at.
void saveScreenshot(QWidget& widget, const QString& name)
{
    const QString folder = qEnvironmentVariable("BATCHSCOPE_SCREENSHOT_DIR");
    if (folder.isEmpty())
        return;
    QDir().mkpath(folder);
    QVERIFY(widget.grab().save(folder + QStringLiteral("/llm-region-%1.png").arg(name)));
}

/// Empty when the heatmap and the charts each keep their own rectangle inside the panel;
/// otherwise which do not (a panel given less height than its parts' minimum draws them over
/// each other).
QString partsOverlap(LlmRegionPanel& panel)
{
    const QList<QWidget*> parts = {panel.heatmapPanel(), panel.capacityPanel(),
                                   panel.tokensTtftPanel()};
    for (int i = 0; i < parts.size(); ++i) {
        const QRect a = parts[i]->geometry();
        if (a.bottom() >= panel.height())
            return QStringLiteral("part %1 ends at %2, below the panel's %3 px")
                .arg(i)
                .arg(a.bottom())
                .arg(panel.height());
        for (int j = i + 1; j < parts.size(); ++j)
            if (a.intersects(parts[j]->geometry()))
                return QStringLiteral("parts %1 and %2 overlap").arg(i).arg(j);
    }
    return {};
}

/// The series of the capacity line that max_num_seqs `seqs` is drawn on ("max_num_seqs 4", or
/// "max_num_seqs 1, 16" for equal capacities), or null.
const SeriesSpec* capacityLineOf(const ChartContent& content, int seqs)
{
    const QString prefix = QStringLiteral("max_num_seqs ");
    for (const auto& series : content.series)
        if (series.data.name.startsWith(prefix) && series.data.name.mid(prefix.size())
                                                       .split(QStringLiteral(", "))
                                                       .contains(QString::number(seqs)))
            return &series;
    return nullptr;
}

} // namespace

class TestLlmRegionPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void heatmapAndRecommendationEqualComputeLlmRegion();
    void projectorFontsKeepEveryPartApartAndReadable();
    void previewWithPendingCellsComesFirstAndTheFinalReplacesIt();
    void aDifferentSpecWithdrawsTheShownResult();
    void anInvalidSpecSaysWhy();
    void aMissingReplayFileSaysWhy();
    void capacityCurvesAreTheResultsCapacityAtTheSlice();
    void aNonMonotoneCapacityIsMarked();
    void theKvMemoryPickerSlicesTheHeatmap();
    void cancelStopsTheComputation();
    void heatmapHasTableExportAndTheCurvePacksFigure();

private:
    /// Sets the spec, computes and waits for the final result.
    static bool computeAndWait(LlmRegionPanel& panel, const analysis::LlmRegionSpec& spec);
};

void TestLlmRegionPanel::initTestCase()
{
    // Numbers are compared as text: fix the locale that writes them.
    QLocale::setDefault(QLocale::c());
}

bool TestLlmRegionPanel::computeAndWait(LlmRegionPanel& panel, const analysis::LlmRegionSpec& spec)
{
    QSignalSpy ready(&panel, &LlmRegionPanel::resultReady);
    panel.setSpec(spec, QDir::tempPath());
    panel.compute();
    return ready.wait(kWaitMs);
}

void TestLlmRegionPanel::heatmapAndRecommendationEqualComputeLlmRegion()
{
    const auto spec = knownAnswerSpec();
    const auto expected = computedHere(spec);
    QVERIFY(expected.recommendation);
    QVERIFY(expected.feasible > 0 && expected.infeasible > 0 && expected.refused > 0);

    JobRunner jobs;
    LlmRegionPanel panel(&jobs);
    panel.resize(1400, 1000);
    panel.show();
    QSignalSpy recommendation(&panel, &LlmRegionPanel::recommendationChanged);
    QVERIFY(computeAndWait(panel, spec));
    const auto shown = panel.result();
    QVERIFY(shown);
    QCOMPARE(recommendation.count(), 1);
    // The same function on the same spec: every cell bit for bit.
    QCOMPARE(shown->cells.size(), expected.cells.size());
    for (std::size_t i = 0; i < expected.cells.size(); ++i) {
        QCOMPARE(shown->cells[i].status, expected.cells[i].status);
        QCOMPARE(shown->cells[i].metrics.ttftP99Ms.value,
                 expected.cells[i].metrics.ttftP99Ms.value);
    }

    // The heatmap is drawn at the recommended cell's load, cell for cell as the curve pack's.
    const auto* best = expected.recommended();
    QCOMPARE(panel.slicePicker(LlmAxis::Load)->currentIndex(),
             int(best->at[std::size_t(LlmAxis::Load)]));
    QVERIFY(panel.slicePicker(LlmAxis::Load)->isVisibleTo(&panel));
    QVERIFY(!panel.slicePicker(LlmAxis::Replicas)->isVisibleTo(&panel));
    const auto figures = analysis::llmRegionFigures(expected);
    const auto& figureHeatmap = *figures.front().figure.heatmap;
    auto* heatmap = panel.heatmap();
    QCOMPARE(heatmap->rows(), spec.maxNumSeqs.size());
    QCOMPARE(heatmap->columns(), spec.maxNumBatchedTokens.size());
    for (std::size_t row = 0; row < heatmap->rows(); ++row) {
        for (std::size_t column = 0; column < heatmap->columns(); ++column) {
            auto at = best->at;
            at[std::size_t(LlmAxis::MaxNumSeqs)] = row;
            at[std::size_t(LlmAxis::MaxNumBatchedTokens)] = column;
            const auto& c = cellAt(expected, at);
            const QString text = heatmap->cellText(column, row);
            QCOMPARE(text, expectedCellText(c, &c == best));
            const std::string figureText =
                figureHeatmap.cellTexts[row * heatmap->columns() + column];
            if (!figureText.empty())
                QCOMPARE(text.section(QLatin1Char('\n'), 0, 0), QString::fromStdString(figureText));
            const QString tip = heatmap->cellToolTip(column, row);
            QVERIFY2(tip.contains(QString::fromStdString(analysis::llmCellEvidence(spec, c))),
                     qPrintable(tip));
            for (const auto& check : c.checks) {
                QVERIFY2(tip.contains(QStringLiteral(" %1 ").arg(number(check.value))) &&
                             tip.contains(number(check.limit)) &&
                             tip.contains(QString::number(check.margin * 100.0, 'f', 1) +
                                          QStringLiteral("%")),
                         qPrintable(tip));
                if (std::isfinite(check.ciLow))
                    QVERIFY2(tip.contains(QStringLiteral("[%1, %2]")
                                              .arg(number(check.ciLow), number(check.ciHigh))),
                             qPrintable(tip));
            }
            QCOMPARE(tip.startsWith(QStringLiteral("★")), &c == best);
        }
    }

    // The recommendation line: knobs, figures with intervals, binding margin, evidence.
    const QString line = panel.recommendationLabel()->text();
    const auto& m = best->metrics;
    for (const QString& part :
         {QStringLiteral("max_num_seqs %1, max_num_batched_tokens %2, rate_per_s %3")
              .arg(best->knobs.maxNumSeqs)
              .arg(best->knobs.maxNumBatchedTokens)
              .arg(number(best->knobs.load)),
          QString(interval(m.outputTokensPerS) + QStringLiteral(" output tokens/s")),
          QStringLiteral("TTFT p99 %1 ms [%2, %3]")
              .arg(number(m.ttftP99Ms.value), number(m.ttftP99Ms.ciLow),
                   number(m.ttftP99Ms.ciHigh)),
          QStringLiteral("TPOT p99 %1 ms [%2, %3]")
              .arg(number(m.tpotP99Ms.value), number(m.tpotP99Ms.ciLow),
                   number(m.tpotP99Ms.ciHigh)),
          QString::fromStdString(analysis::llmCellEvidence(spec, *best))})
        QVERIFY2(line.contains(part), qPrintable(part + QStringLiteral(" not in ") + line));
    // The load headroom the region searched, as the line states it.
    QVERIFY(expected.recommendation->loadHeadroom);
    const QString headroom =
        QStringLiteral("Load headroom: ×%1")
            .arg(QLocale().toString(expected.recommendation->loadHeadroom->multiplier, 'g', 3));
    QVERIFY2(line.contains(headroom), qPrintable(headroom + QStringLiteral(" not in ") + line));
    const auto& h = *expected.recommendation->loadHeadroom;
    QVERIFY(h.converged && h.failingMultiplier > h.multiplier);
    const QString failing =
        (h.failingUndecided ? QStringLiteral("is not confidently met (the 95% interval of %1")
                            : QStringLiteral("fails on %1"))
            .arg(llmConstraintTitle(h.binding));
    QVERIFY2(line.contains(failing), qPrintable(failing + QStringLiteral(" not in ") + line));
    for (const auto& check : best->checks)
        if (check.kind == best->binding)
            QVERIFY2(line.contains(QStringLiteral("headroom %1%")
                                       .arg(QString::number(check.margin * 100.0, 'f', 1))),
                     qPrintable(line));
    QCOMPARE(panel.countsLabel()->text(),
             QStringLiteral("%1 cells: %2 feasible, %3 infeasible, %4 refused; %5 not confident")
                 .arg(expected.cells.size())
                 .arg(expected.feasible)
                 .arg(expected.infeasible)
                 .arg(expected.refused)
                 .arg(expected.notConfident));
    QTest::qWait(100); // the layout settles as a shown window's does
    QVERIFY2(partsOverlap(panel).isEmpty(), qPrintable(partsOverlap(panel)));
    saveScreenshot(panel, QStringLiteral("final"));
}

void TestLlmRegionPanel::projectorFontsKeepEveryPartApartAndReadable()
{
    // A 1024 x 768 projector with large fonts, the panel in the scroll area a tab gives it.
    JobRunner jobs;
    auto* panel = new LlmRegionPanel(&jobs);
    ViewScrollArea area(panel);
    QFont large = area.font();
    large.setPointSizeF(large.pointSizeF() * 1.6);
    area.setFont(large);
    area.resize(1024, 768);
    area.show();
    QVERIFY(computeAndWait(*panel, knownAnswerSpec()));
    QTest::qWait(100);
    QVERIFY2(partsOverlap(*panel).isEmpty(), qPrintable(partsOverlap(*panel)));
    // Every cell of the heatmap is tall and wide enough for its two lines at that font.
    const QFontMetrics metrics(panel->heatmap()->font());
    for (std::size_t row = 0; row < panel->heatmap()->rows(); ++row)
        for (std::size_t column = 0; column < panel->heatmap()->columns(); ++column) {
            const QRect box = panel->heatmap()->cellRect(column, row);
            const QRect needed =
                metrics.boundingRect(box, Qt::AlignCenter, panel->heatmap()->cellText(column, row));
            QVERIFY2(needed.width() <= box.width() && needed.height() <= box.height(),
                     qPrintable(panel->heatmap()->cellText(column, row)));
        }
    saveScreenshot(*panel, QStringLiteral("projector"));
}

void TestLlmRegionPanel::previewWithPendingCellsComesFirstAndTheFinalReplacesIt()
{
    JobRunner jobs;
    LlmRegionPanel panel(&jobs);
    panel.resize(1400, 1000);
    panel.show();
    QStringList events;
    int pendingInPreview = 0;
    connect(&panel, &LlmRegionPanel::previewShown, this, [&] {
        events << QStringLiteral("preview");
        // While the rest computes: no final result, and the heatmap says which cells wait.
        QVERIFY(!panel.result());
        auto* heatmap = panel.heatmap();
        for (std::size_t row = 0; row < heatmap->rows(); ++row)
            for (std::size_t column = 0; column < heatmap->columns(); ++column) {
                const auto* cell = heatmap->cellAtGrid(column, row);
                QVERIFY(cell);
                QCOMPARE(heatmap->cellText(column, row) == QStringLiteral("pending"),
                         cell->pending);
                pendingInPreview += cell->pending;
            }
        QVERIFY(panel.countsLabel()->text().contains(QStringLiteral("pending")));
        QVERIFY(panel.recommendationLabel()->text().contains(QStringLiteral("Preview")));
        saveScreenshot(panel, QStringLiteral("preview"));
    });
    connect(&panel, &LlmRegionPanel::resultReady, this, [&] { events << QStringLiteral("final"); });
    QVERIFY(computeAndWait(panel, knownAnswerSpec()));
    QCOMPARE(events, QStringList({QStringLiteral("preview"), QStringLiteral("final")}));
    // Odd rows and columns are not in the coarse pass: 5 of the 9 cells shown wait.
    QCOMPARE(pendingInPreview, 5);
    QCOMPARE(panel.shownResult(), panel.result());
    for (const auto& cell : panel.result()->cells)
        QVERIFY(!cell.pending);
    for (std::size_t row = 0; row < panel.heatmap()->rows(); ++row)
        for (std::size_t column = 0; column < panel.heatmap()->columns(); ++column)
            QVERIFY(!panel.heatmap()->cellText(column, row).contains(QStringLiteral("pending")));
    QVERIFY(!panel.countsLabel()->text().contains(QStringLiteral("pending")));
}

void TestLlmRegionPanel::aDifferentSpecWithdrawsTheShownResult()
{
    JobRunner jobs;
    LlmRegionPanel panel(&jobs);
    auto spec = knownAnswerSpec();
    QVERIFY(computeAndWait(panel, spec));
    QVERIFY(panel.result());
    QSignalSpy recommendation(&panel, &LlmRegionPanel::recommendationChanged);
    // The same spec again: the result still answers for it.
    panel.setSpec(spec, QDir::tempPath());
    QVERIFY(panel.result());
    QCOMPARE(recommendation.count(), 0);
    // A tighter TTFT limit: the shown verdicts no longer hold.
    spec.limits.ttftP99Ms = 200.0;
    panel.setSpec(spec, QDir::tempPath());
    QVERIFY(!panel.result());
    QVERIFY(!panel.shownResult());
    QCOMPARE(recommendation.count(), 1);
    QCOMPARE(panel.heatmap()->rows(), std::size_t(0));
    QVERIFY2(panel.messageBar()->text().contains(QStringLiteral("withdrawn")),
             qPrintable(panel.messageBar()->text()));
    QCOMPARE(panel.computeButton()->text(), QStringLiteral("Recompute"));
    QVERIFY(panel.recommendationLabel()->text().contains(QStringLiteral("No recommendation")));
    // Recompute judges the new limits.
    QSignalSpy ready(&panel, &LlmRegionPanel::resultReady);
    panel.computeButton()->click();
    QVERIFY(ready.wait(kWaitMs));
    QCOMPARE(panel.result()->spec.limits.ttftP99Ms, 200.0);
    QVERIFY(panel.messageBar()->text().isEmpty());
}

void TestLlmRegionPanel::anInvalidSpecSaysWhy()
{
    JobRunner jobs;
    LlmRegionPanel panel(&jobs);
    auto spec = knownAnswerSpec();
    spec.maxNumSeqs = {4, 4};
    const auto status = analysis::validate(spec);
    QVERIFY(!status);
    const QString reason = QString::fromStdString(status.error().toString());
    panel.setSpec(spec, QDir::tempPath());
    QCOMPARE(panel.messageBar()->kind(), MessageBar::Kind::Error);
    QCOMPARE(panel.messageBar()->text(),
             QStringLiteral("The LLM region cannot be computed: ") + reason);
    QVERIFY(panel.heatmap()->emptyText().contains(reason));
    QVERIFY(panel.tokensTtftPanel()->isShowingEmptyState());
    QVERIFY(panel.tokensTtftPanel()->emptyStateText().contains(reason));
    // Compute says it again and starts nothing.
    panel.compute();
    QVERIFY(!jobs.isRunning(QStringLiteral("llmregion")));
    QVERIFY(panel.messageBar()->text().contains(reason));
    QVERIFY(!panel.result());
}

void TestLlmRegionPanel::aMissingReplayFileSaysWhy()
{
    QTemporaryDir dir;
    auto spec = knownAnswerSpec();
    spec.ratesPerS.clear();
    spec.rateMultipliers = {1.0, 2.0};
    spec.scenario.arrivals.kind = llmsim::LlmArrivalSpec::Kind::Replay;
    spec.scenario.arrivals.file = "requests-not-there.jsonl";
    analysis::LlmRegionOptions options;
    options.baseDirectory = dir.path().toStdString();
    const auto expected = analysis::computeLlmRegion(spec, options);
    QVERIFY(!expected);
    JobRunner jobs;
    LlmRegionPanel panel(&jobs);
    panel.setSpec(spec, dir.path());
    QVERIFY(panel.messageBar()->text().isEmpty()); // a valid spec: the file is read when run
    panel.compute();
    QTRY_VERIFY_WITH_TIMEOUT(!panel.messageBar()->text().isEmpty(), kWaitMs);
    QCOMPARE(panel.messageBar()->kind(), MessageBar::Kind::Error);
    QCOMPARE(panel.messageBar()->text(), QStringLiteral("The LLM region failed: ") +
                                             QString::fromStdString(expected.error().toString()));
    QVERIFY(panel.messageBar()->text().contains(QStringLiteral("requests-not-there.jsonl")));
    QVERIFY(!panel.result());
    QVERIFY(panel.heatmap()->emptyText().contains(QStringLiteral("requests-not-there.jsonl")));
}

void TestLlmRegionPanel::capacityCurvesAreTheResultsCapacityAtTheSlice()
{
    auto spec = knownAnswerSpec();
    spec.replicas = {1, 2};
    const auto expected = computedHere(spec);
    JobRunner jobs;
    LlmRegionPanel panel(&jobs);
    panel.resize(1400, 1000);
    QVERIFY(computeAndWait(panel, spec));
    QVERIFY(panel.capacityPanel()->isVisibleTo(&panel));
    QComboBox* replicas = panel.slicePicker(LlmAxis::Replicas);
    QVERIFY(replicas->isVisibleTo(&panel));
    QCOMPARE(replicas->count(), 2);
    for (int picked : {0, 1}) {
        replicas->setCurrentIndex(picked);
        const auto& content = panel.capacityPanel()->content();
        const int wantedReplicas = spec.replicas[std::size_t(picked)];
        // Every configuration of these replicas is a point: on its max_num_seqs line at its
        // capacity, or on the "fails even the lowest load" series at zero.
        // A line drawn for several max_num_seqs of equal capacities counts once for each.
        qsizetype drawn = 0;
        for (const auto& series : content.series)
            if (series.data.name.startsWith(QStringLiteral("max_num_seqs ")))
                drawn += series.data.points.size() * (series.data.name.count(QLatin1Char(',')) + 1);
            else if (series.data.name.startsWith(QStringLiteral("fails even")))
                drawn += series.data.points.size();
        qsizetype configurations = 0, failing = 0;
        for (const auto& c : expected.capacity) {
            if (c.knobs.replicas != wantedReplicas)
                continue;
            ++configurations;
            const QPointF point(c.knobs.maxNumBatchedTokens, c.capacityCell ? c.knobs.load : 0.0);
            failing += !c.capacityCell;
            const SeriesSpec* series = nullptr;
            for (const auto& s : content.series)
                if (s.data.name ==
                    QStringLiteral("fails even the lowest load (2 req/s), drawn at 0"))
                    series = &s;
            if (c.capacityCell)
                series = capacityLineOf(content, c.knobs.maxNumSeqs);
            QVERIFY2(series && series->data.points.contains(point),
                     qPrintable(QStringLiteral("max_num_seqs %1 at (%2, %3)")
                                    .arg(c.knobs.maxNumSeqs)
                                    .arg(point.x())
                                    .arg(point.y())));
        }
        QCOMPARE(drawn, configurations);
        QCOMPARE(configurations, qsizetype(9));
        QCOMPARE(failing, qsizetype(3)); // the refused 512-token budget, each max_num_seqs
        QCOMPARE(content.yTitle, QStringLiteral("Highest rate met (req/s)"));
        QCOMPARE(content.title,
                 QStringLiteral("Capacity per configuration at replicas %1").arg(wantedReplicas));
    }
}

void TestLlmRegionPanel::theKvMemoryPickerSlicesTheHeatmap()
{
    // Llama-3.1-8B on a 20 GiB GPU: 0.85 of it leaves the KV cache 533 blocks, 0.95 1,557
    // (tst_llmregionkvmemory); each share is a slice of its own.
    auto spec = knownAnswerSpec();
    llmsim::KvMemorySpec memory;
    memory.modelConfig = "builtin:llama-3.1-8b";
    memory.deviceMemoryGib = 20.0;
    spec.scenario.engine.kvMemory = memory;
    spec.scenario.engine.numGpuBlocks = 0;
    spec.gpuMemoryUtilizations = {0.85, 0.95};
    const auto expected = computedHere(spec);
    JobRunner jobs;
    LlmRegionPanel panel(&jobs);
    panel.resize(1400, 1000);
    QVERIFY(computeAndWait(panel, spec));
    QComboBox* share = panel.slicePicker(LlmAxis::GpuMemoryUtilization);
    QVERIFY(share->isVisibleTo(&panel));
    QCOMPARE(share->count(), 2);
    QCOMPARE(share->itemText(0), QStringLiteral("0.85"));
    QCOMPARE(share->itemText(1), QStringLiteral("0.95"));
    bool captioned = false;
    for (const QLabel* label : panel.findChildren<QLabel*>())
        captioned = captioned || label->text() == QStringLiteral("GPU memory utilization:");
    QVERIFY(captioned);
    QStringList texts[2];
    for (int picked : {0, 1}) {
        share->setCurrentIndex(picked);
        for (std::size_t row = 0; row < spec.maxNumSeqs.size(); ++row) {
            for (std::size_t column = 0; column < spec.maxNumBatchedTokens.size(); ++column) {
                std::array<std::size_t, analysis::kLlmAxisCount> at{};
                at[std::size_t(LlmAxis::GpuMemoryUtilization)] = std::size_t(picked);
                at[std::size_t(LlmAxis::Load)] =
                    std::size_t(panel.slicePicker(LlmAxis::Load)->currentIndex());
                at[std::size_t(LlmAxis::MaxNumSeqs)] = row;
                at[std::size_t(LlmAxis::MaxNumBatchedTokens)] = column;
                const auto& c = cellAt(expected, at);
                QCOMPARE(c.knobs.gpuMemoryUtilization, spec.gpuMemoryUtilizations[picked]);
                const bool best =
                    expected.recommendation && expected.recommendation->cell == c.index;
                QCOMPARE(panel.heatmap()->cellText(column, row), expectedCellText(c, best));
                texts[picked] << panel.heatmap()->cellText(column, row);
                QVERIFY(panel.heatmap()
                            ->cellToolTip(column, row)
                            .contains(QStringLiteral("gpu_memory_utilization %1")
                                          .arg(number(spec.gpuMemoryUtilizations[picked]))));
            }
        }
    }
    QVERIFY2(texts[0] != texts[1], "the two shares must draw different slices");
}

void TestLlmRegionPanel::aNonMonotoneCapacityIsMarked()
{
    // No small grid meets a load again above a failure, so the flag is set on a computed
    // result: the chart must mark that configuration's capacity, and only it.
    auto marked = computedHere(knownAnswerSpec());
    auto found = std::find_if(marked.capacity.begin(), marked.capacity.end(),
                              [](const auto& c) { return c.capacityCell.has_value(); });
    QVERIFY(found != marked.capacity.end());
    found->nonMonotone = true;
    found->note = "met again at a higher load";
    const auto content = llmCapacityChart(marked, defaultLlmSlice(marked));
    const SeriesSpec* series = nullptr;
    for (const auto& s : content.series)
        if (s.data.name == QStringLiteral("non-monotone: met again above a failure"))
            series = &s;
    QVERIFY(series);
    QCOMPARE(series->data.points,
             QList<QPointF>({QPointF(found->knobs.maxNumBatchedTokens, found->knobs.load)}));
    QVERIFY(series->pointNotes.value(0).contains(QStringLiteral("met again at a higher load")));
    for (const auto& s :
         llmCapacityChart(computedHere(knownAnswerSpec()), defaultLlmSlice(marked)).series)
        QVERIFY(!s.data.name.startsWith(QStringLiteral("non-monotone")));
}

void TestLlmRegionPanel::cancelStopsTheComputation()
{
    auto spec = knownAnswerSpec();
    spec.scenario.arrivals.count = 20000; // long enough to be cancelled while it runs
    JobRunner jobs;
    LlmRegionPanel panel(&jobs);
    QSignalSpy ready(&panel, &LlmRegionPanel::resultReady);
    QSignalSpy ended(&jobs, &JobRunner::jobEnded);
    panel.setSpec(spec, QDir::tempPath());
    panel.compute();
    QVERIFY(jobs.isRunning(QStringLiteral("llmregion")));
    QVERIFY(panel.cancelButton()->isEnabled());
    panel.cancelButton()->click();
    QVERIFY(!panel.cancelButton()->isEnabled());
    QVERIFY(panel.statusLabel()->text().startsWith(QStringLiteral("Cancelled")));
    QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, kWaitMs);
    QCOMPARE(ended.first().at(1).toBool(), true); // the job stopped as cancelled
    QTest::qWait(50);
    QCOMPARE(ready.count(), 0);
    QVERIFY(!panel.result());
    QVERIFY(panel.statusLabel()->text().startsWith(QStringLiteral("Cancelled")));
}

void TestLlmRegionPanel::heatmapHasTableExportAndTheCurvePacksFigure()
{
    // What every chart has: a Table of the cells shown (the region's own numbers), Copy, Export
    // (PNG, SVG, CSV) and Attach to memo with the curve pack's heatmap figure.
    const auto spec = knownAnswerSpec();
    JobRunner jobs;
    LlmRegionPanel panel(&jobs);
    panel.resize(1400, 1000);
    panel.show();
    auto* heatmapPanel = panel.heatmapPanel();
    QVERIFY(!heatmapPanel->figure());
    QCOMPARE(heatmapPanel->table()->rowCount(), 0);
    QVERIFY(computeAndWait(panel, spec));
    const auto shown = panel.result();
    QVERIFY(shown);
    QStringList actions;
    for (const QAction* action : heatmapPanel->chartActions())
        actions << action->text();
    QCOMPARE(actions, QStringList({QStringLiteral("Table"), QStringLiteral("Copy"),
                                   QStringLiteral("Export…"), QStringLiteral("Attach to memo")}));
    auto* table = heatmapPanel->table();
    const auto* heatmap = panel.heatmap();
    QCOMPARE(std::size_t(table->rowCount()), heatmap->rows() * heatmap->columns());
    QCOMPARE(table->horizontalHeaderItem(5)->text(), QStringLiteral("TTFT p99 (ms)"));
    // Row by row, the cell at those knobs in the shown slice, with its own TTFT p99.
    for (int row = 0; row < table->rowCount(); ++row) {
        const int budget = table->item(row, 0)->data(Qt::DisplayRole).toInt();
        const int seqs = table->item(row, 1)->data(Qt::DisplayRole).toInt();
        const analysis::LlmRegionCell* cell = nullptr;
        for (std::size_t r = 0; r < heatmap->rows(); ++r)
            for (std::size_t c = 0; c < heatmap->columns(); ++c)
                if (const auto* at = heatmap->cellAtGrid(c, r);
                    at && at->knobs.maxNumSeqs == seqs && at->knobs.maxNumBatchedTokens == budget)
                    cell = at;
        QVERIFY(cell);
        const double ttft = cell->metrics.ttftP99Ms.value;
        if (std::isfinite(ttft))
            QCOMPARE(table->item(row, 5)->data(Qt::DisplayRole).toDouble(),
                     QLocale::c().toString(ttft, 'g', 5).toDouble());
        else
            QCOMPARE(table->item(row, 5)->text(), QStringLiteral("—"));
    }
    heatmapPanel->showTable(true);
    QVERIFY(heatmapPanel->isShowingTable());
    QTemporaryDir dir;
    for (const char* name : {"heatmap.png", "heatmap.svg", "heatmap.csv"}) {
        const QString path = dir.filePath(QString::fromLatin1(name));
        QVERIFY2(heatmapPanel->exportTo(path), name);
        QVERIFY(QFileInfo(path).size() > 0);
    }
    QVERIFY(heatmapPanel->csv().startsWith(QStringLiteral("max_num_batched_tokens,max_num_seqs,")));
    const auto figure = heatmapPanel->figure();
    QVERIFY(figure && figure->heatmap);
    const auto expected = analysis::llmRegionFigures(*shown);
    QCOMPARE(figure->title, expected.front().figure.title);
}

QTEST_MAIN(TestLlmRegionPanel)
#include "tst_llmregionpanel.moc"
