#include "util/progress.h"
#include "util/threadpool.h"

#include <QtTest>

#include <atomic>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#if defined(__linux__)
#include <sys/resource.h>
#endif

using namespace bs;

namespace {

/// A per-index computation whose randomness comes from the index, as parallelFor requires.
std::vector<double> simulateSlots(std::size_t threads, std::size_t slots)
{
    ThreadPool pool(threads);
    std::vector<double> out(slots);
    pool.parallelFor(slots, [&](std::size_t i) {
        std::mt19937_64 random(1000 + i);
        std::exponential_distribution<double> draw(1.0 + double(i % 7));
        double sum = 0.0;
        for (int k = 0; k < 2000; ++k)
            sum += draw(random);
        out[i] = sum;
    });
    return out;
}

} // namespace

class TestThreadPool : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void resultsDoNotDependOnThreadCount();
    void everyIndexRunsExactlyOnce();
    void nestedLoopsRunInline();
    void lowestFailingIndexIsRethrown();
    void cancelStopsHandingOutWork();
    void progressIsThrottled();
    void backgroundWorkersRunAtLowerPriority();
};

void TestThreadPool::backgroundWorkersRunAtLowerPriority()
{
#if defined(__linux__)
    // The workbench's simulating threads yield to the GUI thread: a background pool's workers
    // run at a higher nice value than the thread that made the pool; the caller keeps its own.
    const int callerNice = getpriority(PRIO_PROCESS, 0);
    if (callerNice >= 19)
        QSKIP("already at the lowest priority");
    std::mutex mutex;
    std::set<int> workerNice;
    const std::thread::id caller = std::this_thread::get_id();
    for (auto priority : {ThreadPool::Priority::Normal, ThreadPool::Priority::Background}) {
        ThreadPool pool(3, priority);
        workerNice.clear();
        // Enough slow indices that the two workers take some of them.
        pool.parallelFor(64, [&](std::size_t) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            if (std::this_thread::get_id() == caller) {
                QCOMPARE(getpriority(PRIO_PROCESS, 0), callerNice);
                return;
            }
            std::lock_guard lock(mutex);
            workerNice.insert(getpriority(PRIO_PROCESS, 0));
        });
        QVERIFY(!workerNice.empty());
        const int expected =
            priority == ThreadPool::Priority::Normal ? callerNice : std::min(19, callerNice + 10);
        QCOMPARE(workerNice, std::set<int>{expected});
    }
#else
    QSKIP("thread priorities are lowered on Linux only");
#endif
}

void TestThreadPool::resultsDoNotDependOnThreadCount()
{
    const auto one = simulateSlots(1, 257);
    const auto two = simulateSlots(2, 257);
    const auto eight = simulateSlots(8, 257);
    QVERIFY(one == two);
    QVERIFY(one == eight);
    // Reduced in index order by the caller: bit-identical sums.
    double s1 = 0, s8 = 0;
    for (std::size_t i = 0; i < one.size(); ++i) {
        s1 += one[i];
        s8 += eight[i];
    }
    QCOMPARE(s1, s8);
}

void TestThreadPool::everyIndexRunsExactlyOnce()
{
    ThreadPool pool(4);
    std::vector<std::atomic<int>> hits(10007);
    pool.parallelFor(hits.size(), [&](std::size_t i) { hits[i].fetch_add(1); });
    for (const auto& h : hits)
        QCOMPARE(h.load(), 1);
    pool.parallelFor(0, [&](std::size_t) { QFAIL("no work for n = 0"); });
}

void TestThreadPool::nestedLoopsRunInline()
{
    ThreadPool pool(2);
    std::vector<int> grid(16 * 16, 0);
    pool.parallelFor(16, [&](std::size_t row) {
        pool.parallelFor(16, [&](std::size_t col) { grid[row * 16 + col] = int(row * col); });
    });
    for (std::size_t r = 0; r < 16; ++r)
        for (std::size_t c = 0; c < 16; ++c)
            QCOMPARE(grid[r * 16 + c], int(r * c));
}

void TestThreadPool::lowestFailingIndexIsRethrown()
{
    ThreadPool pool(4);
    try {
        pool.parallelFor(100, [](std::size_t i) {
            if (i == 17 || i == 60)
                throw std::runtime_error("index " + std::to_string(i));
        });
        QFAIL("no exception");
    } catch (const std::runtime_error& e) {
        QCOMPARE(QString::fromLatin1(e.what()), QStringLiteral("index 17"));
    }
}

void TestThreadPool::cancelStopsHandingOutWork()
{
    ThreadPool pool(2);
    CancelToken cancel;
    std::atomic<int> ran{0};
    pool.parallelFor(
        100000,
        [&](std::size_t) {
            if (ran.fetch_add(1) == 10)
                cancel.cancel();
        },
        cancel);
    QVERIFY(ran.load() < 1000);
}

void TestThreadPool::progressIsThrottled()
{
    std::vector<ProgressUpdate> seen;
    Progress progress([&](const ProgressUpdate& u) { seen.push_back(u); },
                      std::chrono::milliseconds(50));
    progress.setPhase("parsing", 1000000);
    for (std::uint64_t i = 0; i < 1000000; ++i)
        progress.advanceTo(i);
    progress.finish();
    // setPhase + finish, plus at most a few time-based reports in a loop this short.
    QVERIFY2(seen.size() < 50, qPrintable(QString::number(seen.size())));
    QCOMPARE(seen.front().phase, std::string("parsing"));
    QCOMPARE(seen.back().done, std::uint64_t(1000000));
}

QTEST_APPLESS_MAIN(TestThreadPool)
#include "tst_threadpool.moc"
