// Order-statistic confidence intervals, the insufficient-samples rule, percentiles, CDFs and
// the radix sort behind them. Expected ranks were computed independently with exact rational
// arithmetic (Python fractions: F(k) = sum C(n,i) p^i q^(n-i)), see tests/data/analysis/README.md.

#include "analysis/distribution.h"
#include "analysis/orderstatistics.h"
#include "analysis/radixsort.h"
#include "sim/estimate.h"
#include "sim/rng.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace bs;
using namespace bs::analysis;

class TestAnalysisOrderStatistics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void intervalRanks_data();
    void intervalRanks();
    void minimumSamples_data();
    void minimumSamples();
    void binomialCdfMatchesExactValues();
    void percentilesOfHandFixture();
    void selectionMatchesSorting();
    void cdfIsSortedAndDecimated();
    void emptySample();
    void radixSortOrdersNegativesAndTies();
    void jainIndex_data();
    void jainIndex();
};

void TestAnalysisOrderStatistics::intervalRanks_data()
{
    QTest::addColumn<quint64>("n");
    QTest::addColumn<double>("p");
    QTest::addColumn<quint64>("lower");
    QTest::addColumn<quint64>("upper");
    QTest::addColumn<double>("coverage");
    // p99: the three sample sizes the issue asks for. At n = 100 there is no upper bound
    // (rank n + 1): F(99) = 1 - 0.99^100 = 0.634 < 0.975.
    QTest::newRow("p99 n=100") << quint64(100) << 0.99 << quint64(97) << quint64(101)
                               << 0.9816259635553504;
    QTest::newRow("p99 n=1000") << quint64(1000) << 0.99 << quint64(983) << quint64(997)
                                << 0.9760947634979771;
    QTest::newRow("p99 n=10000") << quint64(10000) << 0.99 << quint64(9880) << quint64(9920)
                                 << 0.9557546828065552;
    // Textbook medians (e.g. Conover, table A3): n = 10 -> x(2)..x(9), n = 20 -> x(6)..x(15).
    QTest::newRow("p50 n=10") << quint64(10) << 0.5 << quint64(2) << quint64(9) << 0.978515625;
    QTest::newRow("p50 n=20") << quint64(20) << 0.5 << quint64(6) << quint64(15)
                              << 0.9586105346679688;
    QTest::newRow("p50 n=100") << quint64(100) << 0.5 << quint64(40) << quint64(61)
                               << 0.9647997997822951;
    QTest::newRow("p90 n=1000") << quint64(1000) << 0.9 << quint64(881) << quint64(919)
                                << 0.9549071811148258;
    QTest::newRow("p99.9 n=1000") << quint64(1000) << 0.999 << quint64(997) << quint64(1001)
                                  << 0.9810731665496396;
    QTest::newRow("p99.9 n=10000")
        << quint64(10000) << 0.999 << quint64(9983) << quint64(9997) << 0.9754574618536163;
}

void TestAnalysisOrderStatistics::intervalRanks()
{
    QFETCH(quint64, n);
    QFETCH(double, p);
    QFETCH(quint64, lower);
    QFETCH(quint64, upper);
    QFETCH(double, coverage);
    const auto ci = orderStatisticInterval(n, p);
    QCOMPARE(quint64(ci.lowerRank), lower);
    QCOMPARE(quint64(ci.upperRank), upper);
    QVERIFY2(std::fabs(ci.coverage - coverage) < 1e-9,
             qPrintable(QString::number(ci.coverage, 'g', 17)));
    QCOMPARE(ci.boundedAbove(), upper <= n);
}

void TestAnalysisOrderStatistics::minimumSamples_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<quint64>("minimum");
    // n >= ln(0.01) / ln(p); MLPerf LoadGen's reference h_min(t = 0, p99) is 459.
    QTest::newRow("p50") << 0.5 << quint64(7);
    QTest::newRow("p90") << 0.9 << quint64(44);
    QTest::newRow("p95") << 0.95 << quint64(90);
    QTest::newRow("p99") << 0.99 << quint64(459);
    QTest::newRow("p99.9") << 0.999 << quint64(4603);
}

void TestAnalysisOrderStatistics::minimumSamples()
{
    QFETCH(double, p);
    QFETCH(quint64, minimum);
    QCOMPARE(quint64(minimumSamplesForPercentile(p)), minimum);
    // The rule's definition: the least n with p^n <= 0.01.
    QVERIFY(std::pow(p, double(minimum)) <= 0.01);
    QVERIFY(std::pow(p, double(minimum - 1)) > 0.01);
    // "A p99 from 200 samples is not a p99."
    std::vector<double> values(200);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = double(i);
    QCOMPARE(percentileOfSorted(values, p).sufficient, 200 >= minimum);
}

void TestAnalysisOrderStatistics::binomialCdfMatchesExactValues()
{
    // P(B <= 99), B ~ Bin(100, 0.99) = 1 - 0.99^100.
    QVERIFY(std::fabs(binomialCdf(100, 0.99, 99) - (1.0 - std::pow(0.99, 100))) < 1e-12);
    // Bin(10, 0.5): P(B <= 1) = 11 / 1024.
    QVERIFY(std::fabs(binomialCdf(10, 0.5, 1) - 11.0 / 1024.0) < 1e-14);
    QCOMPARE(binomialCdf(10, 0.5, 10), 1.0);
}

void TestAnalysisOrderStatistics::percentilesOfHandFixture()
{
    // Ten latencies (s); numpy's linear rule: p50 = (x4 + x5) / 2, p90 = x8 + 0.1 (x9 - x8).
    const std::vector<double> sorted = {0.25, 0.25, 0.3, 0.35, 0.4, 0.5, 1.0, 1.1, 1.3, 1.5};
    const Distribution d = describeSorted(sorted, 512);
    QCOMPARE(d.count, std::uint64_t(10));
    QVERIFY(std::fabs(d.mean - 0.695) < 1e-12);
    QCOMPARE(d.min, 0.25);
    QCOMPARE(d.max, 1.5);
    const auto* p50 = d.at(0.5);
    QVERIFY(std::fabs(p50->value - 0.45) < 1e-12);
    QCOMPARE(p50->ciLow, 0.25); // x(2)
    QCOMPARE(p50->ciHigh, 1.3); // x(9)
    QVERIFY(p50->sufficient);
    QVERIFY(std::fabs(d.at(0.9)->value - 1.32) < 1e-12);
    QVERIFY(!d.at(0.9)->sufficient);
    QCOMPARE(d.at(0.9)->minimumSamples, std::uint64_t(44));
    QVERIFY(std::fabs(d.at(0.99)->value - 1.482) < 1e-12);
    QVERIFY(std::isnan(d.at(0.99)->ciHigh)); // unbounded above with 10 samples
    // Every sample is a CDF point with probability (i + 1) / n.
    QCOMPARE(d.cdfValue, sorted);
    QCOMPARE(d.cdfProbability.front(), 0.1);
    QCOMPARE(d.cdfProbability.back(), 1.0);
}

void TestAnalysisOrderStatistics::selectionMatchesSorting()
{
    sim::Rng rng(7, 0);
    std::vector<double> values(20011);
    for (auto& v : values)
        v = rng.exponential();
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    const auto bySelection = percentilesBySelection(values);
    for (std::size_t i = 0; i < bySelection.size(); ++i) {
        const auto bySort = percentileOfSorted(sorted, kReportedPercentiles[i]);
        QCOMPARE(bySelection[i].value, bySort.value);
        QCOMPARE(bySelection[i].ciLow, bySort.ciLow);
        QCOMPARE(bySelection[i].ciHigh, bySort.ciHigh);
        QCOMPARE(bySelection[i].sufficient, bySort.sufficient);
    }
}

void TestAnalysisOrderStatistics::cdfIsSortedAndDecimated()
{
    std::vector<double> values(100000);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = double(i) * 1e-3;
    const Distribution d = describeSorted(values, 512);
    QVERIFY(d.cdfValue.size() <= 512);
    QVERIFY(d.cdfValue.size() > 400);
    QVERIFY(std::is_sorted(d.cdfValue.begin(), d.cdfValue.end()));
    QVERIFY(std::is_sorted(d.cdfProbability.begin(), d.cdfProbability.end()));
    QCOMPARE(d.cdfValue.front(), 0.0);
    QCOMPARE(d.cdfProbability.back(), 1.0);
    // The tail is dense: a point at or beyond p99.9.
    const auto far = std::count_if(d.cdfProbability.begin(), d.cdfProbability.end(),
                                   [](double p) { return p >= 0.999 && p < 1.0; });
    QVERIFY(far >= 10);
}

void TestAnalysisOrderStatistics::emptySample()
{
    const Distribution d = describeSorted({}, 512);
    QCOMPARE(d.count, std::uint64_t(0));
    QCOMPARE(d.percentiles.size(), std::size(kReportedPercentiles));
    QVERIFY(std::isnan(d.percentiles[0].value));
    QVERIFY(!d.percentiles[0].sufficient);
    QVERIFY(d.cdfValue.empty());
}

void TestAnalysisOrderStatistics::radixSortOrdersNegativesAndTies()
{
    sim::Rng rng(3, 1);
    std::vector<double> values(50000);
    for (auto& v : values)
        v = (rng.uniform() - 0.5) * 1e6;
    values[10] = 0.0;
    values[11] = -0.0;
    values[12] = values[13] = 42.0;
    std::vector<double> expected = values;
    std::sort(expected.begin(), expected.end());
    std::vector<double> scratch;
    radixSort(values, scratch);
    QCOMPARE(values, expected);
}

void TestAnalysisOrderStatistics::jainIndex_data()
{
    QTest::addColumn<std::vector<double>>("x");
    QTest::addColumn<double>("expected");
    QTest::newRow("1,2,3,4") << std::vector<double>{1, 2, 3, 4} << 100.0 / 120.0; // 10^2 / (4 * 30)
    QTest::newRow("equal") << std::vector<double>{5, 5, 5} << 1.0;
    QTest::newRow("one takes all") << std::vector<double>{1, 0, 0, 0} << 0.25;
}

void TestAnalysisOrderStatistics::jainIndex()
{
    QFETCH(std::vector<double>, x);
    QFETCH(double, expected);
    QVERIFY(std::fabs(sim::jainIndex(x) - expected) < 1e-15);
}

QTEST_APPLESS_MAIN(TestAnalysisOrderStatistics)
#include "tst_analysis_orderstatistics.moc"
