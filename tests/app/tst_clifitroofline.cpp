// batchscope-cli simulate --fit-roofline (core/llmsim/README.md: "Calibrating the roofline on a
// rate sweep"): tests/data/llmsim/rate_sweep_small.jsonl is an SGLang bench_serving file whose
// two random-dataset runs (2 and 60 req/s) were simulated from roofline_8b_h100.json with
// eta_compute 0.35, eta_memory 0.6 and 0.08 ms per sequence (seed 7), and a third run with
// shorter prompts that the scenario cannot stand for.
#include "clirun.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using bs::test::CliRun;
using bs::test::runCli;

class TestCliFitRoofline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fitsPrintsAndWritesTheCalibratedScenario();
    void badCombinationsAndFilesAreRefused();

private:
    const QString m_scenario =
        bs::test::testDataPath(QStringLiteral("llmsim/roofline_8b_h100.json"));
    const QString m_sweep = bs::test::testDataPath(QStringLiteral("llmsim/rate_sweep_small.jsonl"));
};

void TestCliFitRoofline::fitsPrintsAndWritesTheCalibratedScenario()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("calibrated.json"));
    const CliRun text =
        runCli({QStringLiteral("simulate"), m_scenario, QStringLiteral("--fit-roofline"), m_sweep,
                QStringLiteral("--calibrated-scenario"), out});
    QVERIFY2(text.exitCode == 0, text.err.constData());
    const QString shown = QString::fromUtf8(text.out);
    QVERIFY2(shown.contains(QStringLiteral("Roofline calibrated on ")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("(2 runs, ")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("eta_compute 0.7 -> 0.3")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("client_overhead_ms 0 -> ")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("2 req/s (random)")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("left out 4 req/s (sharegpt): mean prompt 120 tokens "
                                           "against the scenario's 256")),
             qPrintable(shown));
    // The simulation after the fit runs on the calibrated step.
    QVERIFY2(shown.contains(QStringLiteral("LLM engine")), qPrintable(shown));

    std::ifstream file(out.toStdString());
    const auto written = nlohmann::json::parse(file);
    const auto& step = written["step"];
    QVERIFY(std::abs(step["accelerator"]["eta_compute"].get<double>() - 0.35) < 0.05);
    QVERIFY(std::abs(step["accelerator"]["eta_memory"].get<double>() - 0.6) < 0.06);
    QVERIFY(step["overhead_per_seq_ms"].get<double>() > 0.04);
    QVERIFY(step["calibrated_on"].get<std::string>().starts_with(
        "rate sweep rate_sweep_small.jsonl (2 rates, log-RMS "));
    // The written scenario runs as it is.
    const CliRun again = runCli({QStringLiteral("simulate"), out});
    QVERIFY2(again.exitCode == 0, again.err.constData());

    const CliRun json =
        runCli({QStringLiteral("simulate"), m_scenario, QStringLiteral("--fit-roofline"), m_sweep,
                QStringLiteral("--json")});
    QVERIFY2(json.exitCode == 0, json.err.constData());
    const auto parsed = nlohmann::json::parse(json.out.toStdString());
    const auto& fit = parsed["roofline_fit"];
    QCOMPARE(fit["runs"].size(), std::size_t(2));
    QCOMPARE(fit["left_out"].size(), std::size_t(1));
    QVERIFY(fit["eta_compute_pinned"].get<bool>());
    // The time outside the server is fitted and stated beside the efficiencies; the sweep was
    // simulated with none, so the fit finds next to none (0.24 ms beside TTFTs of 17-71 ms).
    QVERIFY(fit["client_overhead_ms_pinned"].get<bool>());
    QVERIFY(fit["client_overhead_ms"].get<double>() < 2.0);
    QCOMPARE(fit["stated_client_overhead_ms"].get<double>(), 0.0);
    QVERIFY(fit["log_rms"].get<double>() < fit["stated_log_rms"].get<double>());
    QCOMPARE(parsed["scenario"]["step"]["calibrated_on"], step["calibrated_on"]);
}

void TestCliFitRoofline::badCombinationsAndFilesAreRefused()
{
    const CliRun both =
        runCli({QStringLiteral("simulate"), m_scenario, QStringLiteral("--fit-roofline"), m_sweep,
                QStringLiteral("--fit-step"),
                bs::test::testDataPath(QStringLiteral("llmsim/requests_linear_engine.jsonl"))});
    QCOMPARE(both.exitCode, 2);
    QVERIFY2(both.err.contains("choose one"), both.err.constData());

    const CliRun nothing =
        runCli({QStringLiteral("simulate"), m_scenario, QStringLiteral("--calibrated-scenario"),
                QStringLiteral("/tmp/never-written.json")});
    QCOMPARE(nothing.exitCode, 2);
    QVERIFY2(nothing.err.contains("needs --fit-step or --fit-roofline"), nothing.err.constData());

    // A file that is no LLM benchmark: the error names it and says what was expected.
    const QString trace = bs::test::testDataPath(QStringLiteral("llmsim/azure_small.csv"));
    const CliRun wrong =
        runCli({QStringLiteral("simulate"), m_scenario, QStringLiteral("--fit-roofline"), trace});
    QCOMPARE(wrong.exitCode, 1);
    QVERIFY2(wrong.err.contains("azure_small.csv"), wrong.err.constData());
    QVERIFY2(wrong.err.contains("--fit-roofline: not an LLM benchmark file"),
             wrong.err.constData());

    // A linear-step scenario has no roofline to calibrate.
    const CliRun linear =
        runCli({QStringLiteral("simulate"),
                bs::test::testDataPath(QStringLiteral("llmsim/poisson_small.json")),
                QStringLiteral("--fit-roofline"), m_sweep});
    QCOMPARE(linear.exitCode, 1);
    QVERIFY2(linear.err.contains("not \"roofline\""), linear.err.constData());
    // It is the scenario's fault, and the error names the scenario, not the sweep.
    QVERIFY2(linear.err.contains("poisson_small.json"), linear.err.constData());
    QVERIFY2(!linear.err.contains("rate_sweep_small.jsonl"), linear.err.constData());
}

QTEST_GUILESS_MAIN(TestCliFitRoofline)
#include "tst_clifitroofline.moc"
