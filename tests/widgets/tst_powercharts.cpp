// The Power & thermal tab's charts drawn in real panels (issue 21, Views): idle power from the
// log's idle readings with its definition in the legend tooltip, power, SM clock and
// temperature each on a chart (and y axis) of their own, and any number of clock drops summed
// up in one legend entry with a marker per drop.
#include "analysis/thermalevidence.h"
#include "charts/chartlegend.h"
#include "charts/chartpanel.h"
#include "charts/chartview.h"
#include "charts/tracecharts.h"
#include "io/readdataset.h"
#include "testsupport.h"

#include <QAbstractAxis>
#include <QChart>
#include <QFile>
#include <QtTest>

#include <memory>

using namespace bs;
using namespace bs::widgets;

namespace {

std::unique_ptr<ChartPanel> shownPanel(const ChartContent& chart)
{
    auto panel = std::make_unique<ChartPanel>();
    panel->resize(900, 320);
    panel->show();
    if (!QTest::qWaitForWindowExposed(panel.get()))
        return nullptr;
    panel->setContent(chart);
    return panel;
}

std::optional<analysis::ThermalEvidence> evidenceOf(const QString& path)
{
    const auto dataset = io::readDataset(path.toStdString());
    if (!dataset || !dataset->powerSeries())
        return std::nullopt;
    const auto evidence = analysis::thermalEvidence(*dataset->powerSeries(), {});
    return evidence ? std::optional(*evidence) : std::nullopt;
}

/// 22 loaded stretches of 5 s at 1400 MHz and 250 W, each with one reading at 900 MHz, between
/// idle readings (60 W, 200 MHz): 22 clock drops.
data::PowerSeries twentyTwoDrops()
{
    data::PowerSeries s;
    double t = 0.0;
    for (int stretch = 0; stretch < 22; ++stretch) {
        for (int i = 0; i < 6; ++i, t += 1.0) {
            const bool idle = i == 0;
            s.timeS.push_back(t);
            s.powerW.push_back(idle ? 60.0 : 250.0);
            s.smClockMHz.push_back(idle ? 200.0 : (i == 3 ? 900.0 : 1400.0));
            s.temperatureC.push_back(40.0 + t / 10.0);
        }
    }
    return s;
}

QStringList verticalAxisTitles(const ChartPanel& panel)
{
    QStringList titles;
    for (QAbstractAxis* axis : panel.chartView()->chart()->axes(Qt::Vertical))
        titles << axis->titleText();
    return titles;
}

} // namespace

class TestPowerCharts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void idleLineShowsTheIdleReadingsWithItsDefinition();
    void realLogIdleLineSays24W();
    void eachQuantityHasItsOwnChartAndAxis();
    void clockDropsShareOneLegendEntry();
};

void TestPowerCharts::idleLineShowsTheIdleReadingsWithItsDefinition()
{
    const auto evidence =
        evidenceOf(test::testDataPath(QStringLiteral("power/nvidia_smi_mostly_loaded.csv")));
    QVERIFY(evidence && evidence->available);
    const auto panel = shownPanel(powerTimelineChart(*evidence, 300.0));
    QVERIFY(panel);
    const QStringList names = panel->legend()->names();
    QVERIFY2(names.contains(QStringLiteral("idle 60.7 W")), qPrintable(names.join(u'|')));
    const QString tip = panel->legend()->toolTipOf(QStringLiteral("idle 60.7 W"));
    QVERIFY2(tip.contains(QStringLiteral("median of the 4 readings with GPU utilisation <= 5%")),
             qPrintable(tip));
}

void TestPowerCharts::realLogIdleLineSays24W()
{
    BS_REQUIRE_SHARED_FILE(path, QStringLiteral("power_logs/ob234_cpc_ob234/cpc-main/backup/"
                                                "nvidia_output_1700706197.log"));
    const auto evidence = evidenceOf(path);
    QVERIFY(evidence && evidence->available);
    const auto panel = shownPanel(powerTimelineChart(*evidence, std::nullopt));
    QVERIFY(panel);
    QVERIFY2(panel->legend()->names().contains(QStringLiteral("idle 24.4 W")),
             qPrintable(panel->legend()->names().join(u'|')));
    QVERIFY(panel->legend()
                ->toolTipOf(QStringLiteral("idle 24.4 W"))
                .contains(QStringLiteral("lowest SM clock state")));
}

void TestPowerCharts::eachQuantityHasItsOwnChartAndAxis()
{
    const auto evidence =
        evidenceOf(test::testDataPath(QStringLiteral("power/nvidia_smi_mostly_loaded.csv")));
    QVERIFY(evidence && evidence->available);
    struct Expected
    {
        ChartContent content;
        QString yTitle;
        QString series;
        double lowest, highest; ///< Where the series' values must lie.
    };
    const QList<Expected> charts = {
        {powerTimelineChart(*evidence, std::nullopt), QStringLiteral("Power (W)"),
         QStringLiteral("Power"), 60.0, 240.0},
        {smClockChart(*evidence), QStringLiteral("SM clock (MHz)"), QStringLiteral("SM clock"),
         200.0, 1410.0},
        {temperatureChart(*evidence, nullptr), QStringLiteral("Temperature (°C)"),
         QStringLiteral("Logged"), 35.0, 67.0},
    };
    for (const Expected& expected : charts) {
        const auto panel = shownPanel(expected.content);
        QVERIFY(panel);
        // One y axis, titled with its own quantity and unit, holding only that quantity.
        QCOMPARE(verticalAxisTitles(*panel).size(), 1);
        QCOMPARE(panel->content().yTitle, expected.yTitle);
        const SeriesSpec& first = panel->content().series.front();
        QCOMPARE(first.data.name, expected.series);
        for (const QPointF& p : first.data.points)
            QVERIFY2(p.y() >= expected.lowest && p.y() <= expected.highest,
                     qPrintable(QStringLiteral("%1: %2").arg(expected.series).arg(p.y())));
    }
    // The clock chart no longer carries the temperature.
    for (const SeriesSpec& spec : smClockChart(*evidence).series)
        QVERIFY(!spec.data.name.contains(QStringLiteral("emperature")));
}

void TestPowerCharts::clockDropsShareOneLegendEntry()
{
    const auto evidence = analysis::thermalEvidence(twentyTwoDrops(), {}, 1.0);
    QVERIFY(evidence && evidence->available);
    QCOMPARE(evidence->drops.size(), std::size_t(22));
    const auto panel = shownPanel(smClockChart(*evidence));
    QVERIFY(panel);
    const QStringList names = panel->legend()->names();
    QCOMPARE(names.filter(QStringLiteral("clock drop")),
             QStringList{QStringLiteral("clock drops (22)")});
    const SeriesSpec* markers = nullptr;
    for (const SeriesSpec& spec : panel->content().series) {
        if (spec.data.name == QStringLiteral("clock drops (22)"))
            markers = &spec;
    }
    QVERIFY(markers);
    QCOMPARE(markers->style, SeriesStyle::Scatter);
    QCOMPARE(markers->data.points.size(), qsizetype(22));
    QCOMPARE(markers->data.points.front(), QPointF(3.0, 900.0));
    // Each marker's tooltip gives the drop's details.
    const QString tip = panel->chartView()->tooltipText(markers->data.name, QPointF(3.0, 900.0));
    QVERIFY2(tip.contains(QStringLiteral("clock drop 36% below the sustained clock at 3 s, "
                                         "min 900 MHz, mean 250 W")),
             qPrintable(tip));
}

QTEST_MAIN(TestPowerCharts)
#include "tst_powercharts.moc"
