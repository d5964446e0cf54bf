// The chart panel's legend and titles in narrow panels and projector mode: names are never cut
// short (the legend wraps, titles go on two lines), a legend click hides its series, and
// exported images carry the legend under the chart.
#include "charts/chartlegend.h"
#include "charts/chartpanel.h"
#include "charts/chartview.h"
#include "models/seriestablemodel.h"

#include <QAbstractAxis>
#include <QChart>
#include <QImage>
#include <QLabel>
#include <QScopeGuard>
#include <QTableView>
#include <QTemporaryDir>
#include <QXYSeries>
#include <QtTest>

using namespace bs::widgets;

namespace {

ChartContent content(const QString& title, int seriesCount)
{
    ChartContent c;
    c.title = title;
    c.xTitle = QStringLiteral("Time since the first arrival in the trace (s)");
    c.yTitle = QStringLiteral("Throughput (inferences/s)");
    for (int i = 0; i < seriesCount; ++i) {
        SeriesSpec spec;
        spec.data.name = QStringLiteral("Candidate %1: 250 W cap, dynamic batching").arg(i + 1);
        spec.data.points = {QPointF(1, 10 + i), QPointF(2, 20 + i), QPointF(4, 30 + i)};
        c.series.append(spec);
    }
    c.references.append({QStringLiteral("SLA p99 15 ms"), 15.0});
    return c;
}

/// A panel of `size` on screen (offscreen platform), showing `chart`.
std::unique_ptr<ChartPanel> shownPanel(QSize size, const ChartContent& chart)
{
    auto panel = std::make_unique<ChartPanel>();
    panel->resize(size);
    panel->show();
    if (!QTest::qWaitForWindowExposed(panel.get()))
        return nullptr;
    panel->setContent(chart);
    return panel;
}

} // namespace

class TestChartPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void legendKeepsWholeNamesAndWraps();
    void legendClickTogglesTheSeries();
    void longTitlesGoOnTwoLinesInsteadOfBeingCut();
    void exportedImageCarriesTheLegend();
    void emptyStateTextOverlapsNothing();
    void theTableShowsTheLatestNumbersInTheUsersOrder();
};

void TestChartPanel::legendKeepsWholeNamesAndWraps()
{
    const auto owned = shownPanel(QSize(900, 500), content(QStringLiteral("Throughput"), 3));
    QVERIFY(owned);
    ChartPanel& panel = *owned;
    ChartLegend* legend = panel.legend();
    QCOMPARE(legend->names(),
             QStringList({QStringLiteral("Candidate 1: 250 W cap, dynamic batching"),
                          QStringLiteral("Candidate 2: 250 W cap, dynamic batching"),
                          QStringLiteral("Candidate 3: 250 W cap, dynamic batching"),
                          QStringLiteral("SLA p99 15 ms")}));
    QVERIFY(!panel.chartView()->chart()->legend()->isVisible());
    const int wide = legend->heightForWidth(900);
    const int narrow = legend->heightForWidth(300);
    QVERIFY2(narrow >= 3 * wide / 2, qPrintable(QStringLiteral("%1 vs %2").arg(narrow).arg(wide)));
    // Projector mode: bigger type, more lines, never a shorter name.
    ChartView::setLargeFontMode(true);
    const auto normalFonts = qScopeGuard([] { ChartView::setLargeFontMode(false); });
    QVERIFY(legend->heightForWidth(300) > narrow);
    // Secondary series stay out of it.
    ChartContent partial = content(QStringLiteral("Throughput"), 2);
    partial.series[1].inLegend = false;
    panel.setContent(partial);
    QCOMPARE(legend->names().size(), 2);
}

void TestChartPanel::legendClickTogglesTheSeries()
{
    const auto owned = shownPanel(QSize(900, 500), content(QStringLiteral("Throughput"), 2));
    QVERIFY(owned);
    ChartPanel& panel = *owned;
    ChartLegend* legend = panel.legend();
    QTRY_VERIFY(legend->height() > 0);
    QAbstractSeries* first = panel.chartView()->chart()->series().front();
    QVERIFY(first->isVisible());
    // The first entry starts at the left of the first (centred) row: click its swatch.
    // The middle of the first row (the legend's margin is 4 px, a row a line and 2 px).
    const QPoint at(legend->width() / 2,
                    4 + (QFontMetrics(ChartView::labelFont()).height() + 2) / 2);
    for (int x = 0; x < legend->width(); ++x) {
        QTest::mouseClick(legend, Qt::LeftButton, {}, QPoint(x, at.y()));
        if (!first->isVisible())
            break;
    }
    QVERIFY(!first->isVisible());
    legend->toggle(0);
    QVERIFY(first->isVisible());
}

void TestChartPanel::longTitlesGoOnTwoLinesInsteadOfBeingCut()
{
    const QString title = QStringLiteral("Latency distribution — p50 and p99 with intervals");
    const auto owned = shownPanel(QSize(260, 400), content(title, 1));
    QVERIFY(owned);
    ChartPanel& panel = *owned;
    QChart* chart = panel.chartView()->chart();
    QVERIFY2(chart->title().contains(QStringLiteral("<br>")), qPrintable(chart->title()));
    QCOMPARE(chart->title().replace(QStringLiteral("<br>"), QStringLiteral(" ")), title);
    // Where the lines break depends on the font; every word is still there.
    QString xTitle = chart->axes(Qt::Horizontal).front()->titleText();
    QVERIFY2(xTitle.contains(QStringLiteral("<br>")), qPrintable(xTitle));
    QCOMPARE(xTitle.replace(QStringLiteral("<br>"), QStringLiteral(" ")),
             QStringLiteral("Time since the first arrival in the trace (s)"));
    // The vertical title fits the plot's height: on one line here, broken when the plot is short.
    QTRY_COMPARE(chart->axes(Qt::Vertical).front()->titleText(),
                 QStringLiteral("Throughput (inferences/s)"));
    panel.resize(260, 230);
    QTRY_COMPARE(chart->axes(Qt::Vertical).front()->titleText(),
                 QStringLiteral("Throughput<br>(inferences/s)"));
    // Wide enough: as given.
    panel.resize(1400, 400);
    QTRY_COMPARE(chart->title(), title);
}

void TestChartPanel::exportedImageCarriesTheLegend()
{
    const auto owned = shownPanel(QSize(600, 400), content(QStringLiteral("Throughput"), 3));
    QVERIFY(owned);
    ChartPanel& panel = *owned;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.png"));
    QVERIFY(panel.exportTo(path));
    const QImage image(path);
    const QSize view = panel.chartView()->size();
    const int legend = panel.legend()->heightForWidth(view.width());
    QVERIFY(legend > 0);
    QCOMPARE(image.size(), QSize(view.width(), view.height() + legend) * 2);
    // The legend band is drawn, not left blank: its swatches and names differ from the
    // background.
    const QColor background = image.pixelColor(1, image.height() - 1);
    int drawn = 0;
    for (int y = view.height() * 2; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            drawn += image.pixelColor(x, y) != background;
    QVERIFY2(drawn > 200, qPrintable(QString::number(drawn)));
}

// Regression (issue 21, Views): the empty-state text of the MTIA trace's kernel chart was drawn
// over the axes. Empty, a chart shows its title and the explanation under it, and nothing else.
void TestChartPanel::emptyStateTextOverlapsNothing()
{
    ChartContent empty = content(QStringLiteral("Device time per step by kernel class"), 2);
    for (SeriesSpec& spec : empty.series)
        spec.data.points.clear();
    empty.emptyText = QStringLiteral("No device activity: the trace has no kernel, memcpy or "
                                     "accelerator runtime events on a device stream");
    const auto panel = shownPanel(QSize(420, 300), empty);
    QVERIFY(panel);
    QVERIFY(panel->isShowingEmptyState());
    QCOMPARE(panel->emptyStateText(), empty.emptyText);
    QChart* chart = panel->chartView()->chart();
    QVERIFY(!chart->axes().isEmpty());
    for (QAbstractAxis* axis : chart->axes())
        QVERIFY2(!axis->isVisible(), qPrintable(axis->titleText()));
    const auto series = chart->series();
    QVERIFY(!series.back()->isVisible()); // the reference line
    QVERIFY(!panel->legend()->isVisible());
    // Under the title, inside the view, and tall enough for the wrapped text.
    const QRect text = panel->emptyStateRect();
    QVERIFY(text.top() >= 2 * QFontMetrics(chart->titleFont()).height());
    QVERIFY(panel->chartView()->rect().contains(text));
    QLabel probe;
    probe.setWordWrap(true);
    probe.setText(empty.emptyText);
    QVERIFY(probe.heightForWidth(text.width()) <= text.height());

    // Data again: axes and the reference line come back, the text goes.
    panel->setContent(content(QStringLiteral("Device time per step by kernel class"), 2));
    QVERIFY(!panel->isShowingEmptyState());
    QVERIFY(panel->emptyStateText().isEmpty());
    for (QAbstractAxis* axis : chart->axes())
        QVERIFY(axis->isVisible());
    QVERIFY(chart->series().back()->isVisible());
    QVERIFY(panel->legend()->isVisible());
}

void TestChartPanel::theTableShowsTheLatestNumbersInTheUsersOrder()
{
    // The sortable table is fed only while shown; data that changed while the chart was shown
    // must be there when the user switches to the table, in the order they sorted it by.
    auto panel = shownPanel(QSize(700, 450), content(QStringLiteral("Throughput"), 1));
    QVERIFY(panel);
    auto* table = panel->findChild<QTableView*>();
    QVERIFY(table);
    panel->showTable(true);
    QCOMPARE(table->model()->rowCount(), 3);
    table->sortByColumn(2, Qt::DescendingOrder); // y, largest first
    QCOMPARE(table->model()->index(0, 2).data().toString(), QLocale().toString(30.0, 'g', 6));
    panel->showTable(false);

    ChartContent changed = content(QStringLiteral("Throughput"), 1);
    changed.series[0].data.points = {QPointF(1, 5), QPointF(2, 50), QPointF(4, 40), QPointF(8, 45)};
    panel->setContent(changed);
    QCOMPARE(panel->tableModel()->rowCount(), 4); // CSV and copy read the model, always current
    panel->showTable(true);
    QCOMPARE(table->model()->rowCount(), 4);
    QStringList ys;
    for (int row = 0; row < 4; ++row)
        ys << table->model()->index(row, 2).data().toString();
    const QLocale locale;
    QCOMPARE(ys, (QStringList{locale.toString(50.0, 'g', 6), locale.toString(45.0, 'g', 6),
                              locale.toString(40.0, 'g', 6), locale.toString(5.0, 'g', 6)}));
}

QTEST_MAIN(TestChartPanel)
#include "tst_chartpanel.moc"
