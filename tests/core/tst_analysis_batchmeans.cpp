// Percentile intervals of measured traces respect autocorrelation (issue 16, item 1): checked
// against theory on AR(1) samples, whose stationary distribution is known exactly.
#include "analysis/batchmeans.h"

#include <QtTest>

#include <cmath>
#include <random>
#include <vector>

using namespace bs;

namespace {

/// x[i] = phi x[i-1] + e[i], e ~ N(0, 1), started in its stationary law N(0, 1 / (1 - phi^2)).
std::vector<double> ar1(double phi, std::size_t n, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> out(n);
    double x = normal(rng) / std::sqrt(1.0 - phi * phi);
    for (auto& v : out) {
        x = phi * x + normal(rng);
        v = x;
    }
    return out;
}

analysis::Distribution describe(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return analysis::describeSorted(values);
}

/// The true p99 of the stationary AR(1) law.
double trueP99(double phi)
{
    return 2.3263478740408408 / std::sqrt(1.0 - phi * phi);
}

bool covers(const analysis::Distribution& d, double value)
{
    const auto* p99 = d.at(0.99);
    return p99 && p99->ciLow <= value && value <= p99->ciHigh;
}

} // namespace

class TestAnalysisBatchMeans : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void lag1OfKnownSeries();
    void independentSampleKeepsTheExactInterval();
    void correlatedSampleCoversTheTrueP99();
    void tooFewSamplesAreNotAssessed();
};

void TestAnalysisBatchMeans::lag1OfKnownSeries()
{
    const std::vector<double> alternating = {1, -1, 1, -1, 1, -1, 1, -1};
    QVERIFY(analysis::lag1Autocorrelation(alternating) < -0.8);
    const auto series = ar1(0.9, 100000, 7);
    QVERIFY(std::abs(analysis::lag1Autocorrelation(series) - 0.9) < 0.01);
    QVERIFY(std::isnan(analysis::lag1Autocorrelation(std::vector<double>{2, 2, 2, 2})));
}

void TestAnalysisBatchMeans::independentSampleKeepsTheExactInterval()
{
    const auto values = ar1(0.0, 20000, 3);
    auto d = describe(values);
    const auto before = *d.at(0.99);
    const auto dep = analysis::widenForDependence(values, d);
    QVERIFY(dep.assessed);
    QVERIFY(!dep.correlated);
    QCOMPARE(d.at(0.99)->ciLow, before.ciLow);
    QCOMPARE(d.at(0.99)->ciHigh, before.ciHigh);
    QVERIFY(analysis::dependenceNote(dep).empty());
}

void TestAnalysisBatchMeans::correlatedSampleCoversTheTrueP99()
{
    // phi = 0.98: a correlation time of about 50 samples, as in a burst-driven queue. The
    // order-statistic interval treats the 20,000 samples as independent and misses the true p99
    // most of the time; the batch-means interval covers it about 95% of the time.
    const double phi = 0.98;
    int exactCovers = 0;
    int widenedCovers = 0;
    const int traces = 40;
    for (int k = 0; k < traces; ++k) {
        const auto values = ar1(phi, 20000, std::uint32_t(100 + k));
        auto d = describe(values);
        exactCovers += covers(d, trueP99(phi));
        const auto dep = analysis::widenForDependence(values, d);
        QVERIFY(dep.correlated);
        QVERIFY(dep.batches >= 10);
        widenedCovers += covers(d, trueP99(phi));
        QVERIFY(analysis::dependenceNote(dep).find("batch means over") != std::string::npos);
    }
    qInfo("exact %d widened %d of %d", exactCovers, widenedCovers, traces);
    QVERIFY2(exactCovers < traces * 7 / 10, qPrintable(QString::number(exactCovers)));
    QVERIFY2(widenedCovers >= traces * 8 / 10, qPrintable(QString::number(widenedCovers)));
}

void TestAnalysisBatchMeans::tooFewSamplesAreNotAssessed()
{
    const auto values = ar1(0.98, 500, 1);
    auto d = describe(values);
    const auto dep = analysis::widenForDependence(values, d);
    QVERIFY(!dep.assessed);
    QVERIFY(!dep.correlated);
}

QTEST_GUILESS_MAIN(TestAnalysisBatchMeans)
#include "tst_analysis_batchmeans.moc"
