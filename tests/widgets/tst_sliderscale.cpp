#include "panels/sliderscale.h"

#include <QtTest>

#include <cmath>

using namespace bs::widgets;

Q_DECLARE_METATYPE(SliderScale)

/// The Model dock's sliders (issue 21: the SLA slider fell from 15 ms to 0.10 ms within
/// ~100 px because positions were spread unevenly and landed between round values).
class TestSliderScale : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void mapsMonotonically_data();
    void mapsMonotonically();
    void roundTripsWithinOneStep_data();
    void roundTripsWithinOneStep();
    void everyDecadeGetsTheSamePositions();
    void roundValuesAreReachable_data();
    void roundValuesAreReachable();
    void zeroKeepsTheFirstPosition();
    void linearScaleIsEven();
};

namespace {

void addDockScales()
{
    QTest::addColumn<SliderScale>("scale");
    QTest::newRow("SLA p99 ms") << SliderScale{0.1, 1000.0, true, 0.0};
    QTest::newRow("arrival rate req/s") << SliderScale{1.0, 1.0e6, true, 0.0};
    QTest::newRow("max queue delay ms") << SliderScale{0.0, 100.0, true, 0.1};
    QTest::newRow("burstiness") << SliderScale{0.0, 20.0, true, 0.1};
    QTest::newRow("fusion") << SliderScale{1.0, 16.0, true, 0.0};
    QTest::newRow("power cap W") << SliderScale{50.0, 1000.0, false, 0.0};
}

} // namespace

void TestSliderScale::mapsMonotonically_data()
{
    addDockScales();
}

void TestSliderScale::mapsMonotonically()
{
    QFETCH(SliderScale, scale);
    QCOMPARE(scale.toValue(0), scale.minimum);
    QCOMPARE(scale.toValue(scale.maximumPosition()), scale.maximum);
    for (int p = 1; p <= scale.maximumPosition(); ++p) {
        // Strictly increasing except where the last decade is cut at the maximum.
        const double before = scale.toValue(p - 1);
        const double after = scale.toValue(p);
        QVERIFY2(
            after > before || after == scale.maximum,
            qPrintable(QStringLiteral("position %1: %2 after %3").arg(p).arg(after).arg(before)));
    }
}

void TestSliderScale::roundTripsWithinOneStep_data()
{
    addDockScales();
}

void TestSliderScale::roundTripsWithinOneStep()
{
    QFETCH(SliderScale, scale);
    // value -> slider -> value lands on the nearest position: at most one step away.
    for (double t = 0.0; t <= 1.0; t += 0.0137) {
        const double value = scale.isLogarithmic() && scale.minimum > 0.0
                                 ? scale.minimum * std::pow(scale.maximum / scale.minimum, t)
                                 : scale.minimum + t * (scale.maximum - scale.minimum);
        const int position = scale.toPosition(value);
        const double back = scale.toValue(position);
        const double below = scale.toValue(position - 1);
        const double above = scale.toValue(position + 1);
        QVERIFY2(value >= below && value <= above,
                 qPrintable(QStringLiteral("%1 -> position %2 -> %3 (neighbours %4, %5)")
                                .arg(value)
                                .arg(position)
                                .arg(back)
                                .arg(below)
                                .arg(above)));
        QCOMPARE(scale.toPosition(back), position);
    }
}

void TestSliderScale::everyDecadeGetsTheSamePositions()
{
    const SliderScale sla{0.1, 1000.0, true, 0.0};
    QCOMPARE(sla.maximumPosition(), 4 * SliderScale::kStepsPerDecade);
    // Equal position distances (so equal pixels) per decade, wherever on the slider.
    const int fromTenthToOne = sla.toPosition(1.0) - sla.toPosition(0.1);
    QCOMPARE(fromTenthToOne, SliderScale::kStepsPerDecade);
    QCOMPARE(sla.toPosition(15.0) - sla.toPosition(1.5), fromTenthToOne);
    QCOMPARE(sla.toPosition(1000.0) - sla.toPosition(100.0), fromTenthToOne);
    // 15 ms to 0.1 ms is 2.2 decades: 185 of 360 positions (two decades, then 1.0 to 1.5 in
    // rungs of 0.1), more than half the slider.
    QCOMPARE(sla.toPosition(15.0) - sla.toPosition(0.1), 185);
}

void TestSliderScale::roundValuesAreReachable_data()
{
    QTest::addColumn<SliderScale>("scale");
    QTest::addColumn<double>("value");
    QTest::newRow("SLA 15 ms") << SliderScale{0.1, 1000.0, true, 0.0} << 15.0;
    QTest::newRow("SLA 130 ms") << SliderScale{0.1, 1000.0, true, 0.0} << 130.0;
    QTest::newRow("SLA 0.5 ms") << SliderScale{0.1, 1000.0, true, 0.0} << 0.5;
    QTest::newRow("rate 7,800 req/s") << SliderScale{1.0, 1.0e6, true, 0.0} << 7800.0;
    QTest::newRow("delay 2 ms") << SliderScale{0.0, 100.0, true, 0.1} << 2.0;
    QTest::newRow("delay 0.25 ms") << SliderScale{0.0, 100.0, true, 0.1} << 0.25;
}

void TestSliderScale::roundValuesAreReachable()
{
    QFETCH(SliderScale, scale);
    QFETCH(double, value);
    QCOMPARE(scale.toValue(scale.toPosition(value)), value);
}

void TestSliderScale::zeroKeepsTheFirstPosition()
{
    const SliderScale delay{0.0, 100.0, true, 0.1};
    QCOMPARE(delay.toPosition(0.0), 0);
    QCOMPARE(delay.toValue(0), 0.0);
    QCOMPARE(delay.toValue(1), 0.1);
    QCOMPARE(delay.maximumPosition(), 1 + 3 * SliderScale::kStepsPerDecade);
}

void TestSliderScale::linearScaleIsEven()
{
    const SliderScale cap{50.0, 1000.0, false, 0.0};
    QCOMPARE(cap.maximumPosition(), SliderScale::kLinearSteps);
    QCOMPARE(cap.toValue(500), 525.0);
    QCOMPARE(cap.toPosition(525.0), 500);
}

QTEST_APPLESS_MAIN(TestSliderScale)
#include "tst_sliderscale.moc"
