// Service-time spread from measured percentiles (issue 17, item 1): a `table` service that
// states p50/p90/p95/p99 per batch size draws lognormal service times with each row's mean and
// the measured spread. Checked against the closed form (sigma recovered from exact lognormal
// quantiles), the simulator alone (at 1% load latency is the service time: its p50 and p99 come
// back) and queueing theory (M/G/1 mean by Pollaczek-Khinchine with the fitted second moment).
#include "sim/servicespread.h"
#include "simtesthelpers.h"

#include <cmath>

using namespace bs;
using namespace bs::sim;
using namespace bs::test;

namespace {

double lognormalQuantileMs(double meanMs, double sigma, int percentile)
{
    return meanMs * std::exp(-0.5 * sigma * sigma + normalQuantileOfPercentile(percentile) * sigma);
}

/// A one-row table of mean `meanMs` whose percentiles are those of a lognormal of `sigma`.
std::string tableJson(double meanMs, double sigma, double ratePerS, int requests)
{
    char text[1024];
    std::snprintf(text, sizeof text, R"({
      "seed": 11, "requests": %d, "warmup_requests": 1000, "replications": 4,
      "arrivals": {"kind": "poisson", "rate_per_s": %.17g},
      "policy": {"kind": "dynamic", "max_batch": 1, "max_queue_delay_ms": 0},
      "servers": {"count": 1},
      "service": {"kind": "table", "batch": [1], "latency_ms": [%.17g],
                  "p50_ms": [%.17g], "p90_ms": [%.17g], "p99_ms": [%.17g]}})",
                  requests, ratePerS, meanMs, lognormalQuantileMs(meanMs, sigma, 50),
                  lognormalQuantileMs(meanMs, sigma, 90), lognormalQuantileMs(meanMs, sigma, 99));
    return text;
}

} // namespace

class TestSimServiceSpread : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sigmaIsRecoveredFromExactQuantiles_data()
    {
        QTest::addColumn<double>("sigma");
        QTest::newRow("none") << 0.0;
        QTest::newRow("narrow") << 0.05;
        QTest::newRow("gpu-like") << 0.3;
        QTest::newRow("wide") << 1.2;
    }
    void sigmaIsRecoveredFromExactQuantiles()
    {
        QFETCH(double, sigma);
        const double meanS = 0.004;
        std::vector<ServiceQuantile> quantiles;
        for (int p : {50, 90, 95, 99})
            quantiles.push_back({p, lognormalQuantileMs(meanS, sigma, p)});
        QVERIFY(std::abs(lognormalSigmaFromQuantiles(meanS, quantiles) - sigma) < 1e-6);
        // One percentile is enough for one parameter.
        quantiles.erase(quantiles.begin(), quantiles.begin() + 3);
        QVERIFY(std::abs(lognormalSigmaFromQuantiles(meanS, quantiles) - sigma) < 1e-6);
    }

    void spreadIsInterpolatedBetweenRowsAndFlatBeyond()
    {
        ServiceSpec table;
        table.kind = ServiceSpec::Kind::Table;
        table.tableBatch = {2, 10};
        table.tableLatencyS = {0.001, 0.004};
        table.tablePercentiles = {
            {99, {lognormalQuantileMs(0.001, 0.1, 99), lognormalQuantileMs(0.004, 0.5, 99)}}};
        std::vector<std::string> warnings;
        const auto sigmas = tableSigmas(table, 16, warnings);
        QCOMPARE(sigmas.size(), std::size_t(17));
        QVERIFY(std::abs(sigmas[1] - 0.1) < 1e-6);  // before the first row: its spread
        QVERIFY(std::abs(sigmas[6] - 0.3) < 1e-6);  // half way
        QVERIFY(std::abs(sigmas[16] - 0.5) < 1e-6); // beyond the last row: its spread
        QVERIFY(warnings.empty());
    }

    void aQuantileALognormalCannotMeetIsNamed()
    {
        ServiceSpec table;
        table.kind = ServiceSpec::Kind::Table;
        table.tableBatch = {4};
        table.tableLatencyS = {0.010};
        // A median of 10 ms with a p99 of 80 ms: no lognormal of mean 10 ms has both.
        table.tablePercentiles = {{50, {0.010}}, {99, {0.080}}};
        std::vector<std::string> warnings;
        tableSigmas(table, 4, warnings);
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY2(warnings[0].find("scenario.service.p") != std::string::npos &&
                     warnings[0].find("at batch 4") != std::string::npos,
                 warnings[0].c_str());
    }

    void atLowLoadLatencyHasTheMeasuredPercentiles()
    {
        // 1% load, one request per batch: a request's latency is its service time.
        const double meanMs = 4.0;
        const double sigma = 0.35;
        auto result = simulateJson(tableJson(meanMs, sigma, 2.5, 40000));
        QVERIFY2(result, result ? "" : qPrintable(describe(result.error())));
        const double p50Ms = 1e3 * result->latency.p50.value;
        const double p99Ms = 1e3 * result->latency.p99.value;
        qInfo("p50 %.3f ms (stated %.3f), p99 %.3f ms (stated %.3f)", p50Ms,
              lognormalQuantileMs(meanMs, sigma, 50), p99Ms,
              lognormalQuantileMs(meanMs, sigma, 99));
        QVERIFY(std::abs(p50Ms / lognormalQuantileMs(meanMs, sigma, 50) - 1.0) < 0.02);
        QVERIFY(std::abs(p99Ms / lognormalQuantileMs(meanMs, sigma, 99) - 1.0) < 0.04);
        QVERIFY(std::abs(1e3 * result->latency.mean.value / meanMs - 1.0) < 0.02);
    }

    void queueingFollowsTheFittedSecondMoment()
    {
        // M/G/1 at 60% load: W = lambda E[S^2] / (2 (1 - rho)), E[S^2] = m^2 exp(sigma^2).
        const double meanS = 0.004;
        const double sigma = 0.8;
        const double rate = 0.6 / meanS;
        auto result = simulateJson(tableJson(1e3 * meanS, sigma, rate, 200000));
        QVERIFY2(result, result ? "" : qPrintable(describe(result.error())));
        const double secondMoment = meanS * meanS * std::exp(sigma * sigma);
        const double waitS = rate * secondMoment / (2.0 * (1.0 - 0.6));
        const double expectedMs = 1e3 * (meanS + waitS);
        const auto& mean = result->latency.mean;
        qInfo("mean latency %.3f ms [%.3f, %.3f], Pollaczek-Khinchine %.3f ms (deterministic "
              "service would give %.3f ms)",
              1e3 * mean.value, 1e3 * mean.ciLow, 1e3 * mean.ciHigh, expectedMs,
              1e3 * (meanS + rate * meanS * meanS / (2.0 * 0.4)));
        QVERIFY(std::abs(1e3 * mean.value / expectedMs - 1.0) < 0.05);
    }

    void percentilesRoundTripAndBadOnesAreNamed()
    {
        auto scenario = scenarioFrom(tableJson(4.0, 0.3, 10.0, 1000));
        QVERIFY2(scenario, scenario ? "" : qPrintable(describe(scenario.error())));
        QCOMPARE(scenario->service.tablePercentiles.size(), std::size_t(3));
        auto again = sim::scenarioFromJson(sim::scenarioToJson(*scenario), "again.json");
        QVERIFY(again);
        QVERIFY(again->service == scenario->service);

        const std::string base = R"({"arrivals": {"kind": "poisson", "rate_per_s": 10},
            "policy": {"kind": "dynamic", "max_batch": 8, "max_queue_delay_ms": 1},
            "service": {"kind": "table", "batch": [1, 8], "latency_ms": [1, 3], )";
        const struct
        {
            const char* keys;
            const char* expected;
        } bad[] = {
            {R"("p99_ms": [2])", "scenario.service.p99_ms: must have as many entries as batch"},
            {R"("p50_ms": [1, 3], "p90_ms": [2, 2.5])",
             "scenario.service.p90_ms[1]: is below p50_ms"},
            {R"("p99_ms": [2, 5], "distribution": {"kind": "gamma", "cv": 0.2})",
             "scenario.service.distribution: give the measured percentiles"},
            {R"("p95_ms": [2, -5])", "scenario.service.p95_ms"},
        };
        for (const auto& b : bad) {
            auto refused = scenarioFrom(base + b.keys + "}}");
            QVERIFY2(!refused, b.keys);
            QVERIFY2(refused.error().message.find(b.expected) != std::string::npos,
                     refused.error().message.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestSimServiceSpread)
#include "tst_simservicespread.moc"
