#include "figure/figure.h"

#include <QtTest>

using namespace bs;

/// The SVG every report and curve-pack chart is drawn from.
class TestSvgFigure : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void escapesEveryText()
    {
        figure::Figure figure;
        figure.title = "<script>alert(1)</script>";
        figure.xTitle = "a & b";
        figure.series.push_back({"\"quoted\"", figure::FigureSeriesKind::Line, {{1, 2}, {2, 3}}});
        figure.referenceLines.push_back(
            {figure::FigureReferenceLine::Orientation::Horizontal, 2.5, "<SLA>"});
        const std::string svg = figure::renderFigureSvg(figure);
        QVERIFY(svg.find("<script>") == std::string::npos);
        QVERIFY(svg.find("&lt;script&gt;") != std::string::npos);
        QVERIFY(svg.find("a &amp; b") != std::string::npos);
        QVERIFY(svg.find("&quot;quoted&quot;") != std::string::npos);
        QVERIFY(svg.find("&lt;SLA&gt;") != std::string::npos);
    }

    void drawsOnePolylinePerLineSeriesAndOneCirclePerPoint()
    {
        figure::Figure figure;
        figure.series.push_back({"line", figure::FigureSeriesKind::Line, {{1, 1}, {2, 4}, {3, 9}}});
        figure.series.push_back({"dots", figure::FigureSeriesKind::Scatter, {{1, 2}, {2, 3}}});
        const std::string svg = figure::renderFigureSvg(figure);
        QCOMPARE(count(svg, "<polyline"), 1);
        QCOMPARE(count(svg, "<circle"), 2);
    }

    void logAxisSkipsNonPositivePointsAndTicksDecades()
    {
        figure::Figure figure;
        figure.yLog = true;
        figure.series.push_back(
            {"p99", figure::FigureSeriesKind::Scatter, {{1, 0.0}, {2, 0.001}, {3, 10.0}}});
        const std::string svg = figure::renderFigureSvg(figure);
        QCOMPARE(count(svg, "<circle"), 2);
        QVERIFY(svg.find(">0.01</text>") != std::string::npos);
        QVERIFY(svg.find(">1</text>") != std::string::npos);
    }

    void emptyFigureSaysNoData()
    {
        figure::Figure figure;
        figure.series.push_back({"nothing", figure::FigureSeriesKind::Line, {}});
        QVERIFY(figure::renderFigureSvg(figure).find("no data") != std::string::npos);
    }

    void heatmapHasOneRectanglePerCellAndMarksTheHighlight()
    {
        figure::Figure figure;
        figure::FigureHeatmap map;
        map.columnLabels = {"1", "2", "4"};
        map.rowLabels = {"0", "1"};
        map.categoryNames = {"feasible", "p99 > SLA"};
        map.categories = {0, 0, 1, 0, 1, -1};
        map.highlightedCell = std::pair{1, 0};
        figure.heatmap = map;
        const std::string svg = figure::renderFigureSvg(figure);
        QCOMPARE(count(svg, "fill-opacity=\"0.55\" stroke=\"#fff\""), 6);
        QCOMPARE(count(svg, "stroke-width=\"3\""), 1);
        QVERIFY(svg.find("p99 &gt; SLA") != std::string::npos);
    }

    void jsonCarriesSeriesAndHeatmap()
    {
        figure::Figure figure;
        figure.title = "t";
        figure.series.push_back({"s", figure::FigureSeriesKind::Step, {{0, 0}, {1, 1}}});
        const auto json = toJson(figure);
        QCOMPARE(json["series"][0]["kind"].get<std::string>(), std::string("step"));
        QCOMPARE(json["series"][0]["points"].size(), std::size_t(2));
        QVERIFY(!json.contains("heatmap"));
    }

    void shadedLimitDrawsTheMetSideAndSurvivesJson()
    {
        figure::Figure figure;
        figure.series.push_back({"p99", figure::FigureSeriesKind::Line, {{1, 2}, {4, 30}}});
        figure.referenceLines.push_back({figure::FigureReferenceLine::Orientation::Horizontal, 15.0,
                                         "SLA p99 15 ms", figure::FigureReferenceLine::Shade::Below,
                                         "meets SLA p99"});
        const std::string svg = figure::renderFigureSvg(figure);
        // One band in the feasible colour under the data, and its legend entry.
        QCOMPARE(count(svg, "fill=\"#009e73\" fill-opacity=\"0.16\""), 1);
        QVERIFY(svg.find("meets SLA p99") != std::string::npos);
        QVERIFY(svg.find("fill-opacity=\"0.16\"") < svg.find("<polyline"));

        const auto back = figure::figureFromJson(toJson(figure), "figure");
        QVERIFY(back);
        QCOMPARE(*back, figure);
        auto bad = toJson(figure);
        bad["reference_lines"][0]["shade"] = "left";
        const auto error = figure::figureFromJson(bad, "figure");
        QVERIFY(!error);
        QVERIFY(QString::fromStdString(error.error().message).contains(QStringLiteral("shade")));
    }

private:
    static int count(const std::string& text, const std::string& needle)
    {
        int found = 0;
        for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
            ++found;
        return found;
    }
};

QTEST_APPLESS_MAIN(TestSvgFigure)
#include "tst_svgfigure.moc"
