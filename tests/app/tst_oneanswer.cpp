// One answer per question (issue 16, item 3): on one scenario, policy and load, the Region
// view, the Model dock, the Simulation view, `batchscope-cli simulate`, `batchscope-cli region`
// and the report's curve pack give the same p99 within their stated intervals - the ones that
// run the same runs bit for bit.
#include "analysis/projectregion.h"
#include "document/projectdocument.h"
#include "io/projectfile.h"
#include "jobs/jobrunner.h"
#include "mainwindow.h"
#include "panels/modelpanel.h"
#include "state/settings.h"
#include "testsupport.h"
#include "views/regionview.h"
#include "views/simulationview.h"
#include "workbench/workbenchcontroller.h"

#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace bs;

namespace {

struct P99
{
    double value = NAN;
    double low = NAN;
    double high = NAN;

    double halfWidth() const { return 0.5 * (high - low); }
};

/// Same answer: the difference lies within the combined half-widths of the two intervals.
bool agree(const P99& a, const P99& b)
{
    return std::abs(a.value - b.value) <= std::hypot(a.halfWidth(), b.halfWidth());
}

QString describe(const char* what, const P99& p)
{
    return QStringLiteral("%1 %2 ms [%3, %4]")
        .arg(QLatin1String(what))
        .arg(p.value * 1e3)
        .arg(p.low * 1e3)
        .arg(p.high * 1e3);
}

nlohmann::json runCliJson(const QStringList& args)
{
    QProcess process;
    process.start(QStringLiteral(BATCHSCOPE_CLI_PATH), args);
    if (!process.waitForFinished(240000))
        return nullptr;
    return nlohmann::json::parse(process.readAllStandardOutput().toStdString(), nullptr, false);
}

/// The demo project with a grid that has a boundary: max batch 8/16/32 x delay 0/2 ms at
/// 5,000 and 7,000 req/s of its bursty traffic, SLA 15 ms, 240 W.
QString writeProject(const QTemporaryDir& dir)
{
    QFile demo(test::sourceDir() + QStringLiteral("/resources/demo/demo.bsproj"));
    if (!demo.open(QIODevice::ReadOnly))
        return {};
    nlohmann::json project = nlohmann::json::parse(demo.readAll().toStdString());
    project["region"] = {{"sla_p99_ms", 15.0},
                         {"max_power_w", 240.0},
                         {"max_batch_values", {8, 16, 32}},
                         {"max_queue_delay_ms_values", {0, 2}},
                         {"rate_per_s_values", {5000, 7000}},
                         {"objective", "max-throughput"}};
    const QString path = dir.filePath(QStringLiteral("one-answer.bsproj"));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    out.write(QByteArray::fromStdString(project.dump()));
    return path;
}

} // namespace

class TestOneAnswer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyViewGivesTheSameP99();
};

void TestOneAnswer::everyViewGivesTheSameP99()
{
    QTemporaryDir dir;
    const QString projectPath = writeProject(dir);
    QVERIFY(!projectPath.isEmpty());
    widgets::Settings settings(dir.filePath(QStringLiteral("settings.ini")));
    gui::MainWindow window(&settings);
    window.openInitial(projectPath);
    QVERIFY(window.jobs()->waitForIdle(240000));

    // Region view.
    auto* view = window.regionView();
    view->compute();
    QVERIFY(window.jobs()->waitForIdle(240000));
    const auto region = view->result();
    QVERIFY(region);
    QVERIFY2(region->recommendation, "the grid has a feasible cell");
    const auto* cell = region->cell(region->recommendation->cell);
    QVERIFY(cell);
    QCOMPARE(cell->method, analysis::CellMethod::Simulated);
    const P99 inRegion{cell->metrics.p99S.value, cell->metrics.p99S.ciLow,
                       cell->metrics.p99S.ciHigh};
    QVERIFY(view->recommendationLabel()->text().contains(
        QLocale().toString(inRegion.value * 1e3, 'g', 4)));

    // Clicking it loads the cell; the Model dock and the Simulation view answer for it.
    view->loadCell(cell->index);
    QVERIFY(window.jobs()->waitForIdle(240000));
    const auto* outputs = window.workbench()->lastOutputs();
    QVERIFY(outputs && outputs->current);
    const auto& live = outputs->current->latency.p99;
    const P99 inDock{live.value, live.ciLow, live.ciHigh};
    QVERIFY2(agree(inRegion, inDock),
             qPrintable(describe("region", inRegion) + QStringLiteral(" vs ") +
                        describe("model dock", inDock)));
    const auto* summary = window.modelPanel()->findChild<QLabel*>(QStringLiteral("runSummary"));
    QVERIFY(summary);
    const QString p99Text = QLocale().toString(live.value * 1e3, 'g', 4);
    QVERIFY2(summary->text().contains(p99Text), qPrintable(summary->text()));
    const QString simulationText = window.simulationView()->summaryText();
    QVERIFY2(simulationText.contains(QStringLiteral("Latency p99: ") + p99Text),
             qPrintable(simulationText));
    // The region called it feasible on its full run; the Simulation view's verdict agrees.
    QVERIFY2(simulationText.contains(QStringLiteral("SLA p99 15 ms: met")),
             qPrintable(simulationText));

    // The CLI on the scenario as the project now holds it: the same run, bit for bit.
    QVERIFY(bool(window.document()->save(projectPath)));
    auto project = io::loadProject(projectPath.toStdString());
    QVERIFY(project);
    const nlohmann::json scenario =
        analysis::scenarioWithProjectModel(project->scenarios[0], project->model);
    const QString scenarioPath = dir.filePath(QStringLiteral("cell.json"));
    {
        QFile f(scenarioPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(scenario.dump()));
    }
    const auto simulated =
        runCliJson({QStringLiteral("simulate"), scenarioPath, QStringLiteral("--json")});
    QVERIFY(simulated.is_object());
    const auto& cliP99 = simulated["latency_ms"]["p99"];
    QCOMPARE(cliP99["value"].get<double>(), live.value * 1e3);

    // `batchscope-cli report` computes the project's curve pack: the Region view's numbers.
    const QString reportPath = dir.filePath(QStringLiteral("report.json"));
    QProcess report;
    report.start(QStringLiteral(BATCHSCOPE_CLI_PATH), {
                                                          QStringLiteral("report"),
                                                          projectPath,
                                                          QStringLiteral("--format"),
                                                          QStringLiteral("json"),
                                                          QStringLiteral("-o"),
                                                          reportPath,
                                                      });
    QVERIFY(report.waitForFinished(240000));
    QFile reportFile(reportPath);
    QVERIFY2(reportFile.open(QIODevice::ReadOnly), report.readAllStandardError().constData());
    const auto json = nlohmann::json::parse(reportFile.readAll().toStdString());
    const auto& pack = json["curve_pack"];
    QVERIFY(pack.is_object());
    const std::size_t recommended = pack["recommendation"]["cell"].get<std::size_t>();
    const auto& packCell = pack["cells"][recommended];
    const P99 inReport{packCell["metrics"]["p99_s"][0].get<double>(),
                       packCell["metrics"]["p99_s"][1].get<double>(),
                       packCell["metrics"]["p99_s"][2].get<double>()};
    QVERIFY2(agree(inRegion, inReport), qPrintable(describe("report", inReport)));
}

QTEST_MAIN(TestOneAnswer)
#include "tst_oneanswer.moc"
