// Arrivals and service times: rate profiles, each arrival process's rate and burstiness,
// service variability against Pollaczek-Khinchine, and replay from request-trace files.
#include "sim/profiletimemap.h"
#include "simtesthelpers.h"

#include <QtTest>

#include <cmath>

using namespace bs;

class TestSimArrivals : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void profileShapesTheRate_data();
    void profileShapesTheRate();
    void arrivalProcessesHaveTheirRate_data();
    void arrivalProcessesHaveTheirRate();
    void serviceVariabilityMatchesPollaczekKhinchine_data();
    void serviceVariabilityMatchesPollaczekKhinchine();
    void missingReplayFileNamesKeyAndFile();
    void replayFromATraceFile();
    void badReplayFiles_data();
    void badReplayFiles();
};

void TestSimArrivals::profileShapesTheRate_data()
{
    QTest::addColumn<QString>("profile");
    QTest::newRow("diurnal") << QStringLiteral(
        R"({"kind": "diurnal", "period_s": 10, "amplitude": 0.6, "peak_s": 2.5})");
    QTest::newRow("ramp") << QStringLiteral(
        R"({"kind": "ramp", "times_s": [5, 25, 40], "multipliers": [0.3, 2.0, 1.0]})");
}

void TestSimArrivals::profileShapesTheRate()
{
    // Poisson at 2000 req/s times the profile: arrivals per 1-s bin match 2000 * integral of
    // m(t) over the bin, within 5 Poisson standard deviations. The run is kept as asked (no
    // warm-up, min_cycles 0): the test reads the arrivals from t = 0, not a tail.
    QFETCH(QString, profile);
    auto result = test::simulateJson(R"({"seed": 11, "requests": 100000, "warmup_requests": 0,
        "replications": 1, "output": {"records": true}, "run_length": {"min_cycles": 0},
        "arrivals": {"kind": "poisson", "rate_per_s": 2000, "profile": )" +
                                     profile.toStdString() + R"(},
        "policy": {"kind": "dynamic", "max_batch": 64},
        "service": {"kind": "linear", "base_ms": 0.01, "per_item_ms": 0.001}})");
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    auto spec = test::scenarioFrom(sim::scenarioToJson(result->scenario).dump());
    QVERIFY(spec);
    const auto& rateProfile = spec->streams[0].arrivals.profile;
    std::vector<int> counts(40, 0);
    for (const auto& r : result->records) {
        if (r.arrivalS < 40.0)
            ++counts[std::size_t(r.arrivalS)];
    }
    for (int bin = 0; bin < 40; ++bin) {
        double integral = 0.0; // midpoint rule, 100 steps: ample for these smooth profiles
        for (int k = 0; k < 100; ++k)
            integral +=
                sim::ProfileTimeMap::multiplierAt(rateProfile, bin + (k + 0.5) / 100.0) / 100.0;
        const double expected = 2000.0 * integral;
        QVERIFY2(std::abs(counts[std::size_t(bin)] - expected) < 5.0 * std::sqrt(expected) + 2.0,
                 qPrintable(QStringLiteral("bin %1: %2 arrivals, expected %3")
                                .arg(bin)
                                .arg(counts[std::size_t(bin)])
                                .arg(expected)));
    }
}

void TestSimArrivals::arrivalProcessesHaveTheirRate_data()
{
    QTest::addColumn<QString>("arrivals");
    QTest::addColumn<double>("rate");
    QTest::addColumn<double>("gapCv"); // NaN: not checked
    const double nan = std::nan("");
    QTest::newRow("poisson") << QStringLiteral(R"({"kind": "poisson", "rate_per_s": 800})") << 800.0
                             << 1.0;
    QTest::newRow("deterministic")
        << QStringLiteral(R"({"kind": "deterministic", "rate_per_s": 800})") << 800.0 << 0.0;
    QTest::newRow("gamma cv 0.5") << QStringLiteral(
                                         R"({"kind": "gamma", "rate_per_s": 800, "cv": 0.5})")
                                  << 800.0 << 0.5;
    QTest::newRow("gamma cv 3") << QStringLiteral(
                                       R"({"kind": "gamma", "rate_per_s": 800, "cv": 3})")
                                << 800.0 << 3.0;
    // MMPP mean rate (200 * 0.8 + 2000 * 0.2) / 1.0 = 560.
    QTest::newRow("mmpp2")
        << QStringLiteral(
               R"({"kind": "mmpp2", "rates_per_s": [200, 2000], "mean_dwell_s": [0.08, 0.02]})")
        << 560.0 << nan;
}

void TestSimArrivals::arrivalProcessesHaveTheirRate()
{
    QFETCH(QString, arrivals);
    QFETCH(double, rate);
    QFETCH(double, gapCv);
    auto result = test::simulateJson(R"({"seed": 17, "requests": 200000, "warmup_requests": 0,
        "replications": 1, "output": {"records": true}, "arrivals": )" +
                                     arrivals.toStdString() + R"(,
        "policy": {"kind": "dynamic", "max_batch": 64},
        "service": {"kind": "linear", "base_ms": 0.01, "per_item_ms": 0.001}})");
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    const auto& records = result->records;
    const double span = records.back().arrivalS - records.front().arrivalS;
    const double measured = double(records.size() - 1) / span;
    QVERIFY2(std::abs(measured - rate) < 0.02 * rate,
             qPrintable(QStringLiteral("rate %1, expected %2").arg(measured).arg(rate)));
    QCOMPARE(result->stability.offeredRatePerS, rate);
    if (std::isnan(gapCv))
        return;
    double sum = 0.0;
    double squares = 0.0;
    for (std::size_t i = 1; i < records.size(); ++i) {
        const double gap = records[i].arrivalS - records[i - 1].arrivalS;
        sum += gap;
        squares += gap * gap;
    }
    const double n = double(records.size() - 1);
    const double mean = sum / n;
    const double cv = std::sqrt(std::max(0.0, squares / n - mean * mean)) / mean;
    QVERIFY2(std::abs(cv - gapCv) < 0.03 * std::max(gapCv, 1.0),
             qPrintable(QStringLiteral("gap cv %1, expected %2").arg(cv).arg(gapCv)));
}

void TestSimArrivals::serviceVariabilityMatchesPollaczekKhinchine_data()
{
    QTest::addColumn<QString>("distribution");
    QTest::addColumn<double>("cv");
    QTest::newRow("gamma cv 0.5") << QStringLiteral(R"({"kind": "gamma", "cv": 0.5})") << 0.5;
    QTest::newRow("lognormal cv 1.5")
        << QStringLiteral(R"({"kind": "lognormal", "cv": 1.5})") << 1.5;
    QTest::newRow("exponential") << QStringLiteral(R"({"kind": "exponential"})") << 1.0;
}

void TestSimArrivals::serviceVariabilityMatchesPollaczekKhinchine()
{
    // M/G/1 at rho 0.6 with mean service 1 ms: E[T] = lambda E[S^2] / (2 (1 - rho)) + E[S],
    // E[S^2] = (1 + cv^2) E[S]^2. Checked within 3 half-widths of the run's 95% interval.
    QFETCH(QString, distribution);
    QFETCH(double, cv);
    auto result = test::simulateJson(R"({"seed": 23, "requests": 300000, "replications": 10,
        "arrivals": {"kind": "poisson", "rate_per_s": 600},
        "policy": {"kind": "dynamic", "max_batch": 1},
        "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0, "distribution": )" +
                                     distribution.toStdString() + "}}");
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    const double s = 0.001;
    const double exact = 600.0 * (1.0 + cv * cv) * s * s / (2.0 * (1.0 - 0.6)) + s;
    const auto& mean = result->latency.mean;
    QVERIFY2(mean.halfWidth() < 0.03 * exact &&
                 std::abs(mean.value - exact) <= 3.0 * mean.halfWidth(),
             qPrintable(QStringLiteral("mean %1 +- %2, exact %3")
                            .arg(mean.value)
                            .arg(mean.halfWidth())
                            .arg(exact)));
}

void TestSimArrivals::missingReplayFileNamesKeyAndFile()
{
    auto scenario =
        test::scenarioFrom(R"({"arrivals": {"kind": "replay", "file": "no/such/trace.csv"},
        "policy": {"kind": "dynamic", "max_batch": 4},
        "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0}})");
    QVERIFY(scenario);
    sim::SimOptions options;
    options.baseDirectory = "/nonexistent/project";
    auto result = sim::simulate(*scenario, options);
    QVERIFY(!result);
    QCOMPARE(result.error().code, ErrorCode::Io);
    QCOMPARE(
        test::describe(result.error()),
        QStringLiteral("/nonexistent/project/no/such/trace.csv: scenario.arrivals.file: cannot "
                       "open file: No such file or directory"));
}

void TestSimArrivals::replayFromATraceFile()
{
    // tests/data/sim/replay_sorted.csv: arrivals at 1, 2, 3, 6 s (intended 1, 1.99, 3, 5.99),
    // read by the generic request-trace importer, rebased to 0 and looped with period 5 * 4/3.
    for (const char* column : {"arrival", "intended"}) {
        auto scenario = test::scenarioFrom(std::string(R"({"requests": 6, "warmup_requests": 0,
            "replications": 1, "output": {"records": true},
            "arrivals": {"kind": "replay", "file": "sim/replay_sorted.csv", "column": ")") +
                                           column + R"("},
            "policy": {"kind": "dynamic", "max_batch": 1},
            "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0}})");
        QVERIFY(scenario);
        sim::SimOptions options;
        options.baseDirectory = test::testDataPath(QString()).toStdString();
        auto result = sim::simulate(*scenario, options);
        QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
        const bool intended = std::string(column) == "intended";
        const double period = (intended ? 4.99 : 5.0) * 4.0 / 3.0;
        const std::vector<double> expected = {0,      intended ? 0.99 : 1.0,
                                              2.0,    intended ? 4.99 : 5.0,
                                              period, period + (intended ? 0.99 : 1.0)};
        QCOMPARE(result->records.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
            QVERIFY2(std::abs(result->records[i].arrivalS - expected[i]) < 1e-12,
                     qPrintable(QStringLiteral("%1 request %2 at %3")
                                    .arg(QLatin1String(column))
                                    .arg(i)
                                    .arg(result->records[i].arrivalS, 0, 'g', 17)));
    }
}

void TestSimArrivals::badReplayFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("column");
    QTest::addColumn<QString>("expected"); // after "<absolute path>: "
    QTest::newRow("unsorted")
        << QStringLiteral("sim/replay_unsorted.csv") << QStringLiteral("arrival")
        << QStringLiteral("scenario.arrivals.file: timestamps must not decrease: request 3 arrives "
                          "at 0.25 s, before request 2 (0.75 s); sort the trace first");
    QTest::newRow("not a request trace")
        << QStringLiteral("sim/not_a_trace.csv") << QStringLiteral("arrival")
        << QStringLiteral("scenario.arrivals.file: the file holds a sweep (read as perf_analyzer), "
                          "not a request trace");
    QTest::newRow("no intended column")
        << QStringLiteral("sim/replay_unsorted.csv") << QStringLiteral("intended")
        << QStringLiteral("scenario.arrivals.column: the trace has no intended send times; use "
                          "\"arrival\"");
}

void TestSimArrivals::badReplayFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, column);
    QFETCH(QString, expected);
    const std::string path = test::testDataPath(file).toStdString();
    auto scenario = test::scenarioFrom(R"({"arrivals": {"kind": "replay", "file": ")" + path +
                                       R"(", "column": ")" + column.toStdString() + R"("},
        "policy": {"kind": "dynamic", "max_batch": 4},
        "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0}})");
    QVERIFY(scenario);
    auto result = sim::simulate(*scenario);
    QVERIFY(!result);
    QCOMPARE(QString::fromStdString(result.error().path), QString::fromStdString(path));
    QCOMPARE(QString::fromStdString(result.error().message), expected);
}

QTEST_APPLESS_MAIN(TestSimArrivals)
#include "tst_simarrivals.moc"
