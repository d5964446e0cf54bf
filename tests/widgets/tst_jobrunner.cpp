#include "jobs/jobrunner.h"

#include <QtTest>

#include <thread>

#if defined(__linux__)
#include <sys/resource.h>
#endif

using namespace bs;
using namespace bs::widgets;

class TestJobRunner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void resultArrivesOnTheGuiThread();
    void newestJobWinsWithinALane();
    void lanesAreIndependent();
    void cancelDropsTheResult();
    void progressIsReportedWithEta();
    void jobsLeaveQtsGlobalPoolToThePainter();
};

void TestJobRunner::resultArrivesOnTheGuiThread()
{
    JobRunner runner;
    QThread* guiThread = QThread::currentThread();
    std::optional<int> got;
    QThread* deliveredOn = nullptr;
    runner.run<int>(
        QStringLiteral("sim"), QStringLiteral("Simulate"),
        [guiThread](JobRunner::Context&) {
            return QThread::currentThread() == guiThread ? -1 : 42;
        },
        [&](int value) {
            got = value;
            deliveredOn = QThread::currentThread();
        });
    QTRY_VERIFY(got.has_value());
    QCOMPARE(*got, 42);
    QCOMPARE(deliveredOn, guiThread);
}

void TestJobRunner::newestJobWinsWithinALane()
{
    JobRunner runner;
    QList<int> delivered;
    std::atomic<bool> firstSawCancel{false};
    runner.run<int>(
        QStringLiteral("sim"), QStringLiteral("old"),
        [&](JobRunner::Context& context) {
            while (!context.cancel.isCancelled())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            firstSawCancel = true;
            return 1;
        },
        [&](int v) { delivered.append(v); });
    runner.run<int>(
        QStringLiteral("sim"), QStringLiteral("new"), [](JobRunner::Context&) { return 2; },
        [&](int v) { delivered.append(v); });
    QVERIFY(runner.waitForIdle(5000));
    QTRY_VERIFY(firstSawCancel.load());
    QCOMPARE(delivered, QList<int>({2}));
}

void TestJobRunner::lanesAreIndependent()
{
    JobRunner runner;
    QList<QString> delivered;
    runner.run<QString>(
        QStringLiteral("import"), QStringLiteral("Import"),
        [](JobRunner::Context&) { return QStringLiteral("import"); },
        [&](QString v) { delivered.append(v); });
    runner.run<QString>(
        QStringLiteral("sim"), QStringLiteral("Simulate"),
        [](JobRunner::Context&) { return QStringLiteral("sim"); },
        [&](QString v) { delivered.append(v); });
    QVERIFY(runner.waitForIdle(5000));
    QTRY_COMPARE(delivered.size(), 2);
    QVERIFY(delivered.contains(QStringLiteral("import")) &&
            delivered.contains(QStringLiteral("sim")));
}

void TestJobRunner::cancelDropsTheResult()
{
    JobRunner runner;
    QSignalSpy ended(&runner, &JobRunner::jobEnded);
    bool delivered = false;
    runner.run<int>(
        QStringLiteral("region"), QStringLiteral("Region"),
        [](JobRunner::Context& context) {
            for (int i = 0; i < 5000 && !context.cancel.isCancelled(); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return 7;
        },
        [&](int) { delivered = true; });
    QVERIFY(runner.isRunning(QStringLiteral("region")));
    runner.cancel(QStringLiteral("region"));
    QTRY_COMPARE(ended.count(), 1);
    QCOMPARE(ended.at(0).at(1).toBool(), true);
    QVERIFY(!delivered);
    QVERIFY(!runner.isRunning(QStringLiteral("region")));
}

void TestJobRunner::progressIsReportedWithEta()
{
    JobRunner runner;
    QList<JobProgress> reports;
    connect(&runner, &JobRunner::jobProgress, this,
            [&](const JobProgress& p) { reports.append(p); });
    runner.run<int>(
        QStringLiteral("import"), QStringLiteral("Import trace"),
        [](JobRunner::Context& context) {
            context.progress.setPhase("reading", 100);
            for (int i = 0; i <= 100; ++i) {
                context.progress.advanceTo(std::uint64_t(i));
                std::this_thread::sleep_for(std::chrono::milliseconds(12));
            }
            context.progress.finish();
            return 0;
        },
        [](int) {});
    QVERIFY(runner.waitForIdle(10000));
    QTRY_VERIFY(!reports.isEmpty());
    // ~1.2 s of work at 10 updates/s: a handful of reports, not one per step.
    QVERIFY2(reports.size() >= 3 && reports.size() <= 30,
             qPrintable(QString::number(reports.size())));
    QCOMPARE(reports.back().phase, QStringLiteral("reading"));
    bool sawEta = false;
    for (const auto& r : reports)
        sawEta = sawEta || r.etaSeconds >= 0;
    QVERIFY(sawEta);
}

void TestJobRunner::jobsLeaveQtsGlobalPoolToThePainter()
{
    // Qt's raster engine paints large fills in chunks on QThreadPool::globalInstance() and the
    // GUI thread waits for them: a job there would hold a repaint until the job ended.
    JobRunner runner;
    struct Seen
    {
        bool onGlobalPool = true;
        int niceRaise = 0;
    };
    std::optional<Seen> seen;
#if defined(__linux__)
    const int guiNice = getpriority(PRIO_PROCESS, 0);
#else
    const int guiNice = 0;
#endif
    runner.run<Seen>(
        QStringLiteral("sim"), QStringLiteral("Simulate"),
        [guiNice](JobRunner::Context&) {
            Seen s;
            s.onGlobalPool = QThreadPool::globalInstance()->contains(QThread::currentThread());
#if defined(__linux__)
            s.niceRaise = getpriority(PRIO_PROCESS, 0) - guiNice;
#endif
            return s;
        },
        [&](Seen s) { seen = s; });
    QTRY_VERIFY(seen.has_value());
    QVERIFY(!seen->onGlobalPool);
#if defined(__linux__)
    // Background priority, so that the GUI thread gets a core first (unless already lowest).
    QVERIFY2(seen->niceRaise > 0 || guiNice >= 19, qPrintable(QString::number(seen->niceRaise)));
#endif
}

QTEST_MAIN(TestJobRunner)
#include "tst_jobrunner.moc"
