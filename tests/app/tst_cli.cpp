#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

namespace {

struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

CliRun runCli(const QStringList& args)
{
    QProcess process;
    process.start(QStringLiteral(BATCHSCOPE_CLI_PATH), args);
    process.waitForFinished(120000);
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
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
    void errorsGoToStderrWithExitCodes_data();
    void errorsGoToStderrWithExitCodes();
    void analyzePrintsOneWholeTraceRow();
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

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
