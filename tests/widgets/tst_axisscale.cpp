#include "charts/axisscale.h"

#include <QtTest>

using namespace bs::widgets;

class TestAxisScale : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void linear_data();
    void linear();
    void flatRangeIsWidened();
    void logarithmic_data();
    void logarithmic();
    void logBaseWidensUntilLabelsFit_data();
    void logBaseWidensUntilLabelsFit();
};

void TestAxisScale::linear_data()
{
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<bool>("zero");
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("max");
    QTest::addColumn<double>("step");
    QTest::newRow("throughput") << 1040.0 << 11420.0 << true << 0.0 << 12000.0 << 2000.0;
    QTest::newRow("latency ms") << 0.8 << 33.2 << false << 0.0 << 40.0 << 10.0;
    QTest::newRow("tiny") << 0.0012 << 0.0047 << false << 0.001 << 0.005 << 0.001;
    QTest::newRow("negative") << -3.0 << 7.0 << false << -4.0 << 8.0 << 2.0;
}

void TestAxisScale::linear()
{
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(bool, zero);
    QFETCH(double, min);
    QFETCH(double, max);
    QFETCH(double, step);
    const AxisScale scale = AxisScale::linear(lo, hi, 7, zero);
    QCOMPARE(scale.min, min);
    QCOMPARE(scale.max, max);
    QCOMPARE(scale.tickInterval, step);
    QVERIFY(scale.tickCount <= 8);
    QVERIFY(scale.min <= lo && scale.max >= hi);
}

void TestAxisScale::flatRangeIsWidened()
{
    const AxisScale scale = AxisScale::linear(250.0, 250.0);
    QVERIFY(scale.min < 250.0 && scale.max > 250.0);
    const AxisScale zero = AxisScale::linear(0.0, 0.0);
    QVERIFY(zero.min < 0.0 && zero.max > 0.0);
    // Anchored at zero (counts): a flat zero stays on the axis's floor.
    const AxisScale noneSoFar = AxisScale::linear(0.0, 0.0, 7, true);
    QCOMPARE(noneSoFar.min, 0.0);
    QVERIFY(noneSoFar.max > 0.0);
}

void TestAxisScale::logarithmic_data()
{
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<double>("base");
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("max");
    QTest::addColumn<int>("ticks");
    QTest::newRow("batch 1..1024") << 1.0 << 1024.0 << 2.0 << 1.0 << 1024.0 << 11;
    QTest::newRow("batch 3..100") << 3.0 << 100.0 << 2.0 << 2.0 << 128.0 << 7;
    QTest::newRow("latency decades") << 0.4 << 250.0 << 10.0 << 0.1 << 1000.0 << 5;
}

void TestAxisScale::logarithmic()
{
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(double, base);
    QFETCH(double, min);
    QFETCH(double, max);
    QFETCH(int, ticks);
    const AxisScale scale = AxisScale::logarithmic(lo, hi, base);
    QCOMPARE(scale.min, min);
    QCOMPARE(scale.max, max);
    QCOMPARE(scale.tickCount, ticks);
}

void TestAxisScale::logBaseWidensUntilLabelsFit_data()
{
    // Issue 21: batch 1..256 on a chart a quarter of 1366 px wide showed "1…", "2…".
    QTest::addColumn<double>("widthPx");
    QTest::addColumn<double>("base");
    QTest::addColumn<int>("ticks");
    QTest::newRow("wide: every power of two") << 600.0 << 2.0 << 9;
    QTest::newRow("quarter screen: powers of four") << 250.0 << 4.0 << 5;
    QTest::newRow("tiny: powers of sixteen") << 120.0 << 16.0 << 3;
    QTest::newRow("never beyond base^8") << 10.0 << 256.0 << 2;
}

void TestAxisScale::logBaseWidensUntilLabelsFit()
{
    QFETCH(double, widthPx);
    QFETCH(double, base);
    QFETCH(int, ticks);
    const double fitted = AxisScale::fittingLogBase(2.0, 1.0, 256.0, widthPx, 36.0);
    QCOMPARE(fitted, base);
    QCOMPARE(AxisScale::logarithmic(1.0, 256.0, fitted).tickCount, ticks);
}

QTEST_APPLESS_MAIN(TestAxisScale)
#include "tst_axisscale.moc"
