// Whole-run behaviour: determinism across thread counts, stability verdicts, streams and
// fairness, the adaptive policy, the time series, progress and cancellation, and the result JSON.
#include "simtesthelpers.h"

#include <QtTest>

#include <cmath>

using namespace bs;

namespace {

const char* kMixed = R"({"seed": 99, "requests": 20000, "warmup_requests": 2000, "replications": 8,
    "streams": [
      {"name": "chat", "weight": 2, "arrivals": {"kind": "mmpp2", "rates_per_s": [300, 1500],
                                                 "mean_dwell_s": [0.5, 0.1]}},
      {"name": "batch", "arrivals": {"kind": "gamma", "rate_per_s": 200, "cv": 3}}],
    "policy": {"kind": "dynamic", "max_batch": 16, "max_queue_delay_ms": 2,
               "preferred_batch_sizes": [4, 8, 16]},
    "servers": {"count": 3},
    "service": {"kind": "table", "batch": [1, 4, 8, 16], "latency_ms": [2, 2.6, 3.4, 5.2],
                "distribution": {"kind": "lognormal", "cv": 0.3}},
    "power": {"idle_w": 40, "busy_w": 250},
    "output": {"records": true}})";

std::string dumped(const Expected<sim::Result>& result)
{
    return result ? sim::resultToJson(*result).dump() + sim::recordsToCsv(*result)
                  : result.error().toString();
}

} // namespace

class TestSimBehaviour : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void identicalForAnyThreadCount_data();
    void identicalForAnyThreadCount();
    void differentSeedsDiffer();
    void overloadIsUnstableNotAHugeP99();
    void queueOutgrowingItsLimitIsUnstable();
    void burstAboveCapacityWarns();
    void runawayAdaptiveQueueIsUnstable();
    void streamsAndFairness();
    void adaptiveCapFollowsTheTarget();
    void timeSeriesCoversTheMeasurement();
    void progressAndCancel();
    void recordsAreLimited();
    void resultJsonShape();
};

void TestSimBehaviour::identicalForAnyThreadCount_data()
{
    QTest::addColumn<QString>("json");
    QTest::newRow("streams, mmpp, preferred sizes, 3 servers") << QString::fromUtf8(kMixed);
    QTest::newRow("random placement, static with timeout, replay with profile")
        << QStringLiteral(R"({"seed": 8, "requests": 5000, "replications": 5,
            "arrivals": {"kind": "replay", "times_s": [0, 0.001, 0.0015, 0.004, 0.0041, 0.009],
                         "rate_per_s": 900,
                         "profile": {"kind": "ramp", "times_s": [0, 3], "multipliers": [0.5, 1.2]}},
            "policy": {"kind": "static", "batch": 4, "timeout_ms": 3},
            "servers": {"count": 3, "placement": "random"},
            "service": {"kind": "exponential", "mean_ms": 2},
            "output": {"records": true}})");
    QTest::newRow("least loaded queues, adaptive")
        << QStringLiteral(R"({"seed": 5, "requests": 20000, "replications": 6,
            "arrivals": {"kind": "poisson", "rate_per_s": 2500},
            "policy": {"kind": "adaptive", "max_batch": 32, "target_p99_ms": 6,
                       "window_requests": 200},
            "servers": {"count": 4, "placement": "least_loaded"},
            "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0.2,
                        "distribution": {"kind": "gamma", "cv": 0.4}},
            "output": {"records": true}})");
}

void TestSimBehaviour::identicalForAnyThreadCount()
{
    QFETCH(QString, json);
    const std::string text = json.toStdString();
    const std::string one = dumped(test::simulateJson(text, 1));
    QVERIFY2(one.rfind("{", 0) == 0, one.c_str());
    QCOMPARE(dumped(test::simulateJson(text, 2)), one);
    QCOMPARE(dumped(test::simulateJson(text, 8)), one);
    QCOMPARE(dumped(test::simulateJson(text, 1)), one); // a second run
}

void TestSimBehaviour::differentSeedsDiffer()
{
    auto a = test::simulateJson(kMixed);
    std::string other = kMixed;
    other.replace(other.find("\"seed\": 99"), 10, "\"seed\": 98");
    auto b = test::simulateJson(other);
    QVERIFY(a && b);
    QVERIFY(a->latency.mean.value != b->latency.mean.value);
    QVERIFY(a->seeds != b->seeds);
    QCOMPARE(a->seeds.size(), std::size_t(8));
}

void TestSimBehaviour::overloadIsUnstableNotAHugeP99()
{
    // 1 server, batches of up to 4 in 2 + 1 * 4 = 6 ms: capacity 666.7 req/s < 700 offered.
    auto result = test::simulateJson(R"({"requests": 100000,
        "arrivals": {"kind": "poisson", "rate_per_s": 700},
        "policy": {"kind": "dynamic", "max_batch": 4, "max_queue_delay_ms": 1},
        "service": {"kind": "linear", "base_ms": 2, "per_item_ms": 1}})");
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QVERIFY(!result->stability.stable);
    QCOMPARE(result->stability.rho, 700.0 / (4.0 / 0.006));
    QCOMPARE(QString::fromStdString(result->stability.reason),
             QStringLiteral("scenario.arrivals.rate_per_s: the offered load of 700 req/s is at "
                            "least the capacity of 666.7 req/s (1 server(s) x batch 4 / 6 ms), "
                            "rho = 1.05; the queue grows without bound, so latency percentiles "
                            "would only measure the length of the run"));
    const auto json = sim::resultToJson(*result);
    QCOMPARE(json["stability"]["state"], "unstable");
    QVERIFY(!json.contains("latency_ms"));
    QVERIFY(std::isnan(result->latency.p99.value));
}

void TestSimBehaviour::queueOutgrowingItsLimitIsUnstable()
{
    // On average stable (rho 0.5) but the high state offers 3x capacity for 2 s at a time: a
    // queue limit of 500 is passed during the first burst.
    auto result = test::simulateJson(R"({"requests": 200000, "replications": 2,
        "max_queue_requests": 500,
        "arrivals": {"kind": "mmpp2", "rates_per_s": [100, 3000], "mean_dwell_s": [20, 2]},
        "policy": {"kind": "dynamic", "max_batch": 1},
        "service": {"kind": "exponential", "mean_ms": 1}})");
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QVERIFY(!result->stability.stable);
    const QString reason = QString::fromStdString(result->stability.reason);
    QVERIFY2(reason.startsWith(QStringLiteral("scenario.max_queue_requests: the queue grew past "
                                              "max_queue_requests (500 waiting) at t = ")),
             qPrintable(reason));
    QVERIFY(!sim::resultToJson(*result).contains("latency_ms"));
}

void TestSimBehaviour::burstAboveCapacityWarns()
{
    auto result = test::simulateJson(R"({"requests": 20000, "replications": 2,
        "arrivals": {"kind": "mmpp2", "rates_per_s": [100, 1500], "mean_dwell_s": [5, 0.05]},
        "policy": {"kind": "dynamic", "max_batch": 1},
        "service": {"kind": "exponential", "mean_ms": 1}})");
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QVERIFY(result->stability.stable);
    QCOMPARE(result->warnings.size(), std::size_t(1));
    QVERIFY(
        QString::fromStdString(result->warnings[0])
            .startsWith(QStringLiteral("scenario.arrivals.rates_per_s: at its peak the arrival "
                                       "rate (1500 req/s) exceeds the capacity of 1000 req/s")));
}

void TestSimBehaviour::runawayAdaptiveQueueIsUnstable()
{
    // Capacity at max_batch 24 (24 / 3.4 ms = 7059 req/s) is ample, so the capacity check
    // passes; but an unreachable p99 target drives the cap to 1 (909 req/s < 1500 offered) and
    // the queue grows all run long. Reported as unstable, not as a p99 of a minute.
    auto result = test::simulateJson(R"({"requests": 200000, "replications": 2,
        "arrivals": {"kind": "poisson", "rate_per_s": 1500},
        "policy": {"kind": "adaptive", "max_batch": 24, "initial_batch": 8, "target_p99_ms": 0.5,
                   "window_requests": 500},
        "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0.1}})");
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QVERIFY(result->stability.rho < 1.0);
    QVERIFY(!result->stability.stable);
    const QString reason = QString::fromStdString(result->stability.reason);
    QVERIFY2(
        reason.startsWith(QStringLiteral("scenario.policy: the queue grew throughout the run (")),
        qPrintable(reason));
    QCOMPARE(result->warnings.size(), std::size_t(1));
    QVERIFY(
        QString::fromStdString(result->warnings[0])
            .startsWith(QStringLiteral("scenario.policy.min_batch: at batch 1 the servers manage "
                                       "only 909.1 req/s, less than the 1500 req/s offered")));
    QVERIFY(!sim::resultToJson(*result).contains("latency_ms"));
}

void TestSimBehaviour::streamsAndFairness()
{
    // Two statistically identical streams sharing one FIFO queue see the same latency (Jain's
    // index near 1); the throughput-per-weight index reflects weights 1 and 3 with equal rates:
    // x = (r, r/3) -> (4/3)^2 / (2 * 10/9) = 0.8.
    auto result = test::simulateJson(R"({"seed": 3, "requests": 100000, "replications": 4,
        "streams": [{"name": "a", "arrivals": {"kind": "poisson", "rate_per_s": 400}},
                    {"name": "b", "weight": 3, "arrivals": {"kind": "poisson", "rate_per_s": 400}}],
        "policy": {"kind": "dynamic", "max_batch": 8, "max_queue_delay_ms": 1},
        "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0.25}})");
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QCOMPARE(result->streams.size(), std::size_t(2));
    QCOMPARE(result->streams[1].name, std::string("b"));
    QCOMPARE(result->streams[0].requests + result->streams[1].requests, std::uint64_t(400000));
    QVERIFY(std::abs(result->streams[0].throughputPerS.value - 400.0) < 10.0);
    QVERIFY(std::abs(result->streams[1].throughputPerS.value - 400.0) < 10.0);
    QVERIFY(result->jainP99.value > 0.999);
    QVERIFY(std::abs(result->jainThroughputPerWeight.value - 0.8) < 0.005);
    QVERIFY(std::abs(result->throughputPerS.value - 800.0) < 15.0);

    // A bursty stream sharing the queue with a smooth one: both wait behind the bursts, the
    // FIFO queue does not isolate tenants, so their p99s stay close.
    auto mixed = test::simulateJson(kMixed);
    QVERIFY(mixed);
    QVERIFY(mixed->jainP99.value > 0.95 && mixed->jainP99.value <= 1.0);
}

void TestSimBehaviour::adaptiveCapFollowsTheTarget()
{
    // Service 1 ms + 0.5 ms per item at 1500 req/s. A lax target lets AIMD grow the cap to
    // max_batch; an impossible one (below the service time of one request) drives it to
    // min_batch. The time series shows the cap in force.
    auto run = [](const char* target) {
        return test::simulateJson(std::string(R"({"requests": 40000, "replications": 1,
            "arrivals": {"kind": "poisson", "rate_per_s": 1500},
            "policy": {"kind": "adaptive", "max_batch": 24, "min_batch": 2, "initial_batch": 8,
                       "target_p99_ms": )") +
                                  target + R"(, "window_requests": 500},
            "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0.5}})");
    };
    auto lax = run("1000");
    auto strict = run("0.5");
    QVERIFY(lax && strict);
    QVERIFY(!lax->timeSeries.batchCapMean.empty());
    QCOMPARE(lax->timeSeries.batchCapMean.back(), 24.0);
    QCOMPARE(strict->timeSeries.batchCapMean.back(), 2.0);
    QVERIFY(strict->latency.p99.value > 0.0005); // the target is indeed missed
    for (std::size_t b = 3; b < strict->batchSizeCounts.size(); ++b) {
        if (b > 8)
            QCOMPARE(strict->batchSizeCounts[b], std::uint64_t(0));
    }
}

void TestSimBehaviour::timeSeriesCoversTheMeasurement()
{
    auto result = test::simulateJson(kMixed);
    QVERIFY(result);
    const auto& t = result->timeSeries;
    QVERIFY(t.startS.size() >= 100 && t.startS.size() <= 400);
    std::uint64_t requests = 0;
    for (std::size_t w = 0; w < t.startS.size(); ++w) {
        requests += t.requests[w];
        if (w > 0)
            QCOMPARE(t.startS[w] - t.startS[w - 1], t.windowS);
        if (t.requests[w] > 0) {
            QVERIFY(t.latencyP50S[w] <= t.latencyP90S[w] && t.latencyP90S[w] <= t.latencyP99S[w]);
            QVERIFY(t.latencyP99S[w] <= result->latency.max);
            QVERIFY(t.meanBatch[w] >= 1.0 && t.meanBatch[w] <= 16.0);
            QVERIFY(double(t.queueDepthMax[w]) >= t.queueDepthMean[w]);
        }
    }
    QCOMPARE(requests, std::uint64_t(20000));

    // A window asked for explicitly is used as given (until there would be over 400 of them).
    std::string json = kMixed;
    json.replace(json.find(R"("output": {"records": true})"), 27, R"("output": {"window_s": 0.5})");
    auto fixed = test::simulateJson(json);
    QVERIFY2(fixed, fixed ? "" : qPrintable(test::describe(fixed.error())));
    QCOMPARE(fixed->timeSeries.windowS, 0.5);

    // Without per-window percentiles (the region analysis) the summary and the rest of the
    // series are unchanged and the series' latency percentiles say "not computed" (NaN).
    auto scenario = test::scenarioFrom(kMixed);
    QVERIFY(scenario);
    sim::SimOptions summaryOnly;
    summaryOnly.threads = 2;
    summaryOnly.seriesLatencyPercentiles = false;
    auto lean = sim::simulate(*scenario, summaryOnly);
    QVERIFY(lean);
    QCOMPARE(lean->latency.p99.value, result->latency.p99.value);
    QCOMPARE(lean->latency.p50.value, result->latency.p50.value);
    QCOMPARE(lean->throughputPerS.value, result->throughputPerS.value);
    QCOMPARE(lean->timeSeries.queueDepthMean, t.queueDepthMean);
    QCOMPARE(lean->timeSeries.latencyP99S.size(), t.startS.size());
    QVERIFY(std::isnan(lean->timeSeries.latencyP50S.front()));
    QVERIFY(std::isnan(lean->timeSeries.latencyP99S.back()));
}

void TestSimBehaviour::progressAndCancel()
{
    auto scenario = test::scenarioFrom(R"({"requests": 400000, "replications": 4,
        "arrivals": {"kind": "poisson", "rate_per_s": 500},
        "policy": {"kind": "dynamic", "max_batch": 4},
        "service": {"kind": "exponential", "mean_ms": 1}})");
    QVERIFY(scenario);
    std::vector<ProgressUpdate> updates;
    Progress progress([&](const ProgressUpdate& u) { updates.push_back(u); },
                      std::chrono::milliseconds(0));
    sim::SimOptions options;
    options.threads = 1;
    auto result = sim::simulate(*scenario, options, progress);
    QVERIFY(result);
    QVERIFY(updates.size() >= 4);
    QCOMPARE(updates.front().phase, std::string("simulating"));
    QCOMPARE(updates.back().total, std::uint64_t(4 * 440000));
    QVERIFY(updates.back().done <= updates.back().total);

    auto cancelled = test::simulateCancelledEarly(*scenario);
    QVERIFY(!cancelled);
    QCOMPARE(cancelled.error().code, ErrorCode::Cancelled);
}

void TestSimBehaviour::resultJsonShape()
{
    auto result = test::simulateJson(kMixed);
    QVERIFY(result);
    const auto json = sim::resultToJson(*result);
    QCOMPARE(json["kind"], "batchscope.sim.result");
    QCOMPARE(json["stability"]["state"], "stable");
    QCOMPARE(json["seeds"].size(), std::size_t(8));
    QVERIFY(json["throughput_per_s"]["value"].is_number());
    QCOMPARE(json["throughput_per_s"]["ci95"].size(), std::size_t(2));
    for (const char* p : {"mean", "p50", "p90", "p95", "p99", "p999"})
        QVERIFY(json["latency_ms"][p]["value"].is_number());
    QCOMPARE(json["latency_ms"]["percentile_method"],
             "exact order statistics, linear interpolation (numpy 'linear')");
    const auto& histogram = json["latency_ms"]["histogram"];
    QCOMPARE(histogram["edges_ms"].size(), histogram["counts"].size() + 1);
    std::uint64_t total = 0;
    for (const auto& c : histogram["counts"])
        total += c.get<std::uint64_t>();
    QCOMPARE(total, std::uint64_t(8 * 20000));
    QCOMPARE(json["batch_size"]["counts_by_size"].size(), std::size_t(16));
    QCOMPARE(json["servers"].size(), std::size_t(3));
    QVERIFY(json["energy"]["per_request_j"]["value"].get<double>() > 0.0);
    QCOMPARE(json["streams"].size(), std::size_t(2));
    QVERIFY(json["fairness"]["jain_p99_latency"]["value"].is_number());
    QCOMPARE(json["records"]["count"], 20000);
    QCOMPARE(json["scenario"]["seed"], 99);
    // Batches with preferred sizes 4, 8, 16 or whatever waited when the 2 ms timer fired.
    const auto& counts = result->batchSizeCounts;
    QVERIFY(counts[4] + counts[8] + counts[16] > 0);

    const std::string csv = sim::recordsToCsv(*result);
    QVERIFY(csv.rfind("index,stream,server,batch_size,arrival_s,dispatch_s,completion_s,"
                      "latency_ms,queue_wait_ms\n",
                      0) == 0);
    QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), std::ptrdiff_t(20001));
}

void TestSimBehaviour::recordsAreLimited()
{
    auto result = test::simulateJson(R"({"requests": 20000000, "output": {"records": true},
        "arrivals": {"kind": "poisson", "rate_per_s": 500},
        "policy": {"kind": "dynamic", "max_batch": 4},
        "service": {"kind": "exponential", "mean_ms": 1}})");
    QVERIFY(!result);
    QCOMPARE(result.error().code, ErrorCode::Limit);
    QCOMPARE(test::describe(result.error()),
             QStringLiteral("scenario.output.records: per-request records are kept for at most "
                            "10000000 requests (48 bytes each), not 20000000; ask for fewer "
                            "requests"));
}

QTEST_APPLESS_MAIN(TestSimBehaviour)
#include "tst_simbehaviour.moc"
