// Issue 17, item 4: `fit --reader-options` is read exactly as `inspect` reads it (one parser),
// and `inspect` shows the latency unit cross-check's warning.
#include "clirun.h"
#include "testsupport.h"

#include <QtTest>

using namespace bs::test;

namespace {

QString unitlessFixture()
{
    return testDataPath(QStringLiteral("generic_csv/sweep_unitless_ms.csv"));
}

} // namespace

class TestCliReaderOptions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void inspectShowsTheUnitWarning()
    {
        const CliRun run = runCli({QStringLiteral("inspect"), unitlessFixture()});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("  warning       sweep_unitless_ms.csv: batch ÷ throughput = "
                                  "2.13 ms at batch 1 while \"Avg Latency\" read as 2.128 s (its "
                                  "header gives no unit): read as ms\n"),
                 run.out.constData());
    }

    void fitReadsTheCorrectedUnit()
    {
        const CliRun run = runCli({QStringLiteral("fit"), unitlessFixture(),
                                   QStringLiteral("--service-time"), QStringLiteral("mean")});
        QCOMPARE(run.exitCode, 0);
        // t(1) = 2.128 ms, as batch ÷ throughput says, not 2.128 s.
        QVERIFY2(run.out.contains("2.128 ms"), run.out.constData());
        QVERIFY2(!run.out.contains("2.128 s"), run.out.constData());
    }

    void fitTakesAJsonMapping()
    {
        // The user states seconds: the reader keeps the user's word.
        const QString mapping = QStringLiteral(
            R"({"columns": {"batch_size": {"column": "Batch"}, "throughput": {"column": )"
            R"("Throughput"}, "latency_mean": {"column": "Avg Latency", "unit": "s"}}})");
        const CliRun run =
            runCli({QStringLiteral("fit"), unitlessFixture(), QStringLiteral("--service-time"),
                    QStringLiteral("mean"), QStringLiteral("--reader-options"), mapping});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("2.128 s"), run.out.constData());
    }

    void keyValuePairsReachTheReader()
    {
        const QString perfAnalyzer = testDataPath(QStringLiteral("perf_analyzer/concurrency.csv"));
        const CliRun plain = runCli({QStringLiteral("inspect"), perfAnalyzer});
        QCOMPARE(plain.exitCode, 0);
        QVERIFY(plain.out.contains("no \"Batch\" column"));
        const CliRun given =
            runCli({QStringLiteral("inspect"), perfAnalyzer, QStringLiteral("--reader-options"),
                    QStringLiteral("batch_size=8")});
        QCOMPARE(given.exitCode, 0);
        QVERIFY2(!given.out.contains("no \"Batch\" column"), given.out.constData());
        // fit hands the same pairs to the same reader: the sweep CSV reader refuses the key.
        const CliRun fit =
            runCli({QStringLiteral("fit"), unitlessFixture(), QStringLiteral("--reader-options"),
                    QStringLiteral("batch_size=8")});
        QCOMPARE(fit.exitCode, 1);
        QVERIFY2(fit.err.contains("reader_options: unknown key \"batch_size\""),
                 fit.err.constData());
    }

    void bothCommandsRefuseTheSameWords_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a pair") << QStringLiteral("oops")
                                    << QStringLiteral("--reader-options: 'oops' is not "
                                                      "KEY=VALUE");
        QTest::newRow("key twice") << QStringLiteral("a=1,a=2")
                                   << QStringLiteral("--reader-options: the key 'a' is given "
                                                     "twice");
        QTest::newRow("bad JSON") << QStringLiteral("{\"a\": ")
                                  << QStringLiteral("--reader-options: not valid JSON");
        QTest::newRow("JSON array")
            << QStringLiteral("[1]") << QStringLiteral("--reader-options: must be a JSON object");
    }

    void bothCommandsRefuseTheSameWords()
    {
        QFETCH(QString, options);
        QFETCH(QString, message);
        for (const QString& command : {QStringLiteral("inspect"), QStringLiteral("fit")}) {
            const CliRun run =
                runCli({command, unitlessFixture(), QStringLiteral("--reader-options"), options});
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(QString::fromUtf8(run.err).contains(message),
                     qPrintable(command + QStringLiteral(": ") + QString::fromUtf8(run.err)));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliReaderOptions)
#include "tst_cli_readeroptions.moc"
