// `batchscope-cli report` gates drafts: a report whose step-1 blocker is not accepted with a
// reason is written, marked DRAFT, and exits 3 unless --allow-draft; the demo is final.

#include "clirun.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using bs::test::CliRun;
using bs::test::runCli;

QString demoPath()
{
    return bs::test::sourceDir() + QStringLiteral("/resources/demo/demo.bsproj");
}

/// The demo with its playbook section replaced (small simulations keep the test quick).
QString demoWithPlaybook(const QTemporaryDir& dir, QJsonObject playbook)
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

} // namespace

class TestCliReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void unacceptedBlockerIsADraftAndExitsNonZero();
    void allowDraftExitsZeroAndSaysDraft();
    void demoReportIsFinal();
    void pdfWritesTheFilesItTellsTheReaderToRun();
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

QTEST_GUILESS_MAIN(TestCliReport)
#include "tst_clireport.moc"
