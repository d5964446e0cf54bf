// The batch policy curve pack: the files writeCurvePack puts in a folder (CSV columns and
// rows, region.json that reads back to the same result, one SVG per figure) and the figures
// curvePackFigures builds (heatmap categories and the highlighted recommendation, the Pareto
// line, reference lines, capacity series).
#include "analysis/curvefigures.h"
#include "analysis/curvepack.h"
#include "regiontesthelpers.h"
#include "testsupport.h"
#include "util/version.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace bs;
using analysis::RegionResult;

namespace {

/// max batch x max delay x rate with power and a demand: every kind of cell and line.
const char* kSpec = R"({
  "scenario": {"seed": 4, "requests": 4000, "warmup_requests": 400, "replications": 3,
    "arrivals": {"kind": "poisson", "rate_per_s": 1000},
    "policy": {"kind": "dynamic", "max_batch": 8, "max_queue_delay_ms": 1},
    "service": {"kind": "linear", "base_ms": 1.5, "per_item_ms": 0.4},
    "power": {"idle_w": 20, "busy_w": 120}},
  "axes": [{"name": "max_batch", "values": [1, 4, 16]},
           {"name": "max_queue_delay_ms", "values": [0, 2]},
           {"name": "rate_per_s", "values": [300, 900, 1800, 2600]}],
  "constraints": {"sla_p99_ms": 12, "min_throughput_per_s": 250,
                  "max_energy_per_inference_j": 0.2},
  "headroom": {"max_evaluations": 3}
})";

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

/// The fields of a CSV line (quoted fields may hold commas and doubled quotes).
std::vector<std::string> fields(const std::string& line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
            out.back() += line[++i];
        else if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            out.emplace_back();
        else
            out.back() += c;
    }
    return out;
}

std::size_t column(const std::vector<std::string>& header, const std::string& name)
{
    return std::size_t(std::find(header.begin(), header.end(), name) - header.begin());
}

std::string readText(const std::string& path)
{
    return test::readFile(QString::fromStdString(path)).toStdString();
}

} // namespace

class TestRegionCurvePack : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void csvTablesHaveTheDocumentedColumns();
    void figuresShowTheRegion();
    void writesEveryFileAndRegionJsonReadsBack();
    void unwritableFolderIsAnError();

private:
    RegionResult m_result;
};

void TestRegionCurvePack::initTestCase()
{
    auto spec = test::regionSpecFrom(kSpec);
    QVERIFY2(spec, spec ? "" : qPrintable(test::describe(spec.error())));
    auto result = test::computeOn(*spec, 2);
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    m_result = std::move(*result);
    QVERIFY(m_result.recommendation);
    QVERIFY(m_result.summary.feasible > 0 && m_result.summary.unstable > 0);
}

void TestRegionCurvePack::csvTablesHaveTheDocumentedColumns()
{
    const auto cells = lines(analysis::cellsCsv(m_result));
    QCOMPARE(cells.size(), m_result.cells.size() + 1);
    QCOMPARE(cells[0],
             std::string("index,max_batch,max_queue_delay_ms,rate_per_s,status,binding,confident,"
                         "method,throughput_per_s,throughput_ci_low_per_s,"
                         "throughput_ci_high_per_s,p99_ms,p99_ci_low_ms,p99_ci_high_ms,"
                         "energy_per_inference_j,power_per_server_w,peak_temperature_c,"
                         "mean_batch,offered_rate_per_s,capacity_rate_per_s,rho,margin_p99,"
                         "margin_throughput,margin_energy,pareto_optimal,recommended,requests,"
                         "replications,simulated_requests,note"));
    // Cell 0 is max batch 1, delay 0, rate 300; only the recommended row says "recommended".
    QVERIFY(cells[1].rfind("0,1,0,300,", 0) == 0);
    const auto header = fields(cells[0]);
    for (std::size_t i = 1; i < cells.size(); ++i) {
        const auto row = fields(cells[i]);
        QCOMPARE(row.size(), header.size());
        const bool recommended = i - 1 == m_result.recommendation->cell;
        QCOMPARE(row[column(header, "recommended")], std::string(recommended ? "true" : "false"));
        QCOMPARE(row[column(header, "status")],
                 std::string(cellStatusName(m_result.cells[i - 1].status)));
    }
    // An unstable cell: no metrics, the note names the key (quoted: it holds commas).
    const auto unstable =
        std::find_if(m_result.cells.begin(), m_result.cells.end(),
                     [](const auto& c) { return c.status == analysis::CellStatus::Unstable; });
    const std::string unstableRow = cells[1 + unstable->index];
    QVERIFY2(unstableRow.find(",unstable,stability,true,analytic,,,,,,,") != std::string::npos,
             unstableRow.c_str());
    QVERIFY2(unstableRow.find("\"scenario.arrivals.rate_per_s:") != std::string::npos,
             unstableRow.c_str());
    QVERIFY(fields(unstableRow).back().find("rho") != std::string::npos);

    const auto pareto = lines(analysis::paretoCsv(m_result));
    QCOMPARE(pareto.size(), m_result.paretoCells.size() + 1);
    QCOMPARE(pareto[0], std::string("index,max_batch,max_queue_delay_ms,rate_per_s,status,"
                                    "throughput_per_s,p99_ms,energy_per_inference_j,recommended"));

    const auto capacity = lines(analysis::capacityCsv(m_result));
    QCOMPARE(capacity.size(), std::size_t(7));
    QCOMPARE(capacity[0], std::string("policy,max_batch,max_queue_delay_ms,max_rate_per_s,"
                                      "infeasible_rate_per_s,stability_limit_per_s,binding,"
                                      "converged,evaluations,simulated_requests,note"));
    QVERIFY(capacity[6].rfind("5,16,2,", 0) == 0);
}

void TestRegionCurvePack::figuresShowTheRegion()
{
    const auto figures = analysis::curvePackFigures(m_result);
    QCOMPARE(figures.size(), std::size_t(4));
    QCOMPARE(figures[0].name, std::string("region-heatmap"));
    QCOMPARE(figures[1].name, std::string("throughput-p99"));
    QCOMPARE(figures[2].name, std::string("energy-throughput"));
    QCOMPARE(figures[3].name, std::string("capacity"));

    // Heatmap: max batch across, delay up, at the recommended rate; the recommendation
    // highlighted where it is.
    const auto& heatmap = *figures[0].figure.heatmap;
    QCOMPARE(heatmap.columnLabels, (std::vector<std::string>{"1", "4", "16"}));
    QCOMPARE(heatmap.rowLabels, (std::vector<std::string>{"0", "2"}));
    QCOMPARE(heatmap.categories.size(), std::size_t(6));
    const auto& rec = *m_result.cell(m_result.recommendation->cell);
    QVERIFY(heatmap.highlightedCell);
    QCOMPARE(heatmap.highlightedCell->first, int(rec.axisIndex[0]));
    QCOMPARE(heatmap.highlightedCell->second, int(rec.axisIndex[1]));
    const int highlighted = heatmap.highlightedCell->second * 3 + heatmap.highlightedCell->first;
    QCOMPARE(heatmap.categoryNames[std::size_t(heatmap.categories[std::size_t(highlighted)])],
             std::string("feasible"));
    QVERIFY(figures[0].figure.caption.find("rate " + m_result.spec.axes[2].label(rec.axisIndex[2]) +
                                           " req/s") != std::string::npos);

    // Scatter: one series per verdict (as the GUI draws it), their points = stable cells; the
    // front, last, is sorted by throughput; the SLA line is at 12 ms and the demand line at
    // 250 req/s.
    const auto& scatter = figures[1].figure;
    QVERIFY(scatter.series.size() >= 2);
    std::size_t stable = 0;
    for (std::size_t i = 0; i + 1 < scatter.series.size(); ++i) {
        const auto& name = scatter.series[i].name;
        QVERIFY2(name == "feasible" || name.starts_with("infeasible: "), name.c_str());
        stable += scatter.series[i].points.size();
    }
    QCOMPARE(stable, m_result.summary.feasible + m_result.summary.infeasible);
    const auto& front = scatter.series.back().points;
    QVERIFY(!front.empty());
    for (std::size_t i = 1; i < front.size(); ++i) {
        QVERIFY(front[i - 1].x <= front[i].x);
        QVERIFY(front[i - 1].y <= front[i].y); // more throughput costs latency on the front
    }
    QCOMPARE(scatter.referenceLines.size(), std::size_t(2));
    QCOMPARE(scatter.referenceLines[1].value, 12.0);
    QCOMPARE(scatter.markers.size(), std::size_t(1));

    // Energy: the budget line at 200 mJ.
    QCOMPARE(figures[2].figure.referenceLines.back().value, 200.0);
    QVERIFY(!figures[2].figure.series[0].points.empty());

    // Capacity: one line per delay, three max batches each.
    const auto& capacity = figures[3].figure;
    QCOMPARE(capacity.series.size(), std::size_t(2));
    QCOMPARE(capacity.series[0].name, std::string("delay 0 ms"));
    QCOMPARE(capacity.series[0].points.size(), std::size_t(3));
    QCOMPARE(capacity.series[0].points[2].x, 16.0);
    QCOMPARE(capacity.series[0].points[2].y, m_result.capacity[4].maxRatePerS);
    QVERIFY(capacity.xLog);
}

void TestRegionCurvePack::writesEveryFileAndRegionJsonReadsBack()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string folder = dir.filePath(QStringLiteral("pack/nested")).toStdString();
    const auto written = analysis::writeCurvePack(m_result, folder);
    QVERIFY2(written, written ? "" : qPrintable(test::describe(written.error())));
    QCOMPARE(*written,
             (std::vector<std::string>{"cells.csv", "pareto.csv", "capacity.csv", "region.json",
                                       "region-heatmap.svg", "throughput-p99.svg",
                                       "energy-throughput.svg", "capacity.svg"}));
    QCOMPARE(readText(folder + "/cells.csv"), analysis::cellsCsv(m_result));
    for (const char* svg : {"/region-heatmap.svg", "/throughput-p99.svg", "/capacity.svg"}) {
        const std::string text = readText(folder + svg);
        QVERIFY2(text.find("<svg") != std::string::npos, svg);
        QVERIFY2(text.find("</svg>") != std::string::npos, svg);
    }
    const auto json = io::parseJson(readText(folder + "/region.json"), "region.json");
    QVERIFY(json);
    QCOMPARE((*json)["batchscope_version"].get<std::string>(), std::string(kVersionString));
    QCOMPARE((*json)["spec"]["scenario"]["seed"].get<std::uint64_t>(), std::uint64_t(4));
    const auto back = analysis::regionResultFromJson(*json, "region.json");
    QVERIFY2(back, back ? "" : qPrintable(test::describe(back.error())));
    QVERIFY(*back == m_result);
    // Written again, the files are replaced, not appended to.
    QVERIFY(analysis::writeCurvePack(m_result, folder));
    QCOMPARE(readText(folder + "/pareto.csv"), analysis::paretoCsv(m_result));
}

void TestRegionCurvePack::unwritableFolderIsAnError()
{
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("plain-file")).toStdString();
    std::ofstream(file) << "x";
    const auto written = analysis::writeCurvePack(m_result, file + "/pack");
    QVERIFY(!written);
    QCOMPARE(written.error().code, ErrorCode::Io);
    QVERIFY(written.error().path.find("plain-file") != std::string::npos);
}

QTEST_APPLESS_MAIN(TestRegionCurvePack)
#include "tst_region_curvepack.moc"
