// The limits that protect a user's machine from the command line: Ctrl+C ends a long
// `simulate` or `region` within 0.1 s and leaves no half-written output (every output is
// written atomically at the end), and a region grid of 1,000,001 cells is refused before any
// simulation starts.
#include "clirun.h"
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using bs::test::CliRun;
using bs::test::runCli;

namespace {

constexpr qint64 kInterruptDeadlineMs = 100;

QString commaList(int count)
{
    QStringList values;
    for (int i = 1; i <= count; ++i)
        values << QString::number(i);
    return values.join(QLatin1Char(','));
}

/// Starts the CLI, lets it work for `runningMs`, sends SIGINT and returns how long it took to
/// end (-1: it did not end within 5 s).
qint64 msToEndAfterInterrupt(const QStringList& args, int runningMs, QProcess& process)
{
    process.start(QStringLiteral(BATCHSCOPE_CLI_PATH), args);
    if (!process.waitForStarted(10000))
        return -1;
    QTest::qWait(runningMs);
    if (process.state() != QProcess::Running)
        return -2; // ended by itself: the scenario was not long enough for the test
    QElapsedTimer timer;
    timer.start();
    ::kill(pid_t(process.processId()), SIGINT);
    if (!process.waitForFinished(5000))
        return -1;
    return timer.elapsed();
}

} // namespace

class TestCliLimits : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_scenario;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_scenario = m_dir.filePath(QStringLiteral("long.json"));
        QFile file(m_scenario);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bs::test::poissonTableScenario(1000000000, 1)); // hours of simulation
    }

    void ctrlCEndsALongSimulationWithinATenthOfASecond()
    {
        QProcess process;
        const qint64 ms = msToEndAfterInterrupt(
            {QStringLiteral("simulate"), m_scenario, QStringLiteral("--json")}, 1500, process);
        QVERIFY2(ms >= 0, ms == -2 ? "ended by itself" : "did not end after SIGINT");
        QVERIFY2(ms <= kInterruptDeadlineMs, QByteArray::number(ms).constData());
        QCOMPARE(process.exitStatus(), QProcess::CrashExit); // ended by the signal, not finished
        QVERIFY(process.readAllStandardOutput().isEmpty());  // no partial result printed
    }

    void ctrlCEndsARegionRunWithinATenthOfASecondAndWritesNoPack()
    {
        const QString pack = m_dir.filePath(QStringLiteral("pack"));
        QProcess process;
        const qint64 ms = msToEndAfterInterrupt(
            {QStringLiteral("region"), m_scenario, QStringLiteral("--max-batch"),
             QStringLiteral("1,8,32"), QStringLiteral("--max-delay-ms"), QStringLiteral("0,1"),
             QStringLiteral("--sla-p99-ms"), QStringLiteral("10"), QStringLiteral("--threads"),
             QStringLiteral("2"), QStringLiteral("--out"), pack},
            1500, process);
        QVERIFY2(ms >= 0, ms == -2 ? "ended by itself" : "did not end after SIGINT");
        QVERIFY2(ms <= kInterruptDeadlineMs, QByteArray::number(ms).constData());
        // The pack is written at the end, atomically: nothing, or no half of it, is there.
        const QStringList written = QDir(pack).entryList(QDir::Files | QDir::Hidden);
        QVERIFY2(written.isEmpty(), qPrintable(written.join(QLatin1Char(' '))));
    }

    void aGridOfAMillionAndOneCellsIsRefusedAtOnce()
    {
        // 101 x 9901 = 1,000,001 cells: one over the limit.
        QElapsedTimer timer;
        timer.start();
        const CliRun run =
            runCli({QStringLiteral("region"), m_scenario, QStringLiteral("--max-batch"),
                    commaList(101), QStringLiteral("--rate-per-s"), commaList(9901),
                    QStringLiteral("--sla-p99-ms"), QStringLiteral("10")},
                   10000);
        QVERIFY(run.finished && !run.crashed);
        QVERIFY2(run.exitCode != 0, run.err.constData());
        QVERIFY2(run.err.contains("more than 1000000 cells"), run.err.constData());
        QVERIFY2(timer.elapsed() < 5000, QByteArray::number(timer.elapsed()).constData());
    }
};

QTEST_GUILESS_MAIN(TestCliLimits)
#include "tst_clilimits.moc"
