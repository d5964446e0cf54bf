// The scenario JSON: defaults, round trips, and the exact error for each kind of bad input.
#include "simtesthelpers.h"

#include <QtTest>

using namespace bs;

namespace {

/// A valid scenario with one part replaced: `key` is "arrivals", "policy", "service" or "" (the
/// whole text is then `part`).
std::string withPart(const std::string& key, const std::string& part)
{
    std::string arrivals = R"({"kind": "poisson", "rate_per_s": 100})";
    std::string policy = R"({"kind": "dynamic", "max_batch": 8, "max_queue_delay_ms": 2})";
    std::string service = R"({"kind": "linear", "base_ms": 1, "per_item_ms": 0.5})";
    if (key == "arrivals")
        arrivals = part;
    else if (key == "policy")
        policy = part;
    else if (key == "service")
        service = part;
    else if (key.empty())
        return part;
    return R"({"requests": 1000, "arrivals": )" + arrivals + R"(, "policy": )" + policy +
           R"(, "service": )" + service + "}";
}

} // namespace

class TestSimScenario : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void defaults();
    void roundTrip_data();
    void roundTrip();
    void millisecondsReadBackExactly();
    void badScenarios_data();
    void badScenarios();
    void loadScenarioNamesTheFile();
};

void TestSimScenario::defaults()
{
    auto s = test::scenarioFrom(R"({"arrivals": {"kind": "poisson", "rate_per_s": 100},
        "policy": {"kind": "dynamic", "max_batch": 8},
        "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0.5}})");
    QVERIFY2(s, s ? "" : qPrintable(test::describe(s.error())));
    QCOMPARE(s->seed, std::uint64_t(1));
    QCOMPARE(s->requests, std::uint64_t(100000));
    QCOMPARE(s->warmupRequests, std::uint64_t(10000)); // requests / 10
    QCOMPARE(s->replications, 5);
    QCOMPARE(s->streams.size(), std::size_t(1));
    QVERIFY(!s->namedStreams);
    QCOMPARE(s->policy.maxQueueDelayS, 0.0);
    QCOMPARE(s->servers.count, 1);
    QVERIFY(s->servers.placement == sim::ServerSpec::Placement::Shared);
    QVERIFY(s->service.distribution.kind == sim::VariabilityKind::Deterministic);
    QCOMPARE(s->service.baseS, 0.001);
    QVERIFY(!s->power);
    QCOMPARE(s->maxQueueRequests, std::uint64_t(1000000));

    auto exponential =
        test::scenarioFrom(withPart("service", R"({"kind": "exponential", "mean_ms": 2})"));
    QVERIFY(exponential);
    QVERIFY(exponential->service.distribution.kind == sim::VariabilityKind::Exponential);
    auto fixed = test::scenarioFrom(withPart("policy", R"({"kind": "static", "batch": 4})"));
    QVERIFY(fixed);
    QVERIFY(std::isinf(fixed->policy.maxQueueDelayS));
}

void TestSimScenario::roundTrip_data()
{
    QTest::addColumn<QString>("json");
    QTest::newRow("dynamic with preferred sizes and power")
        << QString::fromStdString(R"({"name": "rt", "seed": 7, "requests": 5000,
            "warmup_requests": 10, "replications": 3,
            "arrivals": {"kind": "gamma", "rate_per_s": 250.5, "cv": 2.5,
                         "profile": {"kind": "diurnal", "period_s": 3600, "amplitude": 0.3,
                                     "peak_s": 900}},
            "policy": {"kind": "dynamic", "max_batch": 16, "max_queue_delay_ms": 0.3,
                       "preferred_batch_sizes": [4, 8, 16]},
            "servers": {"count": 3, "placement": "least_loaded"},
            "service": {"kind": "table", "batch": [1, 2, 4, 16], "latency_ms": [1.1, 1.3, 1.7, 4.9],
                        "distribution": {"kind": "lognormal", "cv": 0.15}},
            "power": {"idle_w": 55, "busy_w": 280.5},
            "output": {"window_s": 0.25, "records": true},
            "max_queue_requests": 5000})");
    QTest::newRow("streams, static and mmpp") << QString::fromStdString(R"({"streams": [
              {"name": "a", "weight": 2, "arrivals": {"kind": "mmpp2", "rates_per_s": [10, 90],
                                                      "mean_dwell_s": [1.5, 0.25]}},
              {"name": "b", "arrivals": {"kind": "deterministic", "rate_per_s": 30,
                  "profile": {"kind": "ramp", "times_s": [0, 60], "multipliers": [0.5, 1.5]}}}],
            "policy": {"kind": "static", "batch": 4, "timeout_ms": 12.5},
            "service": {"kind": "exponential", "mean_ms": 0.7}})");
    QTest::newRow("adaptive with replay")
        << QString::fromStdString(R"({"arrivals": {"kind": "replay", "times_s": [0, 0.1, 0.35],
                                                    "rate_per_s": 20, "loop": false},
            "policy": {"kind": "adaptive", "max_batch": 32, "target_p99_ms": 40,
                       "min_batch": 2, "initial_batch": 4, "window_requests": 500,
                       "increase": 2, "decrease": 0.75, "max_queue_delay_ms": 1},
            "service": {"kind": "linear", "base_ms": 3, "per_item_ms": 0.2,
                        "distribution": {"kind": "gamma", "cv": 0.5}}})");
    QTest::newRow("replay from a file")
        << QString::fromStdString(R"({"arrivals": {"kind": "replay", "file": "traces/x.csv",
                                                    "column": "intended"},
            "policy": {"kind": "dynamic", "max_batch": 2},
            "service": {"kind": "linear", "base_ms": 3, "per_item_ms": 0}})");
}

void TestSimScenario::roundTrip()
{
    QFETCH(QString, json);
    auto first = test::scenarioFrom(json.toStdString());
    QVERIFY2(first, first ? "" : qPrintable(test::describe(first.error())));
    const nlohmann::json written = sim::scenarioToJson(*first);
    auto second = sim::scenarioFromJson(written, "written.json");
    QVERIFY2(second, second ? "" : qPrintable(test::describe(second.error())));
    QVERIFY(*second == *first);
    QCOMPARE(QString::fromStdString(sim::scenarioToJson(*second).dump()),
             QString::fromStdString(written.dump()));
}

void TestSimScenario::millisecondsReadBackExactly()
{
    // Every *_ms value is stored as seconds; writing must give back milliseconds that divide to
    // the very same double, for values that are not exact in binary.
    for (double ms : {0.1, 0.3, 1.7, 2.0, 12.345, 1e-5, 333.333, 0.07}) {
        auto s = test::scenarioFrom(withPart("service", R"({"kind": "exponential", "mean_ms": )" +
                                                            std::to_string(ms) + "}"));
        QVERIFY(s);
        auto again = sim::scenarioFromJson(sim::scenarioToJson(*s));
        QVERIFY(again);
        QCOMPARE(again->service.meanS, s->service.meanS);
    }
}

void TestSimScenario::badScenarios_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* name, const std::string& json, const char* expected) {
        QTest::newRow(name) << QString::fromStdString(json) << QString::fromUtf8(expected);
    };
    row("unknown top-level key",
        R"({"requests": 10, "arrivals": {"kind": "poisson", "rate_per_s": 1},
            "policy": {"kind": "dynamic", "max_batch": 1},
            "service": {"kind": "exponential", "mean_ms": 1}, "sead": 4})",
        "test.json: scenario.sead: unknown key (known keys here: arrivals, max_queue_requests, "
        "name, output, policy, power, replications, requests, run_length, seed, servers, service, "
        "streams, "
        "warmup_requests)");
    row("unknown policy key",
        withPart("policy", R"({"kind": "dynamic", "max_batch": 4, "max_delay_ms": 2})"),
        "test.json: scenario.policy.max_delay_ms: unknown key (known keys here: kind, max_batch, "
        "max_queue_delay_ms, preferred_batch_sizes)");
    row("key of another kind",
        withPart("arrivals", R"({"kind": "poisson", "rate_per_s": 5, "cv": 2})"),
        "test.json: scenario.arrivals.cv: unknown key (known keys here: kind, profile, "
        "rate_per_s)");
    row("negative rate", withPart("arrivals", R"({"kind": "poisson", "rate_per_s": -5})"),
        "test.json: scenario.arrivals.rate_per_s: must be greater than 0 (got -5)");
    row("zero rate", withPart("arrivals", R"({"kind": "deterministic", "rate_per_s": 0})"),
        "test.json: scenario.arrivals.rate_per_s: must be greater than 0 (got 0)");
    row("max_batch 0", withPart("policy", R"({"kind": "dynamic", "max_batch": 0})"),
        "test.json: scenario.policy.max_batch: must be at least 1 (got 0)");
    row("max_batch fractional", withPart("policy", R"({"kind": "dynamic", "max_batch": 2.5})"),
        "test.json: scenario.policy.max_batch: must be a whole number (got 2.5)");
    row("max_batch as text", withPart("policy", R"({"kind": "dynamic", "max_batch": "8"})"),
        "test.json: scenario.policy.max_batch: must be a number");
    row("negative delay",
        withPart("policy", R"({"kind": "dynamic", "max_batch": 8, "max_queue_delay_ms": -1})"),
        "test.json: scenario.policy.max_queue_delay_ms: must be at least 0 (got -1)");
    row("preferred above max_batch",
        withPart("policy",
                 R"({"kind": "dynamic", "max_batch": 8, "preferred_batch_sizes": [4, 16]})"),
        "test.json: scenario.policy.preferred_batch_sizes[1]: must be at most max_batch 8 (got "
        "16)");
    row("preferred not increasing",
        withPart("policy",
                 R"({"kind": "dynamic", "max_batch": 8, "preferred_batch_sizes": [4, 2]})"),
        "test.json: scenario.policy.preferred_batch_sizes[1]: sizes must increase (2 after 4)");
    row("static without batch", withPart("policy", R"({"kind": "static", "timeout_ms": 3})"),
        "test.json: scenario.policy.batch: missing; expected a number");
    row("unknown policy kind", withPart("policy", R"({"kind": "fifo"})"),
        "test.json: scenario.policy.kind: unknown value 'fifo'; expected one of: dynamic, static, "
        "adaptive");
    row("adaptive min above max",
        withPart("policy",
                 R"({"kind": "adaptive", "max_batch": 4, "min_batch": 8, "target_p99_ms": 5})"),
        "test.json: scenario.policy.min_batch: must be at most max_batch 4 (got 8)");
    row("negative arrival cv",
        withPart("arrivals", R"({"kind": "gamma", "rate_per_s": 5, "cv": -0.5})"),
        "test.json: scenario.arrivals.cv: must be at least 0 (got -0.5)");
    row("negative service cv",
        withPart("service", R"({"kind": "linear", "base_ms": 1, "per_item_ms": 1,
                                "distribution": {"kind": "gamma", "cv": -1}})"),
        "test.json: scenario.service.distribution.cv: must be at least 0 (got -1)");
    row("gamma service without cv",
        withPart("service", R"({"kind": "linear", "base_ms": 1, "per_item_ms": 1,
                                "distribution": {"kind": "gamma"}})"),
        "test.json: scenario.service.distribution.cv: missing; expected a number");
    row("zero service",
        withPart("service", R"({"kind": "linear", "base_ms": 0, "per_item_ms": 0})"),
        "test.json: scenario.service.per_item_ms: base_ms and per_item_ms cannot both be 0");
    row("table lengths differ",
        withPart("service", R"({"kind": "table", "batch": [1, 2, 4], "latency_ms": [1, 2]})"),
        "test.json: scenario.service.latency_ms: must have as many entries as batch (3, got 2)");
    row("table not increasing",
        withPart("service", R"({"kind": "table", "batch": [1, 4, 2], "latency_ms": [1, 2, 3]})"),
        "test.json: scenario.service.batch[2]: batch sizes must increase (2 after 4)");
    row("unsorted replay",
        withPart("arrivals", R"({"kind": "replay", "times_s": [0, 0.25, 0.75, 0.5]})"),
        "test.json: scenario.arrivals.times_s[3]: timestamps must not decrease (0.5 after 0.75)");
    row("replay with one timestamp", withPart("arrivals", R"({"kind": "replay", "times_s": [3]})"),
        "test.json: scenario.arrivals.times_s: needs at least 2 timestamps (got 1)");
    row("replay without source", withPart("arrivals", R"({"kind": "replay"})"),
        "test.json: scenario.arrivals.file: missing; expected a request trace file (or inline "
        "times_s)");
    row("mmpp with three rates",
        withPart("arrivals",
                 R"({"kind": "mmpp2", "rates_per_s": [1, 2, 3], "mean_dwell_s": [1, 1]})"),
        "test.json: scenario.arrivals.rates_per_s: must list 2 rates [low, high] (got 3)");
    row("mmpp all off",
        withPart("arrivals", R"({"kind": "mmpp2", "rates_per_s": [0, 0], "mean_dwell_s": [1, 1]})"),
        "test.json: scenario.arrivals.rates_per_s: at least one state needs a positive rate");
    row("diurnal amplitude 1", withPart("arrivals", R"({"kind": "poisson", "rate_per_s": 5,
                                 "profile": {"kind": "diurnal", "amplitude": 1}})"),
        "test.json: scenario.arrivals.profile.amplitude: must be less than 1 (got 1); the rate "
        "would reach zero");
    row("requests 0",
        R"({"requests": 0, "arrivals": {"kind": "poisson", "rate_per_s": 1},
            "policy": {"kind": "dynamic", "max_batch": 1}, "service": {"kind": "exponential", "mean_ms": 1}})",
        "test.json: scenario.requests: must be at least 1 (got 0)");
    row("arrivals and streams",
        R"({"arrivals": {"kind": "poisson", "rate_per_s": 1}, "streams": [],
            "policy": {"kind": "dynamic", "max_batch": 1}, "service": {"kind": "exponential", "mean_ms": 1}})",
        "test.json: scenario.streams: give either arrivals or streams, not both");
    row("no arrivals",
        R"({"policy": {"kind": "dynamic", "max_batch": 1}, "service": {"kind": "exponential", "mean_ms": 1}})",
        "test.json: scenario.arrivals: missing; expected an object (or a streams list)");
    row("duplicate stream names",
        R"({"streams": [{"name": "a", "arrivals": {"kind": "poisson", "rate_per_s": 1}},
                        {"name": "a", "arrivals": {"kind": "poisson", "rate_per_s": 2}}],
            "policy": {"kind": "dynamic", "max_batch": 1}, "service": {"kind": "exponential", "mean_ms": 1}})",
        "test.json: scenario.streams[1].name: 'a' is used by an earlier stream");
    row("bad key inside a stream",
        R"({"streams": [{"name": "a", "arrivals": {"kind": "poisson", "rate": 1}}],
            "policy": {"kind": "dynamic", "max_batch": 1}, "service": {"kind": "exponential", "mean_ms": 1}})",
        "test.json: scenario.streams[0].arrivals.rate_per_s: missing; expected a number");
    row("servers 0",
        R"({"arrivals": {"kind": "poisson", "rate_per_s": 1}, "servers": {"count": 0},
            "policy": {"kind": "dynamic", "max_batch": 1}, "service": {"kind": "exponential", "mean_ms": 1}})",
        "test.json: scenario.servers.count: must be at least 1 (got 0)");
    row("negative power",
        R"({"arrivals": {"kind": "poisson", "rate_per_s": 1}, "power": {"idle_w": -3, "busy_w": 10},
            "policy": {"kind": "dynamic", "max_batch": 1}, "service": {"kind": "exponential", "mean_ms": 1}})",
        "test.json: scenario.power.idle_w: must be at least 0 (got -3)");
    row("not an object", "[1, 2]", "test.json: scenario: expected a JSON object");
}

void TestSimScenario::badScenarios()
{
    QFETCH(QString, json);
    QFETCH(QString, expected);
    auto s = test::scenarioFrom(json.toStdString());
    QVERIFY2(!s, "the bad scenario was accepted");
    QCOMPARE(test::describe(s.error()), expected);
}

void TestSimScenario::loadScenarioNamesTheFile()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("bad.json")).toStdString();
    QFile file(QString::fromStdString(path));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"arrivals": {"kind": "poisson", "rate_per_s": 1},
  "policy": {"kind": "dynamic", "max_batch": 1},
  "service": {"kind": "exponential", "mean_ms": 1},,
})");
    file.close();
    auto s = sim::loadScenario(path);
    QVERIFY(!s);
    QCOMPARE(s.error().path, path);
    QCOMPARE(s.error().line, 3);
    QVERIFY(s.error().message.rfind("JSON syntax error", 0) == 0);

    auto missing = sim::loadScenario(path + ".nope");
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, ErrorCode::Io);
}

QTEST_APPLESS_MAIN(TestSimScenario)
#include "tst_simscenario.moc"
