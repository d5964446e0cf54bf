#include "util/decimate.h"

#include <QtTest>

#include <cmath>

using namespace bs;

class TestDecimate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void smallSeriesPassThrough();
    void peaksSurviveAndOrderIsKept();
};

void TestDecimate::smallSeriesPassThrough()
{
    const std::vector<double> x = {1, 2, 3};
    const std::vector<double> y = {5, 6, 7};
    const auto out = decimateMinMax(x, y, 100);
    QCOMPARE(out.size(), std::size_t(3));
    QCOMPARE(out[2].y, 7.0);
}

void TestDecimate::peaksSurviveAndOrderIsKept()
{
    const std::size_t n = 1000000;
    std::vector<double> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = double(i);
        y[i] = std::sin(double(i) * 1e-4);
    }
    y[123456] = 50.0;  // a spike
    y[654321] = -50.0; // a dip
    const auto out = decimateMinMax(x, y, 800);
    QVERIFY(out.size() <= 800 * 4);
    QVERIFY(out.size() > 800);
    double maxY = -1e9, minY = 1e9;
    for (std::size_t i = 0; i < out.size(); ++i) {
        maxY = std::max(maxY, out[i].y);
        minY = std::min(minY, out[i].y);
        if (i > 0)
            QVERIFY(out[i].x > out[i - 1].x);
    }
    QCOMPARE(maxY, 50.0);
    QCOMPARE(minY, -50.0);
    QCOMPARE(out.front().x, 0.0);
    QCOMPARE(out.back().x, double(n - 1));
}

QTEST_APPLESS_MAIN(TestDecimate)
#include "tst_decimate.moc"
