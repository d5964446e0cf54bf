// `batchscope-cli report` gates drafts: a report whose step-1 blocker is not accepted with a
// reason is written, marked DRAFT, and exits 3 unless --allow-draft; the demo is final.

#include "clirun.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using bs::test::CliRun;
using bs::test::runCli;

QString demoPath()
{
    return bs::test::sourceDir() + QStringLiteral("/resources/demo/demo.bsproj");
}

/// The demo with its playbook section replaced (small simulations keep the test quick), and an
/// LLM server when `llm` is not empty.
QString demoWithPlaybook(const QTemporaryDir& dir, QJsonObject playbook, QJsonObject llm = {})
{
    QFile in(demoPath());
    if (!in.open(QIODevice::ReadOnly))
        qFatal("cannot read the demo project");
    QJsonObject project = QJsonDocument::fromJson(in.readAll()).object();
    playbook.insert(QStringLiteral("version"), 1);
    playbook.insert(QStringLiteral("options"),
                    QJsonObject{{QStringLiteral("max_simulated_requests"), 2000},
                                {QStringLiteral("min_replications"), 3}});
    project.insert(QStringLiteral("playbook"), playbook);
    if (!llm.isEmpty())
        project.insert(QStringLiteral("llm"), llm);
    const QString path = dir.filePath(QStringLiteral("demo-copy.bsproj"));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(project).toJson()) < 0)
        qFatal("cannot write the demo copy");
    return path;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// An LLM server replaying the requests of tests/data/llm_playbook/baseline, named relative to
/// the project file, on a 2 x 2 grid of engine knobs (one step: 5 ms + 0.04 ms per prefill
/// token + 0.5 ms per decoding sequence).
QJsonObject llmServer()
{
    constexpr char kSpec[] = R"({"kind": "batchscope.llmregion.spec",
 "scenario": {"kind": "llm", "seed": 7, "replications": 1,
   "engine": {"policy": "vllm_v1", "max_num_seqs": 16, "max_num_batched_tokens": 1024,
              "enable_chunked_prefill": true, "block_size": 16, "num_gpu_blocks": 8192},
   "step": {"kind": "linear", "base_ms": 5, "per_prefill_token_ms": 0.04,
            "per_decode_seq_ms": 0.5},
   "arrivals": {"kind": "replay", "file": "requests.jsonl"}},
 "axes": {"max_num_seqs": [4, 16], "max_num_batched_tokens": [512, 2048]},
 "limits": {"ttft_p99_ms": 100000, "tpot_p99_ms": 1000},
 "objective": "max-output-tokens"})";
    return QJsonDocument::fromJson(kSpec).object();
}

} // namespace

class TestCliReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void unacceptedBlockerIsADraftAndExitsNonZero();
    void allowDraftExitsZeroAndSaysDraft();
    void demoReportIsFinal();
    void pdfWritesTheFilesItTellsTheReaderToRun();
    void llmServerReportCarriesTheLlmCurvePack();
    void llmDemoFromTheCliIsAFinalReview();
    void demoCommandRefusesWhatItCannotDo();
};

void TestCliReport::unacceptedBlockerIsADraftAndExitsNonZero()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // Without the demo's recorded acceptance the 250 W power limit is an unaccepted blocker.
    const QString project = demoWithPlaybook(dir, {});
    const QString md = dir.filePath(QStringLiteral("review.md"));
    const CliRun run = runCli({QStringLiteral("report"), project, QStringLiteral("-o"), md});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains("review.md is a DRAFT: DRAFT: not for sign-off. the playbook does "
                              "not conclude, because step 1 has item(s) not accepted with a "
                              "reason: power_limit_w differs"),
             run.err.constData());
    QVERIFY(run.err.contains("--allow-draft"));
    // The draft is still written, and marked.
    const QByteArray text = readAll(md);
    QVERIFY(text.startsWith("# DRAFT — Accelerator review"));
    QVERIFY(text.contains("> **DRAFT: not for sign-off."));
}

void TestCliReport::allowDraftExitsZeroAndSaysDraft()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = demoWithPlaybook(dir, {});
    const QString json = dir.filePath(QStringLiteral("review.json"));
    const CliRun run = runCli({QStringLiteral("report"), project, QStringLiteral("-o"), json,
                               QStringLiteral("--allow-draft"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject outcome = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(outcome.value(QStringLiteral("draft")).toBool(), true);
    const QJsonObject report = QJsonDocument::fromJson(readAll(json)).object();
    QCOMPARE(report.value(QStringLiteral("draft")).toBool(), true);
    QVERIFY(!report.value(QStringLiteral("draft_reasons")).toArray().isEmpty());
}

void TestCliReport::demoReportIsFinal()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString md = dir.filePath(QStringLiteral("demo.md"));
    const CliRun run = runCli({QStringLiteral("report"), demoPath(), QStringLiteral("-o"), md});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(!run.out.contains("DRAFT"));
    QVERIFY(run.out.contains("step 1 [ok]"));
    QVERIFY(readAll(md).startsWith("# Accelerator review"));
}

void TestCliReport::pdfWritesTheFilesItTellsTheReaderToRun()
{
    // The PDF says "batchscope-cli simulate paper-reproducer.json": the file is beside it, as
    // it is beside a Markdown report.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString pdf = dir.filePath(QStringLiteral("paper.pdf"));
    const CliRun run = runCli({QStringLiteral("report"), demoPath(), QStringLiteral("-o"), pdf});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(readAll(pdf).startsWith("%PDF-"));
    const QJsonObject reproducer =
        QJsonDocument::fromJson(readAll(dir.filePath(QStringLiteral("paper-reproducer.json"))))
            .object();
    QCOMPARE(reproducer.value(QStringLiteral("seed")).toInteger(), 20261202);
    for (const char* file : {"paper-fix.json", "paper-cells.csv", "paper-capacity.csv"})
        QVERIFY2(QFile::exists(dir.filePath(QLatin1String(file))), file);
}

void TestCliReport::llmServerReportCarriesTheLlmCurvePack()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(
        QFile::copy(bs::test::testDataPath(QStringLiteral("llm_playbook/baseline/requests.jsonl")),
                    dir.filePath(QStringLiteral("requests.jsonl"))));
    const QString project = demoWithPlaybook(dir, {}, llmServer());
    const QString pdf = dir.filePath(QStringLiteral("server.pdf"));
    const CliRun run = runCli({QStringLiteral("report"), project, QStringLiteral("-o"), pdf,
                               QStringLiteral("--allow-draft")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    for (const char* file : {"server-llm-region.json", "server-llm-cells.csv",
                             "server-llm-pareto.csv", "server-llm-recommendation.json"})
        QVERIFY2(QFile::exists(dir.filePath(QLatin1String(file))), file);
    QVERIFY(
        readAll(dir.filePath(QStringLiteral("server-llm-cells.csv")))
            .startsWith(
                "index,tensor_parallel,power_cap_w,replicas,gpu_memory_utilization,max_num_seqs"));
    // The replay named relative to the project resolves beside it, and the reproducer names
    // it absolutely.
    const QJsonObject scenario =
        QJsonDocument::fromJson(
            readAll(dir.filePath(QStringLiteral("server-llm-recommended-scenario.json"))))
            .object();
    QCOMPARE(scenario.value(QStringLiteral("arrivals"))
                 .toObject()
                 .value(QStringLiteral("file"))
                 .toString(),
             QFileInfo(dir.filePath(QStringLiteral("requests.jsonl"))).absoluteFilePath());
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
        QSKIP("pdftotext (poppler-utils) is not installed: the PDF's text was NOT checked");
    QProcess text;
    text.start(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
    QVERIFY(text.waitForFinished(30000));
    const QByteArray words = text.readAllStandardOutput();
    QVERIFY(words.contains("LLM curve pack"));
    // (pdftotext writes "fi" as a ligature: "configuration" is left out.)
    QVERIFY(words.contains("Headroom of the recommended"));
}

void TestCliReport::llmDemoFromTheCliIsAFinalReview()
{
    // `demo llm` builds the LLM demo as the workbench opens it (the review's two runs simulated
    // beside the project), so its report concludes without --allow-draft.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("llm"));
    const CliRun demo =
        runCli({QStringLiteral("demo"), QStringLiteral("llm"), QStringLiteral("-o"), folder});
    QVERIFY2(demo.exitCode == 0, demo.err.constData());
    const QString project = folder + QStringLiteral("/llm-demo.bsproj");
    QVERIFY2(demo.out.contains(QString(QStringLiteral("Wrote ") + project).toUtf8()),
             demo.out.constData());
    QVERIFY(demo.out.contains("simulated"));
    const QString runs = folder + QStringLiteral("/llm-demo-runs");
    QVERIFY(!QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty());

    const QString md = dir.filePath(QStringLiteral("llm-review.md"));
    const CliRun report = runCli({QStringLiteral("report"), project, QStringLiteral("-o"), md});
    QVERIFY2(report.exitCode == 0, report.err.constData());
    QVERIFY(!report.out.contains("DRAFT"));
    const QByteArray text = readAll(md);
    QVERIFY(text.startsWith("# Accelerator review: Demo: Llama-3.1-8B"));
    QVERIFY(text.contains("LLM curve pack"));
    QVERIFY(text.contains("simulated: token budget 2048"));
    QVERIFY(text.contains("simulated: token budget 8192"));
    // The runs are marked simulated wherever they are listed.
    QVERIFY(text.contains("simulated (BatchScope LLM simulator)"));

    // The batching demo is written as shipped (its runs are stored in the project).
    const CliRun batch = runCli({QStringLiteral("demo"), QStringLiteral("batch"),
                                 QStringLiteral("--output"), dir.filePath(QStringLiteral("b"))});
    QVERIFY2(batch.exitCode == 0, batch.err.constData());
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("b/demo.bsproj"))));
}

void TestCliReport::demoCommandRefusesWhatItCannotDo()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const CliRun unknown =
        runCli({QStringLiteral("demo"), QStringLiteral("gpu"), QStringLiteral("-o"), dir.path()});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("usage: batchscope-cli demo batch|llm -o DIR"),
             unknown.err.constData());
    const CliRun noFolder = runCli({QStringLiteral("demo"), QStringLiteral("llm")});
    QCOMPARE(noFolder.exitCode, 2);
    // A folder that cannot be made: a file is in the way.
    QFile blocker(dir.filePath(QStringLiteral("file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const QString inside = dir.filePath(QStringLiteral("file/demo"));
    const CliRun blocked =
        runCli({QStringLiteral("demo"), QStringLiteral("llm"), QStringLiteral("-o"), inside});
    QCOMPARE(blocked.exitCode, 1);
    QVERIFY2(blocked.err.contains(inside.toUtf8()) && blocked.err.contains("cannot create"),
             blocked.err.constData());
}

QTEST_GUILESS_MAIN(TestCliReport)
#include "tst_clireport.moc"
