// The hostile-project corpus (tests/data/hostile, issue 22): every file opens the way
// `batchscope-cli report` and `simulate` open it, with a clear error naming the key or a
// result, within 10 s each, and never an abort.
#include "analysis/projectregion.h"
#include "io/projectfile.h"
#include "playbook/report.h"
#include "sim/scenariojson.h"
#include "sim/simulator.h"
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QtTest>

using namespace bs;

namespace {

/// What a report of the project says: the load error, or the curve-pack note, or "ok".
std::string reportOutcome(const std::string& path)
{
    auto project = io::loadProject(path);
    if (!project)
        return project.error().toString();
    playbook::ReportOptions options;
    options.generatedAt = "2026-12-03 12:00 UTC";
    options.fileStem = "r";
    options.projectPath = path;
    auto bundle = playbook::prepareReport(*project, options);
    if (!bundle)
        return bundle.error().toString();
    // Every writer runs: the figures are drawn in each.
    const auto md = playbook::renderMarkdown(bundle->document, "r");
    const auto html = playbook::renderHtml(bundle->document);
    if (md.markdown.empty() || html.empty())
        return "empty report";
    return bundle->curvePackNote.empty() ? "ok" : bundle->curvePackNote;
}

std::string scenarioOutcome(const std::string& path)
{
    auto scenario = sim::loadScenario(path);
    if (!scenario)
        return scenario.error().toString();
    auto result = sim::simulate(*scenario);
    return result ? "ok" : result.error().toString();
}

} // namespace

class TestHostileCorpus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyFileGivesAClearOutcome_data();
    void everyFileGivesAClearOutcome();
};

void TestHostileCorpus::everyFileGivesAClearOutcome_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* file, const char* expected) {
        QTest::newRow(file) << test::testDataPath(QStringLiteral("hostile/") +
                                                  QString::fromLatin1(file))
                            << QString::fromUtf8(expected);
    };
    row("region-robust-yes.bsproj", "region.robust: must be true or false");
    row("region-robust-1.bsproj", "region.robust: must be true or false");
    row("region-objective-5.bsproj",
        "region.objective: must be max-throughput, min-energy or min-p99");
    row("region-max-power-x.bsproj", "region.max_power_w: must be a number");
    row("duplicate-region-key.bsproj", "region.sla_p99_ms: the key is given twice");
    row("memo-figure-log-extremes.bsproj", "ok");
    row("playbook-version-1e308.bsproj",
        "playbook.version: must be a whole number between -2^53 and 2^53");
    row("playbook-requests-2to63.bsproj",
        "playbook.options.max_simulated_requests: must be a whole number between");
    row("schema-2to64-minus-1.bsproj", "written by a newer BatchScope (project schema "
                                       "18446744073709551615");
    row("control-characters.bsproj", "ok");
    row("scenario-mmpp-dwell-5e-324.bsproj", "scenario.arrivals.mean_dwell_s[0]: must be at least");
    row("scenario-service-cv-1e150.bsproj", "scenario.service.distribution.cv: must be at most 10");
    row("mmpp-dwell-5e-324.json", "scenario.arrivals.mean_dwell_s[0]: must be at least 1e-06");
    row("mmpp-dwell-1e308.json", "scenario.arrivals.mean_dwell_s[0]: must be at most 1e+09");
    row("gamma-cv-5e-324.json", "scenario.arrivals.cv: must be 0 or at least 0.001");
    row("diurnal-period-5e-324.json", "scenario.arrivals.profile.period_s: must be at least");
    row("diurnal-amplitude-edge.json", "scenario.arrivals.profile.amplitude: must be at most");
    row("service-cv-1e150.json", "scenario.service.distribution.cv: must be at most 10");
}

void TestHostileCorpus::everyFileGivesAClearOutcome()
{
    QFETCH(QString, path);
    QFETCH(QString, expected);
    QElapsedTimer timer;
    timer.start();
    const std::string file = path.toStdString();
    const std::string outcome =
        path.endsWith(QStringLiteral(".json")) ? scenarioOutcome(file) : reportOutcome(file);
    QVERIFY2(timer.elapsed() < 10000, outcome.c_str());
    QVERIFY2(outcome.find(expected.toStdString()) != std::string::npos, outcome.c_str());
}

QTEST_GUILESS_MAIN(TestHostileCorpus)
#include "tst_hostile_corpus.moc"
