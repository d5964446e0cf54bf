// Small replayed traces whose every dispatch is computed by hand (times in whole or binary-exact
// seconds, so ties are exact in floating point), plus the energy and utilisation accounting.
#include "simtesthelpers.h"

#include <QtTest>

using namespace bs;

namespace {

/// One expected request: arrival, dispatch, completion (s), batch size and server.
struct Expect
{
    double arrivalS;
    double dispatchS;
    double completionS;
    int batch;
    int server = 0;
};

std::string replayScenario(const std::string& times, const std::string& policy, int requests,
                           const std::string& servers = R"({"count": 1})",
                           const std::string& extra = {})
{
    return R"({"requests": )" + std::to_string(requests) +
           R"(, "warmup_requests": 0, "replications": 1,
        "arrivals": {"kind": "replay", "times_s": )" +
           times + R"(, "loop": false},
        "policy": )" +
           policy + R"(, "servers": )" + servers +
           R"(, "service": {"kind": "linear", "base_ms": 1000, "per_item_ms": 0},
        "output": {"records": true})" +
           extra + "}";
}

} // namespace

class TestSimReplay : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void handComputed_data();
    void handComputed();
    void staticWithoutTimeoutNeverEnds();
    void energyAndUtilisation();
    void replayIsRescaledAndLooped();
    void shortReplayWithoutLoopIsAnError();
};

void TestSimReplay::handComputed_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QList<Expect>>("expected");

    // Dynamic B = 4, T = 2 s, service 1 s. At t = 0 one request waits; the 4th would arrive at
    // 11.5, so the timer decides: d = 0 + 2 = 2, and the request arriving exactly at 2 joins
    // (same-timestamp events first): batch {0, 1, 2}. Then 10, 10.5, 11, 11.5 fill a batch at
    // 11.5, before their timer (12). The lone request at 30 waits for its timer: 32.
    QTest::newRow("timer fires exactly with an arrival; full batch before the timer")
        << QString::fromStdString(replayScenario(
               "[0, 1, 2, 10, 10.5, 11, 11.5, 30]",
               R"({"kind": "dynamic", "max_batch": 4, "max_queue_delay_ms": 2000})", 8))
        << QList<Expect>{{0, 2, 3, 3},          {1, 2, 3, 3},          {2, 2, 3, 3},
                         {10, 11.5, 12.5, 4},   {10.5, 11.5, 12.5, 4}, {11, 11.5, 12.5, 4},
                         {11.5, 11.5, 12.5, 4}, {30, 32, 33, 1}};

    // Greedy (T = 0), B = 8: request 0 runs 0..1. Requests at 0.5, 1 and 1 wait; the server frees
    // at 1 exactly when two arrive, so all three go at 1. The request at 1.5 goes when the server
    // frees at 2; the one at 3 arrives exactly as that batch completes and starts at once.
    QTest::newRow("arrivals tied with a completion")
        << QString::fromStdString(
               replayScenario("[0, 0.5, 1, 1, 1.5, 3]",
                              R"({"kind": "dynamic", "max_batch": 8, "max_queue_delay_ms": 0})", 6))
        << QList<Expect>{{0, 0, 1, 1}, {0.5, 1, 2, 3}, {1, 1, 2, 3},
                         {1, 1, 2, 3}, {1.5, 2, 3, 1}, {3, 3, 4, 1}};

    // Preferred sizes [2, 4], B = 8, T = 10 s: two waiting is a preferred size, so 0 and 0.25 go
    // at 0.25. At 1.25 three wait (0.5, 0.625, 0.75): the largest preferred size that fits is 2.
    // 0.75 is then alone, below every preferred size, until its timer at 10.75.
    QTest::newRow("preferred batch sizes")
        << QString::fromStdString(replayScenario(
               "[0, 0.25, 0.5, 0.625, 0.75, 30]",
               R"({"kind": "dynamic", "max_batch": 8, "max_queue_delay_ms": 10000, "preferred_batch_sizes": [2, 4]})",
               5))
        << QList<Expect>{{0, 0.25, 1.25, 2},
                         {0.25, 0.25, 1.25, 2},
                         {0.5, 1.25, 2.25, 2},
                         {0.625, 1.25, 2.25, 2},
                         {0.75, 10.75, 11.75, 1}};

    // Static batch 3 with a 5 s timeout: full at 2; request 3 (t = 3) goes by timeout at 8.
    QTest::newRow("static batch with timeout")
        << QString::fromStdString(replayScenario(
               "[0, 1, 2, 3]", R"({"kind": "static", "batch": 3, "timeout_ms": 5000})", 4))
        << QList<Expect>{{0, 2, 3, 3}, {1, 2, 3, 3}, {2, 2, 3, 3}, {3, 8, 9, 1}};

    // Two servers, one shared queue, one request per batch: 0 and 0 start at once on servers 0
    // and 1; the third waits until both free at 1 and takes server 0 (free first, lowest index
    // on ties); 0.5 takes server 1 at 1.
    QTest::newRow("shared queue, two servers")
        << QString::fromStdString(replayScenario(
               "[0, 0, 0, 0.5]", R"({"kind": "dynamic", "max_batch": 1})", 4, R"({"count": 2})"))
        << QList<Expect>{{0, 0, 1, 1, 0}, {0, 0, 1, 1, 1}, {0, 1, 2, 1, 0}, {0.5, 1, 2, 1, 1}};

    // Round robin: requests 0, 2 to server 0 and 1, 3 to server 1, each with its own queue.
    QTest::newRow("round robin queues")
        << QString::fromStdString(replayScenario("[0, 0, 0.25, 0.5]",
                                                 R"({"kind": "dynamic", "max_batch": 1})", 4,
                                                 R"({"count": 2, "placement": "round_robin"})"))
        << QList<Expect>{{0, 0, 1, 1, 0}, {0, 0, 1, 1, 1}, {0.25, 1, 2, 1, 0}, {0.5, 1, 2, 1, 1}};

    // Least loaded: request 0 to server 0 (tie, lowest index), request 1 at the same time to
    // server 1 (server 0 holds one); at 0.5 both hold one in service: server 0, which serves it
    // at 1. At 1.25 server 0 is busy (1 in service) and server 1 idle: server 1, at once.
    QTest::newRow("least loaded queues")
        << QString::fromStdString(replayScenario("[0, 0, 0.5, 1.25]",
                                                 R"({"kind": "dynamic", "max_batch": 1})", 4,
                                                 R"({"count": 2, "placement": "least_loaded"})"))
        << QList<Expect>{
               {0, 0, 1, 1, 0}, {0, 0, 1, 1, 1}, {0.5, 1, 2, 1, 0}, {1.25, 1.25, 2.25, 1, 1}};

    // Per-server queues batch independently: B = 2, T = 1 s, round robin over 2 servers.
    // Server 0 gets 0, 0.5 (full at 0.5) and 2 (timer at 3); server 1 gets 0.25 and 1 (full at 1).
    QTest::newRow("round robin with batching")
        << QString::fromStdString(
               replayScenario("[0, 0.25, 0.5, 1, 2]",
                              R"({"kind": "dynamic", "max_batch": 2, "max_queue_delay_ms": 1000})",
                              5, R"({"count": 2, "placement": "round_robin"})"))
        << QList<Expect>{{0, 0.5, 1.5, 2, 0},
                         {0.25, 1, 2, 2, 1},
                         {0.5, 0.5, 1.5, 2, 0},
                         {1, 1, 2, 2, 1},
                         {2, 3, 4, 1, 0}};
}

void TestSimReplay::handComputed()
{
    QFETCH(QString, json);
    QFETCH(QList<Expect>, expected);
    auto result = test::simulateJson(json.toStdString(), 1);
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QVERIFY2(result->stability.stable, result->stability.reason.c_str());
    const auto& records = result->records;
    QCOMPARE(records.size(), std::size_t(expected.size()));
    // Records come in dispatch order; match them to the expectations by request number.
    std::vector<sim::RequestRecord> byIndex(records.size());
    for (const auto& r : records)
        byIndex.at(r.index) = r;
    for (int i = 0; i < expected.size(); ++i) {
        const auto& r = byIndex[std::size_t(i)];
        const auto& e = expected[i];
        const QString where = QStringLiteral("request %1").arg(i);
        QVERIFY2(r.arrivalS == e.arrivalS,
                 qPrintable(where + QStringLiteral(" arrival %1").arg(r.arrivalS)));
        QVERIFY2(r.dispatchS == e.dispatchS,
                 qPrintable(where + QStringLiteral(" dispatched at %1").arg(r.dispatchS)));
        QVERIFY2(r.completionS == e.completionS,
                 qPrintable(where + QStringLiteral(" completed at %1").arg(r.completionS)));
        QVERIFY2(int(r.batchSize) == e.batch,
                 qPrintable(where + QStringLiteral(" in a batch of %1").arg(r.batchSize)));
        QVERIFY2(int(r.server) == e.server,
                 qPrintable(where + QStringLiteral(" on server %1").arg(r.server)));
    }
    // The summary agrees with the records: mean latency and the exact maximum.
    double sum = 0.0;
    double max = 0.0;
    for (const auto& e : expected) {
        sum += e.completionS - e.arrivalS;
        max = std::max(max, e.completionS - e.arrivalS);
    }
    QCOMPARE(result->latency.mean.value, sum / expected.size());
    QCOMPARE(result->latency.max, max);
}

void TestSimReplay::staticWithoutTimeoutNeverEnds()
{
    for (const char* placement : {"shared", "round_robin"}) {
        auto result = test::simulateJson(
            replayScenario("[0, 1, 2, 3]", R"({"kind": "static", "batch": 3})", 4,
                           std::string(R"({"count": 1, "placement": ")") + placement + "\"}"),
            1);
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::Value);
        const QString message = test::describe(result.error());
        QVERIFY2(message.startsWith(QStringLiteral("scenario.policy: ")) &&
                     message.contains(QStringLiteral("can never be dispatched")) &&
                     message.contains(QStringLiteral("set timeout_ms, or loop the replay")),
                 qPrintable(message));
    }
    auto shared = test::simulateJson(
        replayScenario("[0, 1, 2, 3]", R"({"kind": "static", "batch": 3})", 4), 1);
    QCOMPARE(test::describe(shared.error()),
             QStringLiteral("scenario.policy: 1 request(s) can never be dispatched: the replay has "
                            "no more arrivals to fill a batch of 3 and there is no timeout (set "
                            "timeout_ms, or loop the replay)"));
}

void TestSimReplay::energyAndUtilisation()
{
    // The first hand-computed trace with 10 W idle and 100 W busy. The measurement window runs
    // from the first to the last measured arrival, [0, 30]. Busy inside it: [2, 3] and
    // [11.5, 12.5] (the batch at [32, 33] is outside): 2 s, utilisation 2/30. Completions inside:
    // 3 + 4 = 7 requests. Energy 100 * 2 + 10 * 28 = 480 J, mean power 16 W.
    auto result = test::simulateJson(
        replayScenario("[0, 1, 2, 10, 10.5, 11, 11.5, 30]",
                       R"({"kind": "dynamic", "max_batch": 4, "max_queue_delay_ms": 2000})", 8,
                       R"({"count": 1})", R"(, "power": {"idle_w": 10, "busy_w": 100})"),
        1);
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QCOMPARE(result->serverUtilisation.size(), std::size_t(1));
    QCOMPARE(result->serverUtilisation[0].value, 2.0 / 30.0);
    QCOMPARE(result->throughputPerS.value, 7.0 / 30.0);
    QVERIFY(result->energyPerRequestJ && result->meanPowerW);
    QCOMPARE(result->energyPerRequestJ->value, 480.0 / 7.0);
    QCOMPARE(result->meanPowerW->value, 16.0);
    QCOMPARE(result->batchSizeCounts[3], std::uint64_t(1));
    QCOMPARE(result->batchSizeCounts[4], std::uint64_t(1));
    QCOMPARE(result->batchSizeCounts[1], std::uint64_t(1));
    QCOMPARE(result->meanBatchSize.value, 8.0 / 3.0);
    // Queue wait: 2, 1, 0, 1.5, 1, 0.5, 0, 2 -> mean 1 (exact sum), sketch quantiles within 0.4%.
    QCOMPARE(result->queueWait.mean.value, 1.0);
    QVERIFY(std::abs(result->queueWait.max - 2.0) <= 2.0 / 256.0);
    QCOMPARE(result->queueWait.min, 0.0);

    auto noPower = test::simulateJson(
        replayScenario("[0, 1, 2, 3]", R"({"kind": "dynamic", "max_batch": 4})", 4), 1);
    QVERIFY(noPower);
    QVERIFY(!noPower->energyPerRequestJ);
    QVERIFY(resultToJson(*noPower)["energy"].is_null());
}

void TestSimReplay::replayIsRescaledAndLooped()
{
    // Recorded at 1 request/s (4 requests, span 3 s, period 4 s); rescaled to 2 requests/s the
    // times halve and a looped copy starts one mean gap (0.5 s) after the last request.
    auto result = test::simulateJson(R"({"requests": 9, "warmup_requests": 0, "replications": 1,
        "arrivals": {"kind": "replay", "times_s": [5, 6, 7, 8], "rate_per_s": 2},
        "policy": {"kind": "dynamic", "max_batch": 1},
        "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0},
        "output": {"records": true}})",
                                     1);
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    const std::vector<double> expected = {0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4};
    QCOMPARE(result->records.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
        QCOMPARE(result->records[i].arrivalS, expected[i]);
    QCOMPARE(result->stability.offeredRatePerS, 2.0);
}

void TestSimReplay::shortReplayWithoutLoopIsAnError()
{
    auto result = test::simulateJson(
        replayScenario("[0, 1, 2, 3]", R"({"kind": "dynamic", "max_batch": 4})", 10), 1);
    QVERIFY(!result);
    QCOMPARE(test::describe(result.error()),
             QStringLiteral("scenario.requests: the replay holds 4 requests but warmup_requests + "
                            "requests = 10; set \"loop\": true or ask for fewer requests"));
}

QTEST_APPLESS_MAIN(TestSimReplay)
#include "tst_simreplay.moc"
