// Closed-loop arrivals ("kind": "closed_loop": N clients, each sending its next request when the
// previous answer returns, after an optional think time) checked against exact queueing theory
// (Little's law, Mean Value Analysis of the machine-repairman model, deterministic cycles), and
// the copy-in / compute / copy-out stages of a device (servers.pre_compute, post_compute).
#include "analysis/regiongrid.h"
#include "simtesthelpers.h"

#include <QtTest>

#include <cmath>

using namespace bs;

namespace {

/// 5 replications of 200,000 measured requests after 20,000 warm-up: the relative standard
/// error of a mean over 10^6 requests is well under 0.5%, so a 2% tolerance has ample margin
/// and still fails on any systematic error (a lost or double-counted client is 1/N >= 3%).
nlohmann::json closedLoopScenario(int clients, double thinkMs, double serviceMs)
{
    return {
        {"seed", 11},
        {"requests", 200000},
        {"warmup_requests", 20000},
        {"replications", 5},
        {"arrivals", {{"kind", "closed_loop"}, {"concurrency", clients}, {"think_ms", thinkMs}}},
        {"policy", {{"kind", "dynamic"}, {"max_batch", 1}}},
        {"service", {{"kind", "exponential"}, {"mean_ms", serviceMs}}}};
}

sim::Result run(const nlohmann::json& json)
{
    return test::runScenarioJson(json);
}

/// Exact Mean Value Analysis of one FCFS exponential server (rate mu) and a delay station (mean
/// think time Z) with N customers (Reiser and Lavenberg 1980):
/// R(n) = (1 + Q(n-1)) / mu, X(n) = n / (Z + R(n)), Q(n) = X(n) R(n).
struct Mva
{
    double throughputPerS = 0.0;
    double responseS = 0.0;
};

Mva machineRepairman(int clients, double thinkS, double muPerS)
{
    Mva out;
    double queue = 0.0;
    for (int n = 1; n <= clients; ++n) {
        out.responseS = (1.0 + queue) / muPerS;
        out.throughputPerS = double(n) / (thinkS + out.responseS);
        queue = out.throughputPerS * out.responseS;
    }
    return out;
}

bool near(double actual, double expected, double relative)
{
    return std::abs(actual - expected) <= relative * std::abs(expected);
}

QString pair(double actual, double expected)
{
    return QStringLiteral("simulated %1, exact %2").arg(actual).arg(expected);
}

} // namespace

class TestSimClosedLoop : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void withoutThinkTimeTheServerNeverIdles_data()
    {
        QTest::addColumn<int>("clients");
        QTest::newRow("1 client") << 1;
        QTest::newRow("4 clients") << 4;
        QTest::newRow("32 clients") << 32;
    }
    void withoutThinkTimeTheServerNeverIdles()
    {
        // Z = 0: a client is always waiting or in service, so X = mu and, by Little's law,
        // mean latency = N / X = N / mu. mu = 1000/s (mean 1 ms). Tolerance 2% (see above).
        QFETCH(int, clients);
        const auto result = run(closedLoopScenario(clients, 0.0, 1.0));
        const double x = result.throughputPerS.value;
        QVERIFY2(near(x, 1000.0, 0.02), qPrintable(pair(x, 1000.0)));
        const double latencyS = result.latency.mean.value;
        QVERIFY2(near(latencyS, clients / 1000.0, 0.02), qPrintable(pair(latencyS, clients / 1e3)));
    }

    void withThinkTimeMatchesMeanValueAnalysis_data()
    {
        QTest::addColumn<int>("clients");
        QTest::addColumn<double>("thinkMs");
        QTest::newRow("light: 4 clients, Z = 10 ms") << 4 << 10.0;
        QTest::newRow("near the knee: 10 clients, Z = 9 ms") << 10 << 9.0;
        QTest::newRow("saturated: 30 clients, Z = 5 ms") << 30 << 5.0;
    }
    void withThinkTimeMatchesMeanValueAnalysis()
    {
        // Exponential service (1 ms) and exponential think time: the machine-repairman model,
        // whose MVA solution is exact. Tolerance 2% on throughput and on mean latency.
        QFETCH(int, clients);
        QFETCH(double, thinkMs);
        const Mva exact = machineRepairman(clients, thinkMs / 1e3, 1000.0);
        const auto result = run(closedLoopScenario(clients, thinkMs, 1.0));
        const double x = result.throughputPerS.value;
        QVERIFY2(near(x, exact.throughputPerS, 0.02), qPrintable(pair(x, exact.throughputPerS)));
        const double r = result.latency.mean.value;
        QVERIFY2(near(r, exact.responseS, 0.02), qPrintable(pair(r, exact.responseS)));
    }

    void exponentialClientOverheadIsADelayStationInsideTheLatency()
    {
        // An exponential client overhead of mean 5 ms is the machine-repairman delay station
        // too, but the client's latency includes it: X = MVA X, mean latency = MVA R + 5 ms.
        auto json = closedLoopScenario(10, 0.0, 1.0);
        json["arrivals"]["client_overhead_ms"] = 5.0;
        json["arrivals"]["client_overhead_distribution"] = "exponential";
        const Mva exact = machineRepairman(10, 5e-3, 1000.0);
        const auto result = run(json);
        const double x = result.throughputPerS.value;
        QVERIFY2(near(x, exact.throughputPerS, 0.02), qPrintable(pair(x, exact.throughputPerS)));
        const double r = result.latency.mean.value;
        QVERIFY2(near(r, exact.responseS + 5e-3, 0.02),
                 qPrintable(pair(r, exact.responseS + 5e-3)));
    }

    void fixedOverheadAddsToEveryLatency()
    {
        // One client, 2 ms deterministic service, 1 ms fixed overhead plus an exponential part
        // of mean 0.5 ms: every latency is at least 3 ms (the fixed parts exactly), the mean
        // 3.5 ms, and X = 1 / 3.5 ms (a cycle is its latency, no think time).
        auto json = closedLoopScenario(1, 0.0, 1.0);
        json["requests"] = 100000;
        json["arrivals"]["client_overhead_ms"] = 0.5;
        json["arrivals"]["client_overhead_distribution"] = "exponential";
        json["arrivals"]["client_overhead_fixed_ms"] = 1.0;
        json["service"] = {{"kind", "linear"}, {"base_ms", 2.0}, {"per_item_ms", 0.0}};
        const auto result = run(json);
        QVERIFY2(result.latency.min >= 3e-3 - 1e-9 && result.latency.min < 3.01e-3,
                 qPrintable(pair(result.latency.min, 3e-3)));
        QVERIFY2(near(result.latency.mean.value, 3.5e-3, 0.01),
                 qPrintable(pair(result.latency.mean.value, 3.5e-3)));
        QVERIFY(near(result.throughputPerS.value, 1.0 / 3.5e-3, 0.01));
    }

    void deterministicServiceGivesNTimesS()
    {
        // Deterministic 2 ms, no batching, 5 clients: each request waits for the other four,
        // so every latency is exactly N s = 10 ms (to rounding) and X = 1 / s. A 1 ms client
        // overhead is part of the 10 ms cycle: the server stays saturated, the answer the same.
        for (double overheadMs : {0.0, 1.0}) {
            auto json = closedLoopScenario(5, 0.0, 1.0);
            json["requests"] = 20000;
            json["warmup_requests"] = 100;
            json["arrivals"]["client_overhead_ms"] = overheadMs;
            json["service"] = {{"kind", "linear"}, {"base_ms", 2.0}, {"per_item_ms", 0.0}};
            const auto result = run(json);
            QVERIFY2(std::abs(result.latency.min - 10e-3) < 1e-9,
                     qPrintable(pair(result.latency.min, 10e-3)));
            QVERIFY2(std::abs(result.latency.max - 10e-3) < 1e-9,
                     qPrintable(pair(result.latency.max, 10e-3)));
            QVERIFY(near(result.throughputPerS.value, 500.0, 1e-3));
        }
    }

    void allClientsFitOneBatch()
    {
        // Dynamic batching with max_batch >= N: the N requests answered together return
        // together and form the next batch, so every latency is s(N) = 1 + 0.5 N ms exactly and
        // X = N / s(N).
        auto json = closedLoopScenario(8, 0.0, 1.0);
        json["requests"] = 20000;
        json["policy"]["max_batch"] = 16;
        json["service"] = {{"kind", "linear"}, {"base_ms", 1.0}, {"per_item_ms", 0.5}};
        const auto result = run(json);
        QVERIFY(std::abs(result.latency.max - 5e-3) < 1e-9);
        QVERIFY(std::abs(result.latency.min - 5e-3) < 1e-9);
        QVERIFY(near(result.throughputPerS.value, 8 / 5e-3, 1e-3));
        QVERIFY(near(result.meanBatchSize.value, 8.0, 1e-9));
    }

    void copyStagesPipelineAcrossBatches()
    {
        // 1 ms copy-in, 1 ms compute (exponential), 1 ms copy-out; 40 clients keep the device
        // busy. One stream runs the stages in series: X = 1 / 3 ms exactly on average. Three
        // streams overlap one batch's copies with the others' compute: X can approach the
        // compute bound of 1000/s and must at least clearly exceed the serial rate.
        auto json = closedLoopScenario(40, 0.0, 1.0);
        json["servers"] = {{"count", 1},
                           {"streams", 1},
                           {"pre_compute", {{"base_ms", 1.0}}},
                           {"post_compute", {{"base_ms", 1.0}}}};
        const double serial = run(json).throughputPerS.value;
        QVERIFY2(near(serial, 1000.0 / 3.0, 0.02), qPrintable(pair(serial, 1000.0 / 3.0)));
        json["servers"]["streams"] = 3;
        const double pipelined = run(json).throughputPerS.value;
        QVERIFY2(
            pipelined > 1.5 * serial && pipelined <= 1000.0 * 1.02,
            qPrintable(QStringLiteral("pipelined %1 req/s, serial %2").arg(pipelined).arg(serial)));
    }

    void aLoneBatchTakesCopyInComputeCopyOut()
    {
        // One client: nothing overlaps, every request takes 0.5 + 0.1 + 2 + 0.25 + 0.2 ms.
        auto json = closedLoopScenario(1, 0.0, 1.0);
        json["requests"] = 2000;
        json["servers"] = {{"streams", 2},
                           {"pre_compute", {{"base_ms", 0.5}, {"per_item_us", 100.0}}},
                           {"post_compute", {{"base_ms", 0.25}, {"per_item_us", 200.0}}}};
        json["service"] = {{"kind", "linear"}, {"base_ms", 2.0}, {"per_item_ms", 0.0}};
        const auto result = run(json);
        QVERIFY2(std::abs(result.latency.max - 3.05e-3) < 1e-9,
                 qPrintable(pair(result.latency.max, 3.05e-3)));
        QVERIFY(std::abs(result.latency.min - 3.05e-3) < 1e-9);
    }

    void jsonRoundTrip()
    {
        auto json = closedLoopScenario(12, 2.5, 1.0);
        json["arrivals"]["client_overhead_ms"] = 0.4;
        json["arrivals"]["client_overhead_distribution"] = "exponential";
        json["arrivals"]["client_overhead_fixed_ms"] = 0.1;
        json["servers"] = {{"count", 2},
                           {"placement", "shared"},
                           {"streams", 2},
                           {"post_compute", {{"base_ms", 0.3}, {"per_item_us", 20.0}}}};
        auto scenario = sim::scenarioFromJson(json, "test");
        QVERIFY(scenario);
        const auto& arrivals = scenario->streams.front().arrivals;
        QCOMPARE(arrivals.concurrency, 12);
        QVERIFY(near(arrivals.thinkS, 2.5e-3, 1e-12));
        QVERIFY(near(arrivals.clientOverheadS, 0.4e-3, 1e-12));
        QVERIFY(arrivals.clientOverheadExponential);
        QVERIFY(near(arrivals.clientOverheadFixedS, 0.1e-3, 1e-12));
        QVERIFY(near(scenario->servers.postComputePerItemS, 20e-6, 1e-12));
        const nlohmann::json written = sim::scenarioToJson(*scenario);
        QCOMPARE(QString::fromStdString(written["arrivals"]["kind"].get<std::string>()),
                 QStringLiteral("closed_loop"));
        auto again = sim::scenarioFromJson(written, "again");
        QVERIFY(again);
        QVERIFY(*again == *scenario);
    }

    void badClosedLoopsNameTheKey_data()
    {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("message");
        QTest::newRow("no clients") << R"({"arrivals": {"kind": "closed_loop", "concurrency": 0}})"
                                    << "scenario.arrivals.concurrency";
        QTest::newRow("negative think")
            << R"({"arrivals": {"kind": "closed_loop", "concurrency": 2, "think_ms": -1}})"
            << "scenario.arrivals.think_ms";
        QTest::newRow("profile") << R"({"arrivals": {"kind": "closed_loop", "concurrency": 2,
                   "profile": {"kind": "diurnal", "amplitude": 0.5}}})"
                                 << "scenario.arrivals.profile: a closed loop has no rate";
        QTest::newRow("adaptive")
            << R"({"policy": {"kind": "adaptive", "max_batch": 4, "target_p99_ms": 5}})"
            << "scenario.policy: the adaptive policy is not simulated with closed_loop";
        QTest::newRow("per-server queues") << R"({"servers": {"count": 2, "placement": "random"}})"
                                           << "scenario.servers: closed_loop arrivals are "
                                              "simulated with one shared queue";
    }
    void badClosedLoopsNameTheKey()
    {
        QFETCH(QString, patch);
        QFETCH(QString, message);
        auto json = closedLoopScenario(4, 0.0, 1.0);
        json.merge_patch(nlohmann::json::parse(patch.toStdString()));
        const std::string error = test::scenarioErrorOf(json);
        QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
        QVERIFY2(error.find("s.json") != std::string::npos, error.c_str());
    }

    void aRegionCannotScaleAClosedLoopsRate()
    {
        // The offered rate of a closed loop is a result, not a parameter: a rate axis over it
        // would change nothing, so it is refused by name.
        analysis::RegionSpec spec;
        auto scenario = sim::scenarioFromJson(closedLoopScenario(4, 0.0, 1.0), "test");
        QVERIFY(scenario);
        spec.scenario = *scenario;
        spec.constraints.slaP99S = 0.01;
        spec.axes = {{analysis::RegionAxisKind::RateMultiplier, {1.0, 1.2}, {}}};
        const auto grid = analysis::RegionGrid::create(spec, {});
        QVERIFY(!grid);
        QVERIFY2(grid.error().message.find("a closed loop has no arrival rate to scale") !=
                     std::string::npos,
                 grid.error().toString().c_str());
    }

    void aStaticBatchLargerThanTheClientsNeverFills()
    {
        auto json = closedLoopScenario(4, 0.0, 1.0);
        json["policy"] = {{"kind", "static"}, {"batch", 8}};
        auto scenario = sim::scenarioFromJson(json, "test");
        QVERIFY(scenario);
        const auto result = sim::simulate(*scenario);
        QVERIFY(!result);
        QVERIFY2(result.error().message.find("4 closed-loop client(s) cannot fill a batch of 8") !=
                     std::string::npos,
                 result.error().toString().c_str());
    }

    void cancellationStopsTheRun()
    {
        auto scenario = sim::scenarioFromJson(closedLoopScenario(16, 1.0, 1.0), "test");
        QVERIFY(scenario);
        const auto result = test::simulateCancelledEarly(*scenario);
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::Cancelled);
    }

    void sameSeedSameResultOnAnyThreadCount()
    {
        auto scenario = sim::scenarioFromJson(closedLoopScenario(6, 3.0, 1.0), "test");
        QVERIFY(scenario);
        scenario->requests = 20000;
        sim::SimOptions one;
        one.threads = 1;
        sim::SimOptions four;
        four.threads = 4;
        const auto a = sim::simulate(*scenario, one);
        const auto b = sim::simulate(*scenario, four);
        QVERIFY(a && b);
        QCOMPARE(a->latency.p99.value, b->latency.p99.value);
        QCOMPARE(a->throughputPerS.value, b->throughputPerS.value);
    }
};

QTEST_GUILESS_MAIN(TestSimClosedLoop)
#include "tst_simclosedloop.moc"
