// The accelerator service kind: service times, energy and thermal state per server from
// bs::accel::Model.
#include "accel/model.h"
#include "simtesthelpers.h"

#include <QtTest>

#include <cmath>

using namespace bs;

namespace {

std::string acceleratorScenario(const std::string& model, const std::string& arrivals, int servers,
                                int requests, const std::string& extra = {})
{
    return R"({"seed": 4, "requests": )" + std::to_string(requests) +
           R"(, "warmup_requests": 0, "replications": 1, "output": {"records": true},
        "arrivals": )" +
           arrivals + R"(,
        "policy": {"kind": "dynamic", "max_batch": 16, "max_queue_delay_ms": 1},
        "servers": {"count": )" +
           std::to_string(servers) + R"(},
        "service": {"kind": "accelerator", "model": )" +
           model + "}" + extra + "}";
}

const char* kModel = R"({"accelerator": "t4", "workload": "resnet50", "precision": "int8"})";
// The same device with a throttle limit just above ambient, so sustained load throttles.
const char* kHotModel = R"({"accelerator": "t4", "workload": "resnet50", "precision": "int8",
    "thermal": {"ambient_c": 30, "throttle_c": 32}})";

accel::Model model(const char* json)
{
    auto built = accel::modelFromJson(nlohmann::json::parse(json), "test", {});
    if (!built)
        qFatal("test model: %s", built.error().toString().c_str());
    return *built;
}

} // namespace

class TestSimAccelerator : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void coolDeviceServesAtThePredictedTime();
    void sustainedLoadThrottlesAndCapacityKnowsIt();
    void perServerThermalStateIsIndependent();
    void badModelsNameTheirKey_data();
    void badModelsNameTheirKey();
};

void TestSimAccelerator::coolDeviceServesAtThePredictedTime()
{
    // 20 requests/s: batches are small and the device cools between them, so every batch takes
    // the cool-device prediction t(b), and energy comes from the model's power P(b).
    const auto m = model(kModel);
    auto result = test::simulateJson(
        acceleratorScenario(kModel, R"({"kind": "poisson", "rate_per_s": 20})", 1, 2000), 1);
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QVERIFY(result->stability.stable);
    QVERIFY(!result->records.empty());
    for (const auto& r : result->records) {
        const double predicted = m.predict(int(r.batchSize)).serviceS;
        QVERIFY2(std::abs((r.completionS - r.dispatchS) - predicted) <= 1e-9 * predicted,
                 qPrintable(QStringLiteral("batch %1: %2 s, predicted %3 s")
                                .arg(r.batchSize)
                                .arg(r.completionS - r.dispatchS)
                                .arg(predicted)));
    }
    QVERIFY(result->energyPerRequestJ && result->meanPowerW);
    // Mostly idle: the mean power lies just above the model's idle power.
    const double idle = m.params().effectivePowerIdleW();
    QVERIFY(result->meanPowerW->value > idle && result->meanPowerW->value < idle * 1.2);
}

void TestSimAccelerator::sustainedLoadThrottlesAndCapacityKnowsIt()
{
    const auto m = model(kHotModel);
    double best = 0.0;
    for (int b = 1; b <= 16; ++b)
        best = std::max(best, b / m.sustained(b).serviceS);
    // Offered at 80% of the sustained (throttled) capacity: stable, and batches later in the
    // run are slower than the cool prediction.
    const double rate = 0.8 * best;
    auto result = test::simulateJson(
        acceleratorScenario(kHotModel,
                            R"({"kind": "poisson", "rate_per_s": )" + std::to_string(rate) + "}", 1,
                            50000),
        1);
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QVERIFY(result->stability.stable);
    QVERIFY(std::abs(result->stability.capacityRatePerS - best) <= 1e-9 * best);
    const auto& records = result->records;
    const auto& last = records.back();
    const double cool = m.predict(int(last.batchSize)).serviceS;
    QVERIFY2(last.completionS - last.dispatchS > 1.01 * cool,
             qPrintable(QStringLiteral("last batch %1 s, cool prediction %2 s")
                            .arg(last.completionS - last.dispatchS)
                            .arg(cool)));
    // Above the sustained capacity (but below the cool one) the system is unstable.
    QVERIFY(best < 16.0 / m.predict(16).serviceS);
    auto over = test::simulateJson(acceleratorScenario(kHotModel,
                                                       R"({"kind": "poisson", "rate_per_s": )" +
                                                           std::to_string(1.05 * best) + "}",
                                                       1, 50000),
                                   1);
    QVERIFY(over);
    QVERIFY(!over->stability.stable);
}

void TestSimAccelerator::perServerThermalStateIsIndependent()
{
    // Two servers, one shared queue, deterministic arrivals at a rate one server could not
    // sustain: both work, both heat up; each server's batches follow its own thermal state, so
    // the result is the same for any thread count and repeatable.
    const std::string json = acceleratorScenario(
        kHotModel, R"({"kind": "deterministic", "rate_per_s": 3000})", 2, 20000);
    auto a = test::simulateJson(json, 1);
    auto b = test::simulateJson(json, 4);
    QVERIFY2(a, a ? "" : qPrintable(test::describe(a.error())));
    QVERIFY(b);
    QCOMPARE(sim::resultToJson(*a).dump(), sim::resultToJson(*b).dump());
    QCOMPARE(a->serverUtilisation.size(), std::size_t(2));
    QVERIFY(a->serverUtilisation[0].value > 0.1 && a->serverUtilisation[1].value > 0.1);
}

void TestSimAccelerator::badModelsNameTheirKey_data()
{
    QTest::addColumn<QString>("service");
    QTest::addColumn<QString>("expectedStart");
    QTest::newRow("unknown model key")
        << QStringLiteral(
               R"({"kind": "accelerator", "model": {"accelerator": "t4", "workload": "resnet50", "clock": 3}})")
        << QStringLiteral("test.json: scenario.service.model.clock: unknown key");
    QTest::newRow("unknown preset")
        << QStringLiteral(
               R"({"kind": "accelerator", "model": {"accelerator": "t5", "workload": "resnet50"}})")
        << QStringLiteral("test.json: scenario.service.model.accelerator: ");
    QTest::newRow("model missing")
        << QStringLiteral(R"({"kind": "accelerator"})")
        << QStringLiteral("test.json: scenario.service.model: missing; expected an object");
    QTest::newRow("random variability")
        << QStringLiteral(
               R"({"kind": "accelerator", "model": {"accelerator": "t4", "workload": "resnet50"},
                             "distribution": {"kind": "exponential"}})")
        << QStringLiteral("test.json: scenario.service.distribution: must be deterministic for the "
                          "accelerator model (its thermal state follows the service times it "
                          "computes)");
}

void TestSimAccelerator::badModelsNameTheirKey()
{
    QFETCH(QString, service);
    QFETCH(QString, expectedStart);
    auto s = test::scenarioFrom(R"({"arrivals": {"kind": "poisson", "rate_per_s": 10},
        "policy": {"kind": "dynamic", "max_batch": 4}, "service": )" +
                                service.toStdString() + "}");
    QVERIFY(!s);
    const QString message = test::describe(s.error());
    QVERIFY2(message.startsWith(expectedStart), qPrintable(message));
}

QTEST_APPLESS_MAIN(TestSimAccelerator)
#include "tst_simaccelerator.moc"
