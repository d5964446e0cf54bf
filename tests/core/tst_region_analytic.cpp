// The region analysis on a grid whose answers are known exactly. Deterministic arrivals (one
// every 1/rate s), deterministic service t(b) = 1 ms + 1 ms * b, one server, greedy batching
// (max queue delay 0):
//  - capacity (rho = 1) of max batch B is B / t(B): 500, 666.7 and 800 req/s for B = 1, 2, 4;
//  - below 500 req/s the gap (> 2 ms) exceeds t(1): every request finds the server idle and
//    is served alone, so every latency - the p99 too - is exactly t(1) = 2 ms;
//  - above 500 req/s requests queue: a request in a batch of 2 or more has a latency of at
//    least t(2) = 3 ms, and at 600 req/s half the batches hold 2 (mean batch 1.5), so the p99
//    is above 3 ms; beyond the first cycles every request waits, and the p99 exceeds 2.5 ms
//    for any rate above 500 req/s;
//  - a stable cell's latency is at most about 2 t(B) (one batch in service, then its own), so
//    a 30 ms SLA only fails at rho >= 1.
// With a 2.5 ms SLA the region is "rate <= 500" whatever the batch; with 30 ms it is the
// stability region and the capacity curve is B / t(B).
#include "regiontesthelpers.h"

#include <QtTest>

#include <cmath>

using namespace bs;
using analysis::CellMethod;
using analysis::CellStatus;
using analysis::ConstraintKind;

namespace {

/// Rates per second on the grid; the last axis varies fastest.
const double kRates[] = {400, 600, 700, 850};
const int kBatches[] = {1, 2, 4};

std::string analyticSpec(double slaMs, const std::string& extraConstraints, int requests)
{
    return R"({"scenario": {"seed": 3, "requests": )" + std::to_string(requests) +
           R"(, "warmup_requests": 200, "replications": 2,
        "arrivals": {"kind": "deterministic", "rate_per_s": 400},
        "policy": {"kind": "dynamic", "max_batch": 1, "max_queue_delay_ms": 0},
        "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 1}},
      "axes": [{"name": "max_batch", "values": [1, 2, 4]},
               {"name": "rate_per_s", "values": [400, 600, 700, 850]}],
      "constraints": {"sla_p99_ms": )" +
           std::to_string(slaMs) + extraConstraints + R"(},
      "refinement": {"screen_requests": 2000, "screen_warmup_requests": 200,
                     "screen_replications": 2}})";
}

double capacityOf(int batch)
{
    return batch / (0.001 + 0.001 * batch);
}

/// What the analysis must decide for the cell (batch, rate) under a tight (2.5 ms) SLA.
CellStatus expectedTight(int batch, double rate)
{
    if (rate >= capacityOf(batch))
        return CellStatus::Unstable;
    return rate < 500 ? CellStatus::Feasible : CellStatus::Infeasible;
}

} // namespace

class TestRegionAnalytic : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tightSlaDecisions_data();
    void tightSlaDecisions();
    void looseSlaCapacityIsBatchOverServiceTime();
    void tightSlaCapacityIsWhereQueueingStarts();
    void throughputDemandBindsAndHeadroomReachesCapacity();
};

void TestRegionAnalytic::tightSlaDecisions_data()
{
    QTest::addColumn<int>("requests");
    QTest::addColumn<bool>("screened");
    // 2000 requests: no short run is cheaper, every stable cell is simulated in full;
    // 20000: short runs (2 x 2000) decide what they can, the rest is simulated in full.
    QTest::newRow("full runs") << 2000 << false;
    QTest::newRow("screened") << 20000 << true;
}

void TestRegionAnalytic::tightSlaDecisions()
{
    QFETCH(int, requests);
    QFETCH(bool, screened);
    auto spec = test::regionSpecFrom(analyticSpec(2.5, "", requests));
    QVERIFY2(spec, spec ? "" : qPrintable(test::describe(spec.error())));
    spec->capacity.enabled = false;
    spec->headroom.enabled = false;
    const auto result = test::computeOn(*spec, 2);
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QCOMPARE(result->stage, analysis::RegionStage::Complete);
    QCOMPARE(result->cells.size(), std::size_t(12));
    std::size_t shortRuns = 0;
    for (std::size_t b = 0; b < 3; ++b) {
        for (std::size_t r = 0; r < 4; ++r) {
            const auto& cell = test::cellAt(*result, {b, r});
            const QByteArray where = QByteArray("batch ") + QByteArray::number(kBatches[b]) +
                                     " rate " + QByteArray::number(kRates[r]);
            const CellStatus expected = expectedTight(kBatches[b], kRates[r]);
            QVERIFY2(cell.status == expected,
                     QByteArray(where + ": got " + cellStatusName(cell.status)).constData());
            QVERIFY2(cell.confident, where);
            QVERIFY2(!cell.pending, where);
            shortRuns += cell.method == CellMethod::ShortRun;
            if (expected == CellStatus::Unstable) {
                QCOMPARE(cell.binding, ConstraintKind::Stability);
                QCOMPARE(cell.method, CellMethod::Analytic);
                QVERIFY(cell.metrics.rho >= 1.0);
                QVERIFY(cell.note.find("rho") != std::string::npos);
                continue;
            }
            QCOMPARE(cell.binding, ConstraintKind::P99);
            QCOMPARE(cell.checks.size(), std::size_t(1));
            if (expected == CellStatus::Feasible) {
                // Every request is served alone on arrival: the p99 is t(1) = 2 ms exactly.
                QVERIFY2(std::abs(cell.metrics.p99S.value - 0.002) < 1e-9, where);
                QVERIFY2(std::abs(cell.checks[0].margin - 0.2) < 1e-6, where);
            } else {
                QVERIFY2(cell.metrics.p99S.value >= 0.003 - 1e-9, where);
                QVERIFY2(cell.checks[0].margin < 0.0, where);
            }
        }
    }
    // With short runs, every cell here is far from its limit (or unstable) - none needs more
    // to be decided; but the 3 feasible cells border infeasible ones (rate 600), so they are
    // confirmed by full runs: only the 3 infeasible cells rest on short runs.
    QCOMPARE(shortRuns > 0, screened);
    if (screened)
        QCOMPARE(shortRuns, std::size_t(3));
    for (const auto& cell : result->cells)
        if (cell.status == CellStatus::Feasible)
            QCOMPARE(cell.method, CellMethod::Simulated);
    QCOMPARE(result->summary.feasible, std::size_t(3));
    QCOMPARE(result->summary.infeasible, std::size_t(3));
    QCOMPARE(result->summary.unstable, std::size_t(6));
}

void TestRegionAnalytic::looseSlaCapacityIsBatchOverServiceTime()
{
    auto spec = test::regionSpecFrom(analyticSpec(30, "", 2000));
    QVERIFY2(spec, spec ? "" : qPrintable(test::describe(spec.error())));
    spec->headroom.enabled = false;
    const auto result = test::computeOn(*spec, 2);
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    // Every stable cell meets a 30 ms SLA: the region is the stability region.
    for (const auto& cell : result->cells) {
        const double rate = kRates[cell.axisIndex[1]];
        const int batch = kBatches[cell.axisIndex[0]];
        QCOMPARE(cell.status,
                 rate < capacityOf(batch) ? CellStatus::Feasible : CellStatus::Unstable);
    }
    QCOMPARE(result->capacity.size(), std::size_t(3));
    const double tolerance = spec->capacity.relativeTolerance;
    for (std::size_t b = 0; b < 3; ++b) {
        const auto& point = result->capacity[b];
        const double exact = capacityOf(kBatches[b]);
        const QByteArray where = "batch " + QByteArray::number(kBatches[b]);
        QCOMPARE(point.policy, b);
        QVERIFY2(std::abs(point.stabilityLimitPerS - exact) < 1e-6 * exact, where);
        QVERIFY2(point.converged, where);
        // The boundary is bracketed: [maxRate, infeasibleRate) holds B / t(B), and is narrow.
        QVERIFY2(point.maxRatePerS <= exact * (1 + 1e-9), where);
        QVERIFY2(point.maxRatePerS >= exact * (1 - tolerance), where);
        QVERIFY2(point.infeasibleRatePerS >= exact * (1 - 1e-9), where);
        QCOMPARE(point.binding, ConstraintKind::Stability);
    }
}

void TestRegionAnalytic::tightSlaCapacityIsWhereQueueingStarts()
{
    auto spec = test::regionSpecFrom(analyticSpec(2.5, "", 2000));
    QVERIFY2(spec, spec ? "" : qPrintable(test::describe(spec.error())));
    spec->headroom.enabled = false;
    const auto result = test::computeOn(*spec, 2);
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QCOMPARE(result->capacity.size(), std::size_t(3));
    for (std::size_t b = 0; b < 3; ++b) {
        // Whatever the batch, the p99 leaves 2 ms as soon as requests queue (rate 500).
        const auto& point = result->capacity[b];
        const QByteArray where = "batch " + QByteArray::number(kBatches[b]);
        QVERIFY2(point.converged, where);
        QVERIFY2(point.maxRatePerS <= 500 * (1 + 1e-9), where);
        QVERIFY2(point.maxRatePerS >= 500 * (1 - spec->capacity.relativeTolerance), where);
        QVERIFY2(point.infeasibleRatePerS >= 500 * (1 - 1e-9), where);
        QVERIFY2(point.binding == ConstraintKind::P99 || point.binding == ConstraintKind::Stability,
                 where);
        QVERIFY2(point.evaluations <= spec->capacity.maxEvaluations, where);
    }
    // Batch 1 saturates at 500 itself; batch 4 fails on p99 first.
    QCOMPARE(result->capacity[2].binding, ConstraintKind::P99);
}

void TestRegionAnalytic::throughputDemandBindsAndHeadroomReachesCapacity()
{
    // Loose SLA, demand 650 req/s: only batch 4 at 700 req/s serves it.
    auto spec = test::regionSpecFrom(analyticSpec(30, R"(, "min_throughput_per_s": 650)", 2000));
    QVERIFY2(spec, spec ? "" : qPrintable(test::describe(spec.error())));
    const auto result = test::computeOn(*spec, 2);
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    for (const auto& cell : result->cells) {
        const double rate = kRates[cell.axisIndex[1]];
        const int batch = kBatches[cell.axisIndex[0]];
        if (rate >= capacityOf(batch)) {
            QCOMPARE(cell.status, CellStatus::Unstable);
            continue;
        }
        // The demand binds everywhere: its margin (rate / 650 - 1) is below the p99's.
        QCOMPARE(cell.binding, ConstraintKind::Throughput);
        QCOMPARE(cell.status, rate >= 650 ? CellStatus::Feasible : CellStatus::Infeasible);
    }
    QVERIFY(result->recommendation);
    const auto& recommended = test::cellAt(*result, {2, 2});
    QCOMPARE(result->recommendation->cell, recommended.index);
    QVERIFY(recommended.paretoOptimal);
    QVERIFY(result->recommendation->headroom);
    const auto& headroom = *result->recommendation->headroom;
    // More load is fine until the batch-4 capacity of 800 req/s: multiplier 800/700.
    const double exact = 800.0 / 700.0;
    QVERIFY2(headroom.loadMultiplier <= exact * (1 + 1e-9),
             qPrintable(QString::number(headroom.loadMultiplier)));
    QVERIFY2(headroom.loadMultiplier >= exact * (1 - spec->headroom.relativeTolerance),
             qPrintable(QString::number(headroom.loadMultiplier)));
    QVERIFY(std::abs(headroom.maxRatePerS - 700 * headroom.loadMultiplier) < 1e-6);
    QCOMPARE(headroom.loadBinding, ConstraintKind::Stability);
    // Deterministic arrivals have cv 0; burstier ones are searched from there.
    QCOMPARE(headroom.baseArrivalCv, 0.0);
    QVERIFY(headroom.maxArrivalCv >= 0.0 && std::isfinite(headroom.maxArrivalCv));
}

QTEST_APPLESS_MAIN(TestRegionAnalytic)
#include "tst_region_analytic.moc"
