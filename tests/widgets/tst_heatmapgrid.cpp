// Where a region heatmap's cells lie (HeatmapGrid): rows from the bottom, the plot shared out
// with no cell overlapping another, and a position mapped back to the cell that holds it.
#include "charts/heatmapgrid.h"

#include <QtTest>

using namespace bs::widgets;

class TestHeatmapGrid : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rowZeroIsAtTheBottomAndColumnZeroAtTheLeft()
    {
        const HeatmapGrid grid{QRect(10, 20, 300, 200), 3, 2};
        const QRect first = grid.cellRect(0, 0);
        QCOMPARE(first.left(), 10);
        QCOMPARE(first.bottom(), QRect(10, 20, 300, 200).bottom());
        QVERIFY(grid.cellRect(0, 1).bottom() < first.top());
        QVERIFY(grid.cellRect(1, 0).left() > first.right());
        QCOMPARE(grid.cellRect(2, 1).right(), QRect(10, 20, 300, 200).right());
    }

    void cellsTileThePlotWithoutOverlap()
    {
        // 7 columns of a 500 px plot do not divide evenly: rounding must not overlap cells.
        const HeatmapGrid grid{QRect(0, 0, 500, 301), 7, 3};
        for (std::size_t a = 0; a < 21; ++a)
            for (std::size_t b = a + 1; b < 21; ++b)
                QVERIFY(!grid.cellRect(a % 7, a / 7).intersects(grid.cellRect(b % 7, b / 7)));
    }

    void aPositionMapsBackToItsCell()
    {
        const HeatmapGrid grid{QRect(0, 0, 500, 301), 7, 3};
        for (std::size_t row = 0; row < 3; ++row)
            for (std::size_t column = 0; column < 7; ++column) {
                const auto at = grid.cellAt(grid.cellRect(column, row).center());
                QVERIFY(at);
                QCOMPARE(at->first, column);
                QCOMPARE(at->second, row);
            }
        QVERIFY(!grid.cellAt(QPoint(-5, 10)));
        QVERIFY(!grid.cellAt(QPoint(600, 10)));
    }
};

QTEST_GUILESS_MAIN(TestHeatmapGrid)
#include "tst_heatmapgrid.moc"
