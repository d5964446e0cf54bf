// The recommendation respects noise (issue 16, item 4): cells the simulation cannot tell apart
// on the objective are chosen among by the secondary metrics, and listed.
#include "analysis/regionfinalize.h"

#include <QtTest>

using namespace bs;
using analysis::CellStatus;
using analysis::RegionObjective;

namespace {

sim::Estimate estimate(double value, double halfWidth)
{
    return {value, value - halfWidth, value + halfWidth};
}

/// A feasible cell at one offered rate with p99 and energy estimates (seconds, joules).
analysis::RegionCell cell(std::size_t index, double p99S, double p99HalfWidthS, double energyJ,
                          double energyHalfWidthJ, double offered = 1000.0)
{
    analysis::RegionCell c;
    c.index = index;
    c.status = CellStatus::Feasible;
    c.metrics.stable = true;
    c.metrics.offeredRatePerS = offered;
    c.metrics.throughputPerS = estimate(offered, 5.0);
    c.metrics.p99S = estimate(p99S, p99HalfWidthS);
    c.metrics.energyPerInferenceJ = estimate(energyJ, energyHalfWidthJ);
    return c;
}

} // namespace

class TestRegionRecommend : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void noiseWinDoesNotBuyMoreEnergy();
    void separatedCellsKeepTheBest();
    void maxThroughputTiesOnTheOfferedRate();
    void minEnergyTiesGoToLowerP99();
    void infeasibleCellsAreNeverRecommended();
};

void TestRegionRecommend::noiseWinDoesNotBuyMoreEnergy()
{
    // min-p99: cell 0 is 1.4% lower on p99 but its interval overlaps cell 1's; cell 1 takes 22%
    // less energy. The noise win must not buy the energy.
    analysis::RegionResult r;
    r.cells = {cell(0, 0.00986, 0.0002, 0.122, 0.001), cell(1, 0.0100, 0.0002, 0.100, 0.001)};
    const auto rec = analysis::recommend(r, RegionObjective::MinP99);
    QVERIFY(rec);
    QCOMPARE(rec->cell, std::size_t(1));
    QCOMPARE(rec->indistinguishableCells, (std::vector<std::size_t>{0, 1}));
    QVERIFY2(rec->reason.find("2 cells are statistically indistinguishable") != std::string::npos,
             rec->reason.c_str());
}

void TestRegionRecommend::separatedCellsKeepTheBest()
{
    // Intervals far apart: the best p99 wins whatever the energy.
    analysis::RegionResult r;
    r.cells = {cell(0, 0.005, 0.0001, 0.122, 0.001), cell(1, 0.0100, 0.0001, 0.100, 0.001)};
    const auto rec = analysis::recommend(r, RegionObjective::MinP99);
    QVERIFY(rec);
    QCOMPARE(rec->cell, std::size_t(0));
    QCOMPARE(rec->indistinguishableCells, (std::vector<std::size_t>{0}));
}

void TestRegionRecommend::maxThroughputTiesOnTheOfferedRate()
{
    // Same offered rate (exact): the lower p99 decides; a lower rate is never chosen.
    analysis::RegionResult r;
    r.cells = {cell(0, 0.008, 0.001, 0.1, 0.01), cell(1, 0.006, 0.001, 0.2, 0.01),
               cell(2, 0.001, 0.0001, 0.05, 0.01, 900.0)};
    const auto rec = analysis::recommend(r, RegionObjective::MaxThroughput);
    QVERIFY(rec);
    QCOMPARE(rec->cell, std::size_t(1));
    QCOMPARE(rec->indistinguishableCells, (std::vector<std::size_t>{0, 1}));
}

void TestRegionRecommend::minEnergyTiesGoToLowerP99()
{
    analysis::RegionResult r;
    r.cells = {cell(0, 0.009, 0.0001, 0.100, 0.004), cell(1, 0.004, 0.0001, 0.103, 0.004),
               cell(2, 0.002, 0.0001, 0.150, 0.004)};
    const auto rec = analysis::recommend(r, RegionObjective::MinEnergy);
    QVERIFY(rec);
    QCOMPARE(rec->cell, std::size_t(1));
    QCOMPARE(rec->indistinguishableCells, (std::vector<std::size_t>{0, 1}));
}

void TestRegionRecommend::infeasibleCellsAreNeverRecommended()
{
    analysis::RegionResult r;
    r.cells = {cell(0, 0.009, 0.0001, 0.100, 0.004), cell(1, 0.004, 0.0001, 0.103, 0.004)};
    r.cells[1].status = CellStatus::Infeasible;
    const auto rec = analysis::recommend(r, RegionObjective::MinP99);
    QVERIFY(rec);
    QCOMPARE(rec->cell, std::size_t(0));
    r.cells[0].status = CellStatus::Unstable;
    QVERIFY(!analysis::recommend(r, RegionObjective::MinP99));
}

QTEST_GUILESS_MAIN(TestRegionRecommend)
#include "tst_region_recommend.moc"
