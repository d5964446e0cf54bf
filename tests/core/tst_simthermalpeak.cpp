// The simulator's peak device temperature (Result::peakTemperatureC), which the feasible-region
// analysis checks against a temperature limit. Replaying the recorded batches through the
// accelerator model's own thermal update must give exactly the reported peak.
#include "accel/model.h"
#include "simtesthelpers.h"

#include <QtTest>

#include <cmath>
#include <map>

using namespace bs;

namespace {

// Idle settles at 30 + 10 W x 0.857 C/W = 38.6 C, full power near 90 C; the limit lies between,
// and a small heat capacity (time constant 1.7 s) lets a run of a few seconds reach it.
const char* kHotModel = R"({"accelerator": "t4", "workload": "resnet50", "precision": "int8",
    "thermal": {"ambient_c": 30, "throttle_c": 50, "capacitance_j_per_c": 2}})";

std::string scenario(double ratePerS, int servers, const std::string& service)
{
    return R"({"seed": 11, "requests": 20000, "warmup_requests": 0, "replications": 1,
        "output": {"records": true},
        "arrivals": {"kind": "poisson", "rate_per_s": )" +
           std::to_string(ratePerS) + R"(},
        "policy": {"kind": "dynamic", "max_batch": 16, "max_queue_delay_ms": 1},
        "servers": {"count": )" +
           std::to_string(servers) + R"(},
        "service": )" +
           service + "}";
}

accel::Model hotModel()
{
    auto built = accel::modelFromJson(nlohmann::json::parse(kHotModel), "test", {});
    if (!built)
        qFatal("test model: %s", built.error().toString().c_str());
    return *built;
}

/// The peak temperature from the records: each server's batches, in dispatch order, through
/// Model::serveBatch from ambient; the hottest end-of-batch temperature.
double peakFromRecords(const sim::Result& result, const accel::Model& model)
{
    // (server, dispatch) identifies a batch; std::map keeps dispatch order per server.
    std::map<std::pair<std::uint32_t, double>, int> batches;
    for (const auto& r : result.records)
        batches[{r.server, r.dispatchS}] = int(r.batchSize);
    std::map<std::uint32_t, accel::ThermalState> states;
    double peak = -1e300;
    for (const auto& [key, size] : batches) {
        auto it = states.try_emplace(key.first, model.initialThermalState(0.0)).first;
        peak = std::max(peak, model.serveBatch(size, it->second, key.second).temperatureC);
    }
    return peak;
}

} // namespace

class TestSimThermalPeak : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void peakMatchesTheModelsThermalUpdate_data();
    void peakMatchesTheModelsThermalUpdate();
    void absentWithoutThermalModel();
};

void TestSimThermalPeak::peakMatchesTheModelsThermalUpdate_data()
{
    QTest::addColumn<double>("fractionOfCapacity");
    QTest::addColumn<int>("servers");
    // Light load: the device cools between batches and stays well below the limit.
    QTest::newRow("light, 1 server") << 0.05 << 1;
    // Heavy load: the device reaches the throttle limit and hovers there.
    QTest::newRow("heavy, 1 server") << 0.8 << 1;
    QTest::newRow("heavy, 2 servers") << 0.8 << 2;
}

void TestSimThermalPeak::peakMatchesTheModelsThermalUpdate()
{
    QFETCH(double, fractionOfCapacity);
    QFETCH(int, servers);
    const auto model = hotModel();
    double best = 0.0;
    for (int b = 1; b <= 16; ++b)
        best = std::max(best, b / model.sustained(b).serviceS);
    const std::string service =
        std::string(R"({"kind": "accelerator", "model": )") + kHotModel + "}";
    auto result =
        test::simulateJson(scenario(fractionOfCapacity * best * servers, servers, service));
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QVERIFY(result->stability.stable);
    QVERIFY(result->peakTemperatureC.has_value());
    const double expected = peakFromRecords(*result, model);
    QCOMPARE(result->peakTemperatureC->value, expected);
    // The test means something: light load stays cool, heavy load reaches the limit.
    const double throttleC = model.params().effectiveThermal().throttleC;
    const double ambientC = model.params().effectiveThermal().ambientC;
    qInfo("peak %.4f C (ambient %.1f C, throttle %.1f C)", expected, ambientC, throttleC);
    QVERIFY(expected > ambientC);
    if (fractionOfCapacity < 0.5)
        QVERIFY(expected < throttleC);
    else
        QVERIFY(expected >= throttleC);
    const auto json = sim::resultToJson(*result);
    QCOMPARE(json["thermal"]["peak_temperature_c"]["value"].get<double>(), expected);
}

void TestSimThermalPeak::absentWithoutThermalModel()
{
    auto result = test::simulateJson(
        scenario(100, 1, R"({"kind": "linear", "base_ms": 1, "per_item_ms": 0.1})"));
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QVERIFY(!result->peakTemperatureC.has_value());
    QVERIFY(sim::resultToJson(*result)["thermal"].is_null());
}

QTEST_APPLESS_MAIN(TestSimThermalPeak)
#include "tst_simthermalpeak.moc"
