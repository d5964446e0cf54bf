// What the Simulation view's charts say when they have nothing to draw (issue 21, Views): an
// unstable scenario showed "No simulation yet" in every chart while the Model dock said
// "Unstable, ρ = 3.52". Each empty chart now says why it is empty, where the user looks.
#include "charts/chartpanel.h"
#include "views/simulationview.h"
#include "workbench/workbenchjob.h"

#include <QLocale>
#include <QTableWidget>
#include <QtTest>

using namespace bs;
using namespace bs::widgets;

namespace {

/// A scenario offering 10,000 req/s to a capacity of 2,841 req/s: ρ = 3.52.
WorkbenchOutputs unstableOutputs()
{
    sim::Result result;
    result.stability.stable = false;
    result.stability.offeredRatePerS = 10000.0;
    result.stability.capacityRatePerS = 2841.0;
    result.stability.rho = 10000.0 / 2841.0;
    result.stability.reason = "scenario.arrivals.rate_per_s: the offered load of 10000 req/s is "
                              "at least the capacity of 2841 req/s, rho = 3.52";
    WorkbenchOutputs outputs;
    outputs.current = result;
    PolicyCurvePoint point;
    point.maxBatch = 8;
    point.reason = result.stability.reason;
    outputs.curve = {point};
    return outputs;
}

} // namespace

class TestSimulationEmptyState : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void unstableScenarioSaysWhyInEveryChart();
    void notSimulatedSaysSo();
    void unstablePolicyCurveSaysWhy();
};

void TestSimulationEmptyState::unstableScenarioSaysWhyInEveryChart()
{
    SimulationView view;
    view.resize(1366, 768);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setOutputs(unstableOutputs(), 15.0);
    QCOMPARE(view.panels().size(), qsizetype(5));
    for (ChartPanel* panel : view.panels()) {
        QVERIFY2(panel->isShowingEmptyState(), qPrintable(panel->content().title));
        const QString text = panel->emptyStateText();
        const QLocale locale;
        const QString expected =
            QStringLiteral("Unstable: ρ = %1 ≥ 1 — the offered load of %2 req/s exceeds the "
                           "capacity of %3 req/s")
                .arg(locale.toString(3.52, 'f', 2), locale.toString(10000.0, 'f', 0),
                     locale.toString(2841.0, 'f', 0));
        QVERIFY2(text.startsWith(expected), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Lower the arrival rate or add servers")));
        QVERIFY(!text.contains(QStringLiteral("No simulation yet")));
    }
    QVERIFY(view.summaryText().contains(QStringLiteral("UNSTABLE")));
}

void TestSimulationEmptyState::notSimulatedSaysSo()
{
    SimulationView view;
    view.resize(1366, 768);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setOutputs({}, std::nullopt);
    for (ChartPanel* panel : view.panels())
        QCOMPARE(
            panel->emptyStateText(),
            QStringLiteral("No simulation yet: set the traffic and policy in the Model dock."));
}

void TestSimulationEmptyState::unstablePolicyCurveSaysWhy()
{
    // The scenario itself is stable, but every max batch of its policy curve is not.
    WorkbenchOutputs outputs = unstableOutputs();
    outputs.current->stability.stable = true;
    SimulationView view;
    view.resize(1366, 768);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setOutputs(outputs, std::nullopt);
    QCOMPARE(view.panels().front()->emptyStateText(),
             QStringLiteral("No max batch of the policy curve is stable: ") +
                 QString::fromStdString(outputs.curve.front().reason));
}

QTEST_MAIN(TestSimulationEmptyState)
#include "tst_simulationemptystate.moc"
