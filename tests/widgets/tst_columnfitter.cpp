// How a table shares its width among its columns (ColumnFitter::widthsFor), and that a real
// table laid out by it shows every cell whole.
#include "panels/columnfitter.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTableWidget>
#include <QtTest>

#include <numeric>

using bs::widgets::ColumnFitter;

class TestColumnFitter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void contentsThatFitKeepTheirWidthAndTheLastColumnTakesTheRest();
    void narrowTablesShareWhatIsAboveTheMinimums();
    void onlyColumnsWithTheLongestWordsNarrowWhenEvenMinimumsDoNotFit();
    void hiddenColumnsGetNothing();
    void aNarrowTableWrapsRatherThanScrolls();
};

static int sum(const QVector<int>& widths)
{
    return std::accumulate(widths.begin(), widths.end(), 0);
}

void TestColumnFitter::contentsThatFitKeepTheirWidthAndTheLastColumnTakesTheRest()
{
    const QVector<int> widths = ColumnFitter::widthsFor({100, 50, 80}, {60, 40, 50}, 300);
    QCOMPARE(widths, (QVector<int>{100, 50, 150}));
}

void TestColumnFitter::narrowTablesShareWhatIsAboveTheMinimums()
{
    // Natural 400, minimum 200, room 300: each column gets its minimum plus half of its wish.
    const QVector<int> widths = ColumnFitter::widthsFor({100, 300}, {80, 120}, 300);
    QCOMPARE(widths, (QVector<int>{90, 210}));
    QCOMPARE(sum(widths), 300);
}

void TestColumnFitter::onlyColumnsWithTheLongestWordsNarrowWhenEvenMinimumsDoNotFit()
{
    // Minimums 60 + 250 + 50 = 360 > 300: the label and number columns keep theirs; the
    // column with a long identifier is capped and breaks it.
    const QVector<int> widths = ColumnFitter::widthsFor({60, 400, 50}, {60, 250, 50}, 300);
    QCOMPARE(widths, (QVector<int>{60, 190, 50}));
}

void TestColumnFitter::hiddenColumnsGetNothing()
{
    const QVector<int> widths = ColumnFitter::widthsFor({100, 50, 0, 0}, {60, 40, 0, 0}, 300);
    QCOMPARE(widths, (QVector<int>{100, 200, 0, 0}));
}

void TestColumnFitter::aNarrowTableWrapsRatherThanScrolls()
{
    QTableWidget table(3, 3);
    table.setHorizontalHeaderLabels(
        {QStringLiteral("Metric"), QStringLiteral("Value"), QStringLiteral("95% CI")});
    const QStringList values = {QStringLiteral("4 replications × 187,600 requests"),
                                QStringLiteral("exact order statistics, linear interpolation"),
                                QStringLiteral("[7,558.4, 8,865.9] req/s")};
    for (int row = 0; row < 3; ++row) {
        table.setItem(row, 0, new QTableWidgetItem(QStringLiteral("Run length")));
        table.setItem(row, 1, new QTableWidgetItem(values[row]));
        table.setItem(row, 2, new QTableWidgetItem(values[2]));
    }
    ColumnFitter::attach(&table);
    table.resize(320, 400);
    table.show();
    QVERIFY(QTest::qWaitForWindowExposed(&table));
    QTRY_COMPARE(table.horizontalScrollBar()->maximum(), 0);
    // The long value wrapped onto more lines instead of being cut.
    QTRY_VERIFY(table.rowHeight(1) > 2 * table.fontMetrics().height());
}

QTEST_MAIN(TestColumnFitter)
#include "tst_columnfitter.moc"
