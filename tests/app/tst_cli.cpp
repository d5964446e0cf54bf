#include "clirun.h"
#include "testsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

namespace {

using bs::test::CliRun;
using bs::test::runCli;

QString hostilePath(const QString& name)
{
    return bs::test::testDataPath(QStringLiteral("hostile/") + name);
}

/// A run with a deadline: a hang is a failure, not a stuck suite.
CliRun runWithin(const QStringList& args, int milliseconds, bool* finished)
{
    QProcess process;
    process.start(QStringLiteral(BATCHSCOPE_CLI_PATH), args);
    *finished =
        process.waitForFinished(milliseconds) && process.exitStatus() == QProcess::NormalExit;
    if (!*finished) {
        process.kill();
        process.waitForFinished();
    }
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

/// The first LLM run of the first input of `analyze --json` output.
QJsonObject firstLlmRun(const QByteArray& out)
{
    const QJsonValue analysis =
        QJsonDocument::fromJson(out)
            .object()[QStringLiteral("inputs")][0][QStringLiteral("analysis")];
    return analysis[QStringLiteral("runs")][0].toObject();
}

/// `analyze FILE --json`: its first LLM run (empty when the command failed).
QJsonObject analyzeFirstLlmRun(const QString& file)
{
    const CliRun run = runCli({QStringLiteral("analyze"), file, QStringLiteral("--json")});
    return run.exitCode == 0 ? firstLlmRun(run.out) : QJsonObject();
}

/// The TTFT p99 (ms) computed from a run's records.
double ttftP99Ms(const QJsonObject& run)
{
    const QJsonObject p99 =
        run[QStringLiteral("ttft")][QStringLiteral("percentiles")][3].toObject();
    return p99[QStringLiteral("p")].toDouble() == 0.99 ? p99[QStringLiteral("value_ms")].toDouble()
                                                       : -1.0;
}

QString demoPath()
{
    return bs::test::sourceDir() + QStringLiteral("/resources/demo/demo.bsproj");
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void versionAndHelp();
    void projectInfoOnTheDemo();
    void projectInfoJson();
    void projectInfoCountsWhatTheMemoHolds();
    void errorsGoToStderrWithExitCodes_data();
    void errorsGoToStderrWithExitCodes();
    void analyzePrintsOneWholeTraceRow();
    void analyzeChecksAPowerLogAgainstAThermalModel();
    void modelSaysItsNumbersAreEfficiencyScaled();
    void inspectAndAnalyzeLlmBenchmark();
    void simulateRunsAnLlmScenario();
    void simulateFitsTheStepOfAMeasuredRun();
    void simulateRejectsABadLlmScenario_data();
    void simulateRejectsABadLlmScenario();
    void inspectAndAnalyzeLlmRequestLog();
    void analyzeLlmRequestLogOfARealRun();
    void llmRunEnergyFromAJoinedPowerLog();
    void twoLlmBenchmarksComparedPointByPoint();
    void inspectAndAnalyzeGenAiPerfExports();
    void inspectAndAnalyzeLlmPerfResponses();
    void hostileCorpusGivesAClearOutcomeWithin10s_data();
    void hostileCorpusGivesAClearOutcomeWithin10s();
    void controlCharactersInNamesAreMadeVisible();
    void reportRefusesToOverwriteTheProject();
    void pdfOfAMegabyteWordIsQuick();
};

void TestCli::versionAndHelp()
{
    const CliRun version = runCli({QStringLiteral("--version")});
    QCOMPARE(version.exitCode, 0);
    QVERIFY(version.out.startsWith("batchscope-cli 0."));
    const CliRun help = runCli({QStringLiteral("project"), QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains("Usage: batchscope-cli project info FILE.bsproj"));
}

void TestCli::projectInfoOnTheDemo()
{
    const CliRun run = runCli({QStringLiteral("project"), QStringLiteral("info"), demoPath()});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.err.isEmpty());
    QVERIFY(run.out.contains("Title:     Demo: ResNet-50 batch policy under a 250 W power cap"));
    QVERIFY(run.out.contains("ds1  sweep  Baseline: 400 W  [baseline]"));
    QVERIFY(run.out.contains("Scenarios: 2"));
    // Every demo input is pinned: its embedded data carries a SHA-256 a reviewer can compare.
    QCOMPARE(run.out.count("(of the embedded data)"), 4);
}

void TestCli::projectInfoJson()
{
    const CliRun run = runCli(
        {QStringLiteral("project"), QStringLiteral("info"), demoPath(), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(doc[QStringLiteral("schema")].toInt(), 1);
    QCOMPARE(doc[QStringLiteral("datasets")].toArray().size(), 4);
    QCOMPARE(doc[QStringLiteral("datasets")][1][QStringLiteral("role")].toString(),
             QStringLiteral("candidate"));
    QCOMPARE(doc[QStringLiteral("datasets")][1][QStringLiteral("rows")].toInt(), 9);
    for (const auto& dataset : doc[QStringLiteral("datasets")].toArray())
        QCOMPARE(dataset[QStringLiteral("sha256")].toString().size(), 64);
}

void TestCli::projectInfoCountsWhatTheMemoHolds()
{
    // Issue 21: a memo with a decision, four named owners and evidence read "0 fields filled".
    QFile demo(demoPath());
    QVERIFY(demo.open(QIODevice::ReadOnly));
    auto project = nlohmann::json::parse(demo.readAll().toStdString());
    const auto figure = nlohmann::json::parse(R"({"title": "p99", "series": [{"name": "p99",
        "kind": "line", "points": [[1, 2], [2, 3]]}]})");
    project["memo"] = {
        {"fields",
         {{"failing_metric", {{"text", "p99 latency over 15 ms"}}},
          {"primary_mechanism", {{"text", "power cap"}, {"draft", "thermal"}, {"edited", true}}}}},
        {"owners",
         {{{"role", "Inference platform"}, {"name", "A"}, {"state", "approved"}, {"note", ""}},
          {{"role", "Capacity"}, {"name", "B"}, {"state", "approved"}, {"note", ""}},
          {{"role", "SRE"}, {"name", "C"}, {"state", "pending"}, {"note", ""}},
          {{"role", "Power"}, {"name", "D"}, {"state", "approved"}, {"note", ""}}}},
        {"decision", "bounded_rollout"},
        {"evidence", {{{"title", "p99"}, {"source", "Sweep"}, {"figure", figure}}}}};
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("memo.bsproj"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(project.dump()));
    out.close();
    const CliRun run = runCli({QStringLiteral("project"), QStringLiteral("info"), path});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.out.contains("Memo:      2 of 13 fields filled, decision bounded_rollout, 4 of 4 "
                              "owners named (3 approved), 1 evidence figure"),
             run.out.constData());
}

void TestCli::errorsGoToStderrWithExitCodes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stderrStart");
    QTest::newRow("missing file") << QStringList{QStringLiteral("project"), QStringLiteral("info"),
                                                 QStringLiteral("/no/such.bsproj")}
                                  << 1
                                  << "/no/such.bsproj: cannot open file: No such file or directory";
    QTest::newRow("unknown option")
        << QStringList{QStringLiteral("project"), QStringLiteral("--colour")} << 2
        << "batchscope-cli project: unknown option --colour";
    QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")} << 2
                                     << "batchscope-cli: unknown command 'frobnicate'";
    QTest::newRow("missing argument")
        << QStringList{QStringLiteral("project"), QStringLiteral("info")} << 2
        << "usage: batchscope-cli project info FILE.bsproj";
}

void TestCli::errorsGoToStderrWithExitCodes()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, stderrStart);
    const CliRun run = runCli(args);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(QString::fromUtf8(run.err).startsWith(stderrStart), run.err.constData());
    QVERIFY(run.out.isEmpty());
}

// Regression: without steps, `analyze` printed two "whole trace" rows with different walls
// and busy shares (host+device span vs device span). One definition, one row.
void TestCli::analyzePrintsOneWholeTraceRow()
{
    BS_REQUIRE_SHARED_DATA(shared);
    const CliRun run = runCli(
        {QStringLiteral("analyze"),
         shared + QStringLiteral("/kineto_traces/hta/trace_file_list/inference_rank_1.json.gz")});
    QCOMPARE(run.exitCode, 0);
    const QString out = QString::fromUtf8(run.out);
    QVERIFY2(out.contains(QStringLiteral("steps       whole trace")), qPrintable(out));
    QCOMPARE(out.count(QStringLiteral("whole trace: wall ")), 1);
}

void TestCli::analyzeChecksAPowerLogAgainstAThermalModel()
{
    const QString log = bs::test::testDataPath(QStringLiteral("power/nvidia_smi_a100_step.csv"));
    const CliRun a100 = runCli({QStringLiteral("analyze"), log, QStringLiteral("--accelerator"),
                                QStringLiteral("a100-sxm-80gb"), QStringLiteral("--json")});
    QCOMPARE(a100.exitCode, 0);
    const QJsonObject model = QJsonDocument::fromJson(a100.out)
                                  .object()[QStringLiteral("power")]
                                  .toArray()[0]
                                  .toObject()[QStringLiteral("thermal_model")]
                                  .toObject();
    QVERIFY2(model[QStringLiteral("agrees")].toBool(), a100.out.constData());
    QVERIFY(model[QStringLiteral("mean_abs_error_c")].toDouble() < 0.5);
    // The same log against a T4 (another thermal RC) is called out, with the direction.
    const CliRun t4 = runCli(
        {QStringLiteral("analyze"), log, QStringLiteral("--accelerator"), QStringLiteral("t4")});
    QCOMPARE(t4.exitCode, 0);
    QVERIFY2(t4.out.contains("  model       the log runs "), t4.out.constData());
    const CliRun unknown = runCli({QStringLiteral("analyze"), log, QStringLiteral("--accelerator"),
                                   QStringLiteral("no-such-gpu")});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("--accelerator"), unknown.err.constData());
}

// Issue 17: `model` says its throughput comes from the datasheet peaks times the efficiency
// factors, so nobody reads it as a datasheet figure. A30 int8: 330 TOPS and 933 GB/s (A30
// datasheet) with the preset's eta_compute 0.7, eta_memory 0.85.
void TestCli::modelSaysItsNumbersAreEfficiencyScaled()
{
    const CliRun run =
        runCli({QStringLiteral("model"), QStringLiteral("--accelerator"), QStringLiteral("a30"),
                QStringLiteral("--workload"), QStringLiteral("resnet50"), QStringLiteral("--batch"),
                QStringLiteral("1,8,64")});
    QCOMPARE(run.exitCode, 0);
    const QString out = QString::fromUtf8(run.out);
    QVERIFY2(out.contains(QStringLiteral(
                 "Efficiency-scaled: t(b) uses the datasheet peak 330 TFLOPS (int8) × "
                 "eta_compute 0.70 and 0.933 TB/s × eta_memory 0.85, not the peaks themselves\n"
                 "Ridge point ")),
             qPrintable(out));
    // Another device and precision: the V100 FP16 tensor-core peak.
    const CliRun v100 =
        runCli({QStringLiteral("model"), QStringLiteral("--accelerator"), QStringLiteral("v100"),
                QStringLiteral("--workload"), QStringLiteral("bert-large-384"),
                QStringLiteral("--batch"), QStringLiteral("1")});
    QCOMPARE(v100.exitCode, 0);
    QVERIFY2(v100.out.contains("peak 125 TFLOPS (fp16) × eta_compute 0.70 and 0.9 TB/s"),
             v100.out.constData());
}

// Issue 18: a vLLM --save-result file through the real CLI. Expected figures from python3:
// json.load(); len(ttfts) = 200; numpy-style linear p99 of ttfts = 67.56 ms (vLLM's own
// p99_ttft_ms is 67.5638...); output_throughput = 673.918... tokens/s.
void TestCli::inspectAndAnalyzeLlmBenchmark()
{
    BS_REQUIRE_SHARED_DATA(shared);
    const QString file =
        shared + QStringLiteral("/llm/llm-k8s/results_serving_meta-llama-Llama-3.3-70B-"
                                "Instruct/01_tp8_pp1/serving_meta-llama-Llama-3.3-70B-"
                                "Instruct_tp8_pp1_sharegpt_qps_04.json");
    const CliRun inspect = runCli({QStringLiteral("inspect"), file});
    QCOMPARE(inspect.exitCode, 0);
    QVERIFY2(QString::fromUtf8(inspect.out).contains(QStringLiteral("format        llm_benchmark")),
             inspect.out.constData());
    const CliRun analyze = runCli({QStringLiteral("analyze"), file});
    QCOMPARE(analyze.exitCode, 0);
    const QString out = QString::fromUtf8(analyze.out);
    QVERIFY2(out.contains(QStringLiteral("200 records, 0 failed, 200 completed")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("output      673.9 tokens/s")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("ttft        n 200, ")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("p99 67.56 [")), qPrintable(out));
}

void TestCli::simulateRunsAnLlmScenario()
{
    // tests/data/llmsim/README.md: TTFT 20 and 31 ms (mean 25.5), one of two requests meets the
    // SLA, 7 output tokens in 70 ms.
    const QString scenario = bs::test::testDataPath(QStringLiteral("llmsim/replay_small.json"));
    const CliRun text = runCli({QStringLiteral("simulate"), scenario});
    QVERIFY2(text.exitCode == 0, text.err.constData());
    QVERIFY2(text.out.contains("vllm_v1, max_num_seqs 8"), text.out.constData());
    QVERIFY2(text.out.contains("  TTFT            25.5      25.5"), text.out.constData());
    QVERIFY2(text.out.contains("Output tokens/s    100.0"), text.out.constData());
    QVERIFY2(text.out.contains("50.0% of requests meet"), text.out.constData());

    QTemporaryDir dir;
    const QString records = dir.filePath(QStringLiteral("requests.csv"));
    const CliRun json = runCli({QStringLiteral("simulate"), scenario, QStringLiteral("--json"),
                                QStringLiteral("--records"), records});
    QVERIFY2(json.exitCode == 0, json.err.constData());
    const auto parsed = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(parsed["kind"].get<std::string>(), std::string("batchscope.llmsim.result"));
    QVERIFY(std::abs(parsed["ttft_ms"]["p50"]["value"].get<double>() - 25.5) < 1e-9);
    QCOMPARE(parsed["good_fraction"]["value"].get<double>(), 0.5);
    const QByteArray csv = bs::test::readFile(records);
    QVERIFY2(csv.startsWith("index,arrival_s,prompt_tokens"), csv.constData());
    QCOMPARE(csv.count('\n'), 3);

    // The same run as an engine request log: analyze reads it as a run, marked simulated.
    const QString folder = dir.filePath(QStringLiteral("simulated-run"));
    const CliRun logged =
        runCli({QStringLiteral("simulate"), scenario, QStringLiteral("--request-log"), folder});
    QVERIFY2(logged.exitCode == 0, logged.err.constData());
    const CliRun analyzed =
        runCli({QStringLiteral("analyze"), folder + QStringLiteral("/requests.jsonl")});
    QVERIFY2(analyzed.exitCode == 0, analyzed.err.constData());
    QVERIFY2(analyzed.out.contains("simulated   by the BatchScope LLM simulator, not measured"),
             analyzed.out.constData());
    const CliRun inspected =
        runCli({QStringLiteral("inspect"), folder + QStringLiteral("/requests.jsonl")});
    QVERIFY2(inspected.out.contains("simulated, not measured"), inspected.out.constData());
    QVERIFY2(analyzed.out.contains("2 records"), analyzed.out.constData());
}

void TestCli::simulateFitsTheStepOfAMeasuredRun()
{
    // tests/data/llmsim/README.md: a log served by 6 ms + 0.05 ms per prefill token + 0.3 ms per
    // decode, replayed by a scenario whose step is wrong; the fit finds the engine's step again.
    const QString scenario = bs::test::testDataPath(QStringLiteral("llmsim/fit_step.json"));
    const QString log =
        bs::test::testDataPath(QStringLiteral("llmsim/requests_linear_engine.jsonl"));
    const CliRun text =
        runCli({QStringLiteral("simulate"), scenario, QStringLiteral("--fit-step"), log});
    QVERIFY2(text.exitCode == 0, text.err.constData());
    QVERIFY2(text.out.contains("base 6 ms, 0.05 ms per prefill token, 0.3 ms per decoding "
                               "sequence"),
             text.out.constData());
    const CliRun json = runCli({QStringLiteral("simulate"), scenario, QStringLiteral("--fit-step"),
                                log, QStringLiteral("--json")});
    QVERIFY2(json.exitCode == 0, json.err.constData());
    const auto parsed = nlohmann::json::parse(json.out.toStdString());
    QVERIFY(std::abs(parsed["step_fit"]["per_decode_seq_ms"].get<double>() - 0.3) < 1e-3);
    // The fitted step is the one simulated, ready to copy into a scenario with other knobs.
    QVERIFY(std::abs(parsed["scenario"]["step"]["base_ms"].get<double>() - 6.0) < 1e-3);

    // Written into another folder, the calibrated scenario still replays the same log: its
    // relative path is rewritten against its own folder, and it runs as it is.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("calibrated/step.json"));
    QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("calibrated"))));
    const CliRun written =
        runCli({QStringLiteral("simulate"), scenario, QStringLiteral("--fit-step"), log,
                QStringLiteral("--calibrated-scenario"), out});
    QVERIFY2(written.exitCode == 0, written.err.constData());
    std::ifstream file(out.toStdString());
    const auto copy = nlohmann::json::parse(file);
    const QString replayed = QString::fromStdString(copy["arrivals"]["file"].get<std::string>());
    QVERIFY2(QDir::isRelativePath(replayed), qPrintable(replayed));
    QCOMPARE(QFileInfo(QDir(dir.filePath(QStringLiteral("calibrated"))).filePath(replayed))
                 .canonicalFilePath(),
             QFileInfo(log).canonicalFilePath());
    const CliRun again = runCli({QStringLiteral("simulate"), out, QStringLiteral("--json")});
    QVERIFY2(again.exitCode == 0, again.err.constData());
    // The same requests on the same step: the same answer.
    QCOMPARE(nlohmann::json::parse(again.out.toStdString())["ttft_ms"], parsed["ttft_ms"]);

    const CliRun queueing =
        runCli({QStringLiteral("simulate"),
                bs::test::testDataPath(QStringLiteral("scenario/poisson_table.json")),
                QStringLiteral("--fit-step"), log});
    QVERIFY(queueing.exitCode != 0);
    QVERIFY2(queueing.err.contains("--fit-step: applies to an LLM scenario"),
             queueing.err.constData());
}

void TestCli::simulateRejectsABadLlmScenario_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("bad key") << QStringLiteral("bad_block_size.json")
                             << QStringLiteral("bad_block_size.json: scenario.engine.block_size");
    QTest::newRow("request too large")
        << QStringLiteral("too_long_for_cache.json")
        << QStringLiteral("too_long_for_cache.json: scenario.arrivals: request 0 needs 69 tokens");
}

void TestCli::simulateRejectsABadLlmScenario()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    const CliRun run = runCli(
        {QStringLiteral("simulate"), bs::test::testDataPath(QStringLiteral("llmsim/") + file)});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(QString::fromUtf8(run.err).contains(expected), run.err.constData());
    QVERIFY(run.out.isEmpty());
}

// Issue 18: the engine request log fixture (tests/data/llm/servinglog, figures worked out in
// tst_io_llmrequestlog.cpp): 1.4 requests in flight both ways; TTFT <= 1.5 s and TPOT <= 600 ms
// hold for 2 of the 3 requests over the 5 s window, 0.4 req/s.
void TestCli::inspectAndAnalyzeLlmRequestLog()
{
    const QString log = bs::test::testDataPath(QStringLiteral("llm/servinglog/requests.jsonl"));
    const CliRun inspect = runCli({QStringLiteral("inspect"), log});
    QCOMPARE(inspect.exitCode, 0);
    const QString shown = QString::fromUtf8(inspect.out);
    QVERIFY2(shown.contains(QStringLiteral("format        llm_request_log")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("joined with timeseries.csv and meta.json")),
             qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("duration_s 5; engine_samples 5; output_tokens_per_s "
                                           "1.8")),
             qPrintable(shown));
    const CliRun analyze =
        runCli({QStringLiteral("analyze"), log, QStringLiteral("--ttft-sla-ms"),
                QStringLiteral("1500"), QStringLiteral("--tpot-sla-ms"), QStringLiteral("600")});
    QCOMPARE(analyze.exitCode, 0);
    const QString out = QString::fromUtf8(analyze.out);
    QVERIFY2(out.contains(QStringLiteral("in flight   1.4 (Little's law over the records) 1.4 "
                                         "(engine running + waiting), 0.0% apart")),
             qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("goodput     0.4 req/s (2 of 3 within the SLA)")),
             qPrintable(out));
    const QString series = bs::test::testDataPath(QStringLiteral("llm/servinglog/timeseries.csv"));
    const CliRun alone = runCli({QStringLiteral("analyze"), series});
    QCOMPARE(alone.exitCode, 0);
    QVERIFY2(alone.out.contains("in flight   1.4 (engine running + waiting)"),
             alone.out.constData());
    const CliRun badSla = runCli(
        {QStringLiteral("analyze"), log, QStringLiteral("--ttft-sla-ms"), QStringLiteral("0")});
    QCOMPARE(badSla.exitCode, 2);
    QVERIFY2(badSla.err.contains("--ttft-sla-ms must be above zero"), badSla.err.constData());
}

// The LLMServingSim vLLM run: TTFT p99 137,356.3 ms is the origin's own validation summary's
// figure (python3 over first_token_ts - queued_ts: 137.35629556203884 s); 300 requests.
void TestCli::analyzeLlmRequestLogOfARealRun()
{
    BS_REQUIRE_SHARED_DATA(shared);
    const QString log = shared + QStringLiteral("/llm/llmservingsim/bench/examples/RTX4090/"
                                                "Llama-3.1-8B/vllm/requests.jsonl");
    const QJsonObject r = analyzeFirstLlmRun(log);
    QVERIFY(!r.isEmpty());
    QCOMPARE(r[QStringLiteral("requests")].toInt(), 300);
    QVERIFY(std::fabs(ttftP99Ms(r) - 137356.29556203884) < 1e-6);
    const double lawS = r[QStringLiteral("in_flight")][QStringLiteral("from_requests")].toDouble();
    QVERIFY(std::fabs(lawS - 141.4928155981181) < 1e-9);
}

// An engine request log placed in Unix time by its arrival_time, joined with a power log of
// the same minutes: a constant 300 W over the run's 5 s span is 1,500 J, charged to its 9 output
// tokens (166.67 J each) and 3 requests (500 J each), with a band of no width (the draw is
// constant). The run's figure is llmLoggedEnergy's, the playbook's; the power log's own windows
// are the traces' (none here), not a second join of the run.
void TestCli::llmRunEnergyFromAJoinedPowerLog()
{
    const QString log = bs::test::testDataPath(QStringLiteral("llm/servinglog/requests.jsonl"));
    const QString power =
        bs::test::testDataPath(QStringLiteral("power/nvidia_smi_llm_servinglog.csv"));
    const CliRun run = runCli({QStringLiteral("analyze"), log, power, QStringLiteral("--json")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();
    const auto loggedEnergy = [](const QJsonObject& analysis) {
        return analysis[QStringLiteral("inputs")][0][QStringLiteral("analysis")]
                       [QStringLiteral("runs")][0][QStringLiteral("logged_energy")]
                           .toObject();
    };
    const QJsonObject e = loggedEnergy(out);
    const auto value = [&e](const char* key) { return e[QLatin1String(key)].toDouble(); };
    QVERIFY2(e[QStringLiteral("available")].toBool(), run.out.constData());
    QCOMPARE(e[QStringLiteral("power_log")].toString(), power);
    QVERIFY(std::fabs(value("energy_j") - 1500.0) < 1e-6);
    QVERIFY(std::fabs(value("per_output_token_j") - 1500.0 / 9.0) < 1e-6);
    QVERIFY(std::fabs(value("per_request_j") - 500.0) < 1e-6);
    QCOMPARE(e[QStringLiteral("devices")].toInt(), 1);
    const QJsonArray band = e[QStringLiteral("per_output_token_band_j")].toArray();
    QVERIFY(std::fabs(band[0].toDouble() - 1500.0 / 9.0) < 1e-6);
    QVERIFY(std::fabs(band[1].toDouble() - 1500.0 / 9.0) < 1e-6);
    QVERIFY(!out[QStringLiteral("power")][0][QStringLiteral("energy")].isObject());
    const CliRun text = runCli({QStringLiteral("analyze"), log, power});
    QVERIFY2(text.out.contains("energy log  166.7 J/output token [166.7, 166.7], 500 J/request, at "
                               "300 W on 1 device(s) over 5 s"),
             text.out.constData());
    // Shifted by an hour, the log no longer covers the run: not charged, and said so.
    const CliRun shifted =
        runCli({QStringLiteral("analyze"), log, power, QStringLiteral("--clock-offset-s"),
                QStringLiteral("3600"), QStringLiteral("--json")});
    QCOMPARE(shifted.exitCode, 0);
    const QJsonObject none = loggedEnergy(QJsonDocument::fromJson(shifted.out).object());
    QVERIFY(!none[QStringLiteral("available")].toBool());
    QCOMPARE(none[QStringLiteral("reason")].toString(),
             QStringLiteral("the power log does not cover the run's whole window"));
}

// Two vLLM result files point by point: the rate sweep (1, 2, 4 req/s and an unlimited rate at
// concurrency 16) against an appended file (2 req/s, and unlimited at concurrency 8). Only the
// 2 req/s runs pair; a file against itself differs nowhere.
void TestCli::twoLlmBenchmarksComparedPointByPoint()
{
    const QString sweep = bs::test::testDataPath(QStringLiteral("llm/vllm_rate_sweep.jsonl"));
    const QString append = bs::test::testDataPath(QStringLiteral("llm/vllm_append.jsonl"));
    const CliRun run = runCli({QStringLiteral("analyze"), sweep, append, QStringLiteral("--json")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject c =
        QJsonDocument::fromJson(run.out).object()[QStringLiteral("llm_comparison")].toObject();
    QCOMPARE(c[QStringLiteral("paired_by")].toString(),
             QStringLiteral("request rate or concurrency"));
    const QJsonArray points = c[QStringLiteral("points")].toArray();
    QCOMPARE(points.size(), 1);
    const QJsonObject point = points[0].toObject();
    QCOMPARE(point[QStringLiteral("a_run")].toInt(), 2);
    QCOMPARE(point[QStringLiteral("b_run")].toInt(), 1);
    QCOMPARE(point[QStringLiteral("load")].toDouble(), 2.0);
    // Every compared percentile: delta = b - a, and "distinguishable" only when the intervals
    // are apart.
    const QJsonArray latency = point[QStringLiteral("latency")].toArray();
    QVERIFY(!latency.isEmpty());
    for (const auto& value : latency) {
        const QJsonObject d = value.toObject();
        const double a = d[QStringLiteral("a_ms")].toDouble();
        const double b = d[QStringLiteral("b_ms")].toDouble();
        QVERIFY(std::fabs(d[QStringLiteral("delta_ms")].toDouble() - (b - a)) < 1e-9);
        const QJsonArray ia = d[QStringLiteral("a_ci95_ms")].toArray();
        const QJsonArray ib = d[QStringLiteral("b_ci95_ms")].toArray();
        const auto above = [](const QJsonArray& hi, const QJsonArray& lo) {
            return !hi[0].isNull() && !lo[1].isNull() && hi[0].toDouble() > lo[1].toDouble();
        };
        const bool apart = above(ib, ia) || above(ia, ib);
        QCOMPARE(d[QStringLiteral("distinguishable")].toBool(), apart);
    }
    QCOMPARE(c[QStringLiteral("only_in_a")].toArray(), (QJsonArray{1, 3, 4}));
    QCOMPARE(c[QStringLiteral("only_in_b")].toArray(), (QJsonArray{2}));
    const CliRun text = runCli({QStringLiteral("analyze"), sweep, append});
    QVERIFY2(text.out.contains("== LLM runs compared (second - first), paired by request rate or "
                               "concurrency\n  run 2 vs 1 at request rate 2:"),
             text.out.constData());
    const CliRun self = runCli({QStringLiteral("analyze"), sweep, sweep, QStringLiteral("--json")});
    const QJsonObject same =
        QJsonDocument::fromJson(self.out).object()[QStringLiteral("llm_comparison")].toObject();
    QCOMPARE(same[QStringLiteral("points")].toArray().size(), 4);
    for (const auto& p : same[QStringLiteral("points")].toArray())
        for (const auto& d : p.toObject()[QStringLiteral("latency")].toArray()) {
            QCOMPARE(d.toObject()[QStringLiteral("delta_ms")].toDouble(), 0.0);
            QVERIFY(!d.toObject()[QStringLiteral("distinguishable")].toBool());
        }
}

// GenAI-Perf and AIPerf exports: the constructed one (2.5 J per output token: 250 W on its one
// busy GPU / 100 tokens/s) and the two real ones (python3 over json.load(): GPU 3's 196.18 W /
// 12.0958 tokens/s = 16.22 J per output token; TTFT p99 2342.05304546 ms; AIPerf's GPU 0:
// 94.618 W / 54.5576 tokens/s = 1.734 J; TTFT p99 99.64934874 ms).
void TestCli::inspectAndAnalyzeGenAiPerfExports()
{
    const QString small = bs::test::testDataPath(QStringLiteral("llm/aiperf_small.json"));
    const CliRun inspect = runCli({QStringLiteral("inspect"), small});
    QCOMPARE(inspect.exitCode, 0);
    QVERIFY2(inspect.out.contains("format        genai_perf"), inspect.out.constData());
    QVERIFY2(inspect.out.contains("2 requests failed"), inspect.out.constData());
    const CliRun analyze = runCli({QStringLiteral("analyze"), small});
    QCOMPARE(analyze.exitCode, 0);
    QVERIFY2(analyze.out.contains("energy      2.5 J/output token, 125 J/request, at 250 W on GPU "
                                  "gpu_0"),
             analyze.out.constData());
    QVERIFY2(analyze.out.contains("tool p99    e2e 900 tpot 20 ttft 120 ms"),
             analyze.out.constData());
    BS_REQUIRE_SHARED_DATA(shared);
    const QString genAiPerf =
        shared + QStringLiteral("/llm/k8s-dev/bench/etl/profile_export_genai_perf.json");
    const CliRun real = runCli({QStringLiteral("analyze"), genAiPerf});
    QCOMPARE(real.exitCode, 0);
    QVERIFY2(real.out.contains("energy      16.22 J/output token, 417.3 J/request, at 196.2 W on "
                               "GPU 3\n"),
             real.out.constData());
    QVERIFY2(real.out.contains("ttft 2342 "), real.out.constData());
    const QString aiPerf =
        shared + QStringLiteral("/llm/k8s-dev/bench/aiperf/profile_export_aiperf.json");
    const QJsonObject r = analyzeFirstLlmRun(aiPerf);
    QVERIFY(!r.isEmpty());
    QCOMPARE(r[QStringLiteral("completed")].toInt(), 100);
    QCOMPARE(r[QStringLiteral("reported_p99_ms")][QStringLiteral("ttft")].toDouble(), 99.64934874);
    const double perToken =
        r[QStringLiteral("energy")][QStringLiteral("per_output_token_j")].toDouble();
    QVERIFY(std::fabs(perToken - 1.7342760471595433) < 1e-12);
}

// LLMPerf individual responses: the constructed three (one failed, TTFT 0.3 and 0.5 s: median
// 400 ms) and the real 150 (2 failed with 429; TTFT p99 over the 148 others 658.68 ms, the
// summary's own results_ttft_s_quantiles_p99).
void TestCli::inspectAndAnalyzeLlmPerfResponses()
{
    const QString small =
        bs::test::testDataPath(QStringLiteral("llm/llmperf_individual_small.json"));
    const CliRun inspect = runCli({QStringLiteral("inspect"), small});
    QCOMPARE(inspect.exitCode, 0);
    QVERIFY2(inspect.out.contains("format        llmperf"), inspect.out.constData());
    QVERIFY2(inspect.out.contains("1 of 3 requests failed (error codes 429: 1)"),
             inspect.out.constData());
    const CliRun analyze = runCli({QStringLiteral("analyze"), small});
    QCOMPARE(analyze.exitCode, 0);
    QVERIFY2(analyze.out.contains("3 records, 1 failed, 2 completed"), analyze.out.constData());
    QVERIFY2(analyze.out.contains("ttft        n 2, mean 400; p50 400 ["), analyze.out.constData());
    BS_REQUIRE_SHARED_DATA(shared);
    const QString real =
        shared + QStringLiteral("/llm/llmperf-leaderboard/raw_data/individual/perplexity_70b.json");
    const QJsonObject r = analyzeFirstLlmRun(real);
    QVERIFY(!r.isEmpty());
    QCOMPARE(r[QStringLiteral("failed")].toInt(), 2);
    QVERIFY(std::fabs(ttftP99Ms(r) - 658.6804771299839) < 1e-9);
}

void TestCli::hostileCorpusGivesAClearOutcomeWithin10s_data()
{
    QTest::addColumn<QString>("file");
    const QDir folder(bs::test::testDataPath(QStringLiteral("hostile")));
    for (const QString& name :
         folder.entryList({QStringLiteral("*.bsproj"), QStringLiteral("*.json")}))
        QTest::newRow(name.toUtf8().constData()) << name;
}

void TestCli::hostileCorpusGivesAClearOutcomeWithin10s()
{
    // Issue 22: a clear error (exit 1, the reason on stderr) or a result, never an abort or
    // a hang. The corpus projects have no baseline and candidate: their reports are drafts,
    // which --allow-draft writes (the gate itself is tst_clireport's).
    QFETCH(QString, file);
    QTemporaryDir dir;
    const QStringList args =
        file.endsWith(QStringLiteral(".json"))
            ? QStringList{QStringLiteral("simulate"), hostilePath(file)}
            : QStringList{QStringLiteral("report"), hostilePath(file), QStringLiteral("-o"),
                          dir.filePath(QStringLiteral("r.md")), QStringLiteral("--allow-draft")};
    bool finished = false;
    const CliRun run = runWithin(args, 10000, &finished);
    QVERIFY2(finished, "did not end within 10 s");
    QVERIFY2(run.exitCode == 0 || run.exitCode == 1, run.err.constData());
    if (run.exitCode == 1)
        QVERIFY2(run.err.contains(": ") && !run.err.contains("internal error"),
                 run.err.constData());
}

void TestCli::controlCharactersInNamesAreMadeVisible()
{
    // Regression: the title's OSC 52 (clipboard) and OSC 0 (window title) reached the terminal.
    for (const auto& args :
         {QStringList{QStringLiteral("project"), QStringLiteral("info"),
                      hostilePath(QStringLiteral("control-characters.bsproj"))},
          QStringList{QStringLiteral("inspect"),
                      hostilePath(QStringLiteral("control-characters.bsproj"))}}) {
        const CliRun run = runCli(args);
        const QByteArray all = run.out + run.err;
        QVERIFY2(!all.contains('\x1b') && !all.contains('\x07') && !all.contains("\xc2\x9b"),
                 all.constData());
    }
    const CliRun info = runCli({QStringLiteral("project"), QStringLiteral("info"),
                                hostilePath(QStringLiteral("control-characters.bsproj"))});
    QVERIFY2(info.out.contains("T\\u001B]52;c;"), info.out.constData());
    QVERIFY(info.out.contains("S\\u001B[2J"));
}

void TestCli::reportRefusesToOverwriteTheProject()
{
    // Regression: `report P --format html -o P` replaced the project with the report.
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("p.bsproj"));
    QVERIFY(QFile::copy(hostilePath(QStringLiteral("control-characters.bsproj")), project));
    const QByteArray before = bs::test::readFile(project);
    const CliRun run = runCli({QStringLiteral("report"), project, QStringLiteral("--format"),
                               QStringLiteral("html"), QStringLiteral("-o"), project});
    QVERIFY(run.exitCode != 0);
    QVERIFY2(run.err.contains("is the project being reported on"), run.err.constData());
    QCOMPARE(bs::test::readFile(project), before);
}

void TestCli::pdfOfAMegabyteWordIsQuick()
{
    // Regression: a 1 MB unbroken word in a memo field kept the PDF layout busy > 120 s.
    QTemporaryDir dir;
    QFile base(hostilePath(QStringLiteral("region-robust-yes.bsproj")));
    QVERIFY(base.open(QIODevice::ReadOnly));
    QJsonObject project = QJsonDocument::fromJson(base.readAll()).object();
    project[QStringLiteral("region")] = QJsonObject{{QStringLiteral("sla_p99_ms"), 15}};
    project[QStringLiteral("memo")] = QJsonObject{
        {QStringLiteral("fields"),
         QJsonObject{{QStringLiteral("failing_metric"),
                      QJsonObject{{QStringLiteral("text"), QString(1000000, QLatin1Char('x'))},
                                  {QStringLiteral("edited"), true}}}}}};
    const QString path = dir.filePath(QStringLiteral("long.bsproj"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(project).toJson());
    out.close();
    bool finished = false;
    // A draft (no baseline and candidate): --allow-draft writes it; the layout is the test.
    const CliRun run =
        runWithin({QStringLiteral("report"), path, QStringLiteral("-o"),
                   dir.filePath(QStringLiteral("long.pdf")), QStringLiteral("--allow-draft")},
                  60000, &finished);
    QVERIFY2(finished, "the PDF took over 60 s");
    QCOMPARE(run.exitCode, 0);
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
