#include "playbook/comparison.h"
#include "playbookfixtures.h"

#include <QtTest>

using namespace bs;
using namespace bs::playbook;

class TestPlaybookComparison : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void differenceIntervalAddsHalfWidthsInQuadrature();
    void significanceNeedsIntervalAndPracticalSize();
    void batchPersistenceNeedsTwoConsecutive();
    void windowPersistenceNeedsHalf();
    void sweepP99IntervalNarrowsWithSamples();
    void sweepThroughputCountingInterval();
    void pairsRowsByBatch();
};

void TestPlaybookComparison::differenceIntervalAddsHalfWidthsInQuadrature()
{
    // b = 10 [9, 12], c = 14 [11, 18]: d = 4, low = 4 − √(3² + 2²), high = 4 + √(4² + 1²).
    const Delta d = compare({10.0, 9.0, 12.0}, {14.0, 11.0, 18.0}, 0.02);
    QCOMPARE(d.delta, 4.0);
    QCOMPARE(d.relative, 0.4);
    QVERIFY(qAbs(d.ciLow - (4.0 - std::sqrt(13.0))) < 1e-12);
    QVERIFY(qAbs(d.ciHigh - (4.0 + std::sqrt(17.0))) < 1e-12);
    QVERIFY(d.intervalKnown);
    QVERIFY(d.significant);
    QCOMPARE(d.sign, 1);
}

void TestPlaybookComparison::significanceNeedsIntervalAndPracticalSize()
{
    // Interval covers 0: not significant.
    QVERIFY(!compare({10.0, 8.0, 12.0}, {11.0, 9.0, 13.0}, 0.02).significant);
    // Interval excludes 0 but the change (1%) is below the practical threshold (2%).
    QVERIFY(!compare({100.0, 99.9, 100.1}, {101.0, 100.9, 101.1}, 0.02).significant);
    // No interval: twice the practical threshold is needed (4%).
    QVERIFY(!compare({100.0}, {103.0}, 0.02).significant);
    const Delta big = compare({100.0}, {95.0}, 0.02);
    QVERIFY(big.significant && !big.intervalKnown);
    QCOMPARE(big.sign, -1);
    // A missing side gives no delta.
    QVERIFY(std::isnan(compare({}, {1.0}, 0.02).delta));
}

void TestPlaybookComparison::batchPersistenceNeedsTwoConsecutive()
{
    auto deltas = [](std::vector<int> signs) {
        std::vector<Delta> out;
        for (int s : signs) {
            Delta d;
            d.delta = s;
            d.sign = s;
            d.significant = s != 0;
            out.push_back(d);
        }
        return out;
    };
    const std::vector<std::string> labels = {"batch 1", "batch 2", "batch 4", "batch 8"};
    // A single diverging batch size is a spike.
    const auto spike = persistenceAcrossBatches(deltas({0, 1, 0, 0}), labels);
    QVERIFY(spike.testable && !spike.persistent);
    // Two neighbours in the same direction persist; the run is named.
    const auto run = persistenceAcrossBatches(deltas({0, 0, 1, 1}), labels);
    QVERIFY(run.persistent);
    QCOMPARE(run.firstLabel, std::string("batch 4"));
    QCOMPARE(run.lastLabel, std::string("batch 8"));
    QCOMPARE(run.text, std::string("batch 4 to batch 8 (2 of 4 batch sizes)"));
    // Alternating directions do not.
    QVERIFY(!persistenceAcrossBatches(deltas({1, -1, 1, -1}), labels).persistent);
    // One slice cannot show persistence.
    QVERIFY(!persistenceAcrossBatches(deltas({1}), labels).testable);
}

void TestPlaybookComparison::windowPersistenceNeedsHalf()
{
    std::vector<Delta> windows(10);
    for (auto& d : windows)
        d.delta = 0.0;
    for (int i : {2, 5}) {
        windows[std::size_t(i)].sign = 1;
        windows[std::size_t(i)].significant = true;
    }
    QVERIFY(!persistenceAcrossWindows(windows, {}).persistent); // 2 of 10: transient
    for (int i : {0, 1, 3}) {
        windows[std::size_t(i)].sign = 1;
        windows[std::size_t(i)].significant = true;
    }
    const auto p = persistenceAcrossWindows(windows, {});
    QVERIFY(p.persistent); // 5 of 10
    QCOMPARE(p.text, std::string("5 of 10 windows diverge"));
}

void TestPlaybookComparison::sweepP99IntervalNarrowsWithSamples()
{
    auto width = [](std::uint64_t n) {
        const auto i = sweepPercentile(fixtures::point(8, 1000.0, 0.010, std::nullopt, n), 0.99);
        return i.value == 0.010 ? i.high - i.low : -1.0;
    };
    // Below MLPerf's floor for p99 (459 samples) the upper rank is unbounded: no interval.
    const auto few = sweepPercentile(fixtures::point(8, 1000.0, 0.010, std::nullopt, 200), 0.99);
    QVERIFY(!few.hasInterval());
    const double w1k = width(1000), w10k = width(10000), w100k = width(100000);
    QVERIFY(w1k > w10k && w10k > w100k);
    // The interval interpolates between p95 (8.5 ms) and p99.9 (12 ms): it stays inside them.
    const auto i = sweepPercentile(fixtures::point(8, 1000.0, 0.010, std::nullopt, 1000), 0.99);
    QVERIFY(i.low > 0.0085 && i.low < 0.010);
    QVERIFY(i.high > 0.010 && i.high < 0.012);
    // No sample count: value without interval.
    auto unknown = fixtures::point(8, 1000.0, 0.010);
    unknown.sampleCount.reset();
    QVERIFY(!sweepPercentile(unknown, 0.99).hasInterval());
}

void TestPlaybookComparison::sweepThroughputCountingInterval()
{
    const auto i = sweepThroughput(fixtures::point(8, 1000.0, 0.01, std::nullopt, 10000));
    // ±1.96/√10000 = ±1.96%.
    QVERIFY(qAbs(i.low - 980.4) < 1e-9);
    QVERIFY(qAbs(i.high - 1019.6) < 1e-9);
    const auto e = sweepEnergyPerInference(fixtures::point(8, 1000.0, 0.01, 300.0, 10000));
    QVERIFY(qAbs(e.value - 0.3) < 1e-12);
    QVERIFY(qAbs(e.high - 0.3 * 1.0196) < 1e-12);
}

void TestPlaybookComparison::pairsRowsByBatch()
{
    data::SweepTable a, b;
    for (int batch : {1, 2, 4, 8})
        a.points.push_back(fixtures::point(batch, 100.0 * batch, 0.01));
    for (int batch : {8, 2, 16})
        b.points.push_back(fixtures::point(batch, 100.0 * batch, 0.01));
    const auto pairs = pairByBatch(a, b);
    QCOMPARE(pairs.size(), std::size_t(2));
    QCOMPARE(pairs[0].batch, 2);
    QCOMPARE(pairs[1].batch, 8);
    QCOMPARE(pairs[1].candidate->batchSize, 8);
}

QTEST_APPLESS_MAIN(TestPlaybookComparison)
#include "tst_playbook_comparison.moc"
