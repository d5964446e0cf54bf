// Candidate − baseline per matched sweep point (playbook/sweepdeltas.h): the numbers behind the
// Sweep view's delta charts, checked against hand-computed answers.
#include "playbook/sweepdeltas.h"

#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::playbook;

namespace {

data::SweepPoint row(int batch, std::optional<double> throughputPerS,
                     std::optional<double> p50S = std::nullopt,
                     std::optional<double> p99S = std::nullopt)
{
    data::SweepPoint p;
    p.batchSize = batch;
    p.throughputPerS = throughputPerS;
    p.latencyP50S = p50S;
    p.latencyP99S = p99S;
    return p;
}

data::SweepPoint atConcurrency(double concurrency, double p99S)
{
    data::SweepPoint p = row(1, 100.0 * concurrency, std::nullopt, p99S);
    p.concurrency = concurrency;
    return p;
}

bool near(double actual, double expected)
{
    return std::fabs(actual - expected) <= 1e-12 * std::max(1.0, std::fabs(expected));
}

} // namespace

class TestPlaybookSweepDeltas : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void absoluteAndRelativeDeltasPerBatch();
    void zeroBaselineAndMissingMetricAreUndefinedNotInfinite();
    void unmatchedAndRepeatedRowsAreListed();
    void matchesOnConcurrencyWhenBothSweepsReportIt();
    void oneSidedConcurrencyMatchesOnBatchAlone();
    void sampleCountsGiveIntervals();
};

void TestPlaybookSweepDeltas::absoluteAndRelativeDeltasPerBatch()
{
    data::SweepTable baseline, candidate;
    auto b = row(2, 400.0, 0.002, 0.005);
    b.energyPerInferenceJ = 0.5;
    baseline.points = {b};
    // Energy from power ÷ throughput: 200 W / 500 inf/s = 0.4 J.
    auto c = row(2, 500.0, 0.0025, 0.004);
    c.powerW = 200.0;
    candidate.points = {c};

    const SweepDeltas deltas = sweepDeltas(baseline, candidate, 0.02);
    QVERIFY(!deltas.matchedOnConcurrency);
    QVERIFY(deltas.unmatched.empty());
    QCOMPARE(deltas.points.size(), std::size_t(1));
    const SweepPointDelta& d = deltas.points[0];
    QCOMPARE(d.batch, 2);
    QVERIFY(!d.concurrency);
    // 500 − 400 = +100 inf/s, +100/400 = +25%.
    QCOMPARE(d.throughputPerS.baseline, 400.0);
    QCOMPARE(d.throughputPerS.candidate, 500.0);
    QVERIFY(near(d.throughputPerS.delta, 100.0));
    QVERIFY(near(d.throughputPerS.relative, 0.25));
    // p50: 2.5 − 2 = +0.5 ms, +25%. p99: 4 − 5 = −1 ms, −20%.
    QVERIFY(near(d.latencyP50S.delta, 0.0005));
    QVERIFY(near(d.latencyP50S.relative, 0.25));
    QVERIFY(near(d.latencyP99S.delta, -0.001));
    QVERIFY(near(d.latencyP99S.relative, -0.2));
    // Energy: 0.4 − 0.5 = −0.1 J, −20%.
    QVERIFY(near(d.energyPerInferenceJ.candidate, 0.4));
    QVERIFY(near(d.energyPerInferenceJ.delta, -0.1));
    QVERIFY(near(d.energyPerInferenceJ.relative, -0.2));
}

void TestPlaybookSweepDeltas::zeroBaselineAndMissingMetricAreUndefinedNotInfinite()
{
    data::SweepTable baseline, candidate;
    // Baseline throughput 0 (a stalled run); the candidate reports no p99.
    baseline.points = {row(4, 0.0, 0.001, 0.003)};
    candidate.points = {row(4, 300.0, 0.001, std::nullopt)};
    const auto deltas = sweepDeltas(baseline, candidate, 0.02);
    QCOMPARE(deltas.points.size(), std::size_t(1));
    const auto& d = deltas.points[0];
    // The absolute change is defined; the relative one is not, and is NaN rather than ±inf.
    QCOMPARE(d.throughputPerS.delta, 300.0);
    QVERIFY(std::isnan(d.throughputPerS.relative));
    QVERIFY(!std::isinf(d.throughputPerS.relative));
    // Equal p50 on both sides: a zero change, 0%.
    QCOMPARE(d.latencyP50S.delta, 0.0);
    QCOMPARE(d.latencyP50S.relative, 0.0);
    // A metric one side lacks has no delta at all.
    QCOMPARE(d.latencyP99S.baseline, 0.003);
    QVERIFY(std::isnan(d.latencyP99S.candidate));
    QVERIFY(std::isnan(d.latencyP99S.delta));
    QVERIFY(std::isnan(d.latencyP99S.relative));
    // No energy and no power: nothing derived from a zero throughput either.
    QVERIFY(std::isnan(d.energyPerInferenceJ.delta));
}

void TestPlaybookSweepDeltas::unmatchedAndRepeatedRowsAreListed()
{
    data::SweepTable baseline, candidate;
    for (int batch : {8, 1, 2, 4})
        baseline.points.push_back(row(batch, 100.0 * batch));
    // Batch 4 twice in the candidate: the first row (410) is the one compared.
    candidate.points = {row(4, 410.0), row(2, 190.0), row(16, 1500.0), row(4, 999.0)};

    const auto deltas = sweepDeltas(baseline, candidate, 0.02);
    QCOMPARE(deltas.points.size(), std::size_t(2));
    QCOMPARE(deltas.points[0].batch, 2);
    QVERIFY(near(deltas.points[0].throughputPerS.delta, -10.0));
    QVERIFY(near(deltas.points[0].throughputPerS.relative, -0.05));
    QCOMPARE(deltas.points[1].batch, 4);
    QVERIFY(near(deltas.points[1].throughputPerS.delta, 10.0));
    QVERIFY(near(deltas.points[1].throughputPerS.relative, 0.025));

    QCOMPARE(deltas.unmatched.size(), std::size_t(4));
    using Side = UnmatchedSweepPoint::Side;
    using Reason = UnmatchedSweepPoint::Reason;
    const auto& u = deltas.unmatched;
    QCOMPARE(u[0].side, Side::Baseline);
    QCOMPARE(u[0].batch, 1);
    QCOMPARE(u[0].reason, Reason::NoPartner);
    QCOMPARE(u[0].text, std::string("batch 1: only in the baseline, no candidate point"));
    QCOMPARE(u[1].batch, 8);
    QCOMPARE(u[2].side, Side::Candidate);
    QCOMPARE(u[2].batch, 16);
    QCOMPARE(u[2].text, std::string("batch 16: only in the candidate, no baseline point"));
    QCOMPARE(u[3].side, Side::Candidate);
    QCOMPARE(u[3].reason, Reason::Repeated);
    QCOMPARE(u[3].text,
             std::string("batch 4: repeated in the candidate, only its first row is compared"));
}

void TestPlaybookSweepDeltas::matchesOnConcurrencyWhenBothSweepsReportIt()
{
    data::SweepTable baseline, candidate;
    baseline.points = {atConcurrency(1, 0.010), atConcurrency(2, 0.012), atConcurrency(4, 0.020)};
    candidate.points = {atConcurrency(8, 0.050), atConcurrency(4, 0.030), atConcurrency(2, 0.011)};

    const auto deltas = sweepDeltas(baseline, candidate, 0.02);
    QVERIFY(deltas.matchedOnConcurrency);
    QCOMPARE(deltas.points.size(), std::size_t(2));
    // Concurrency 2: 11 − 12 = −1 ms (−1/12); concurrency 4: 30 − 20 = +10 ms (+50%).
    QCOMPARE(deltas.points[0].concurrency, std::optional<double>(2.0));
    QVERIFY(near(deltas.points[0].latencyP99S.delta, -0.001));
    QVERIFY(near(deltas.points[0].latencyP99S.relative, -1.0 / 12.0));
    QCOMPARE(deltas.points[1].concurrency, std::optional<double>(4.0));
    QVERIFY(near(deltas.points[1].latencyP99S.delta, 0.010));
    QVERIFY(near(deltas.points[1].latencyP99S.relative, 0.5));
    QCOMPARE(deltas.unmatched.size(), std::size_t(2));
    QCOMPARE(deltas.unmatched[0].text,
             std::string("batch 1, concurrency 1: only in the baseline, no candidate point"));
    QCOMPARE(deltas.unmatched[1].text,
             std::string("batch 1, concurrency 8: only in the candidate, no baseline point"));
    QCOMPARE(sweepPointLabel(8, 2.5), std::string("batch 8, concurrency 2.5"));
}

void TestPlaybookSweepDeltas::oneSidedConcurrencyMatchesOnBatchAlone()
{
    // Only the candidate reports concurrency: batch size is the only common key.
    data::SweepTable baseline, candidate;
    baseline.points = {row(1, 100.0), row(2, 200.0)};
    candidate.points = {atConcurrency(3, 0.01)};
    candidate.points[0].batchSize = 2;
    const auto deltas = sweepDeltas(baseline, candidate, 0.02);
    QVERIFY(!deltas.matchedOnConcurrency);
    QCOMPARE(deltas.points.size(), std::size_t(1));
    QCOMPARE(deltas.points[0].batch, 2);
    QVERIFY(!deltas.points[0].concurrency);
    QVERIFY(near(deltas.points[0].throughputPerS.delta, 100.0)); // 300 − 200
    QCOMPARE(deltas.unmatched.size(), std::size_t(1));
    QCOMPARE(deltas.unmatched[0].batch, 1);
}

void TestPlaybookSweepDeltas::sampleCountsGiveIntervals()
{
    // ±1.96/√10000 = ±1.96% counting interval on each side: 1000 [980.4, 1019.6] and
    // 1100 [1078.44, 1121.56]; the difference's half-widths add in quadrature.
    data::SweepTable baseline, candidate;
    baseline.points = {row(8, 1000.0)};
    candidate.points = {row(8, 1100.0)};
    baseline.points[0].sampleCount = 10000;
    candidate.points[0].sampleCount = 10000;
    const auto d = sweepDeltas(baseline, candidate, 0.02).points.at(0).throughputPerS;
    QVERIFY(d.intervalKnown);
    QVERIFY(std::fabs(d.ciLow - (100.0 - std::hypot(21.56, 19.6))) < 1e-9);
    QVERIFY(std::fabs(d.ciHigh - (100.0 + std::hypot(21.56, 19.6))) < 1e-9);
    QVERIFY(d.significant);
    QCOMPARE(d.sign, 1);
}

QTEST_APPLESS_MAIN(TestPlaybookSweepDeltas)
#include "tst_playbook_sweepdeltas.moc"
