// Hostile JSON in projects and scenarios (issue 22): every wrongly typed or out-of-range value
// is an error naming its dotted key, never an uncaught exception, an undefined cast, a loop that
// does not end or a value silently ignored.
#include "analysis/projectregion.h"
#include "figure/figure.h"
#include "io/jsonfields.h"
#include "io/projectfile.h"
#include "sim/scenariojson.h"
#include "sim/simulator.h"

#include <QElapsedTimer>
#include <QtTest>

#include <chrono>
#include <thread>

using namespace bs;

namespace {

const char* kScenario = R"({"seed": 5, "requests": 3000, "warmup_requests": 300,
    "replications": 2, "arrivals": {"kind": "poisson", "rate_per_s": 500},
    "policy": {"kind": "dynamic", "max_batch": 4, "max_queue_delay_ms": 1},
    "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0.5}})";

nlohmann::json scenarioWith(const char* pointer, const nlohmann::json& value)
{
    auto scenario = nlohmann::json::parse(kScenario);
    scenario[nlohmann::json::json_pointer(pointer)] = value;
    return scenario;
}

} // namespace

class TestHostileJson : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void regionSectionTypesNameTheKey_data();
    void regionSectionTypesNameTheKey();
    void logAxisOverThe600DecadesOfADoubleEnds();
    void figureIndicesOutOfIntRangeAreErrors();
    void wholeNumbersBeyond2To53AreRejected_data();
    void wholeNumbersBeyond2To53AreRejected();
    void schemaOf2To64Minus1IsNewerNotMinus1();
    void duplicateKeysAreRejectedWithTheirPath_data();
    void duplicateKeysAreRejectedWithTheirPath();
    void scenarioValuesThatStopSimulatedTime_data();
    void scenarioValuesThatStopSimulatedTime();
    void cancelActsWithinTheSlowestAcceptedScenario();
};

void TestHostileJson::regionSectionTypesNameTheKey_data()
{
    QTest::addColumn<QByteArray>("region");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* name, const char* region, const char* expected) {
        QTest::newRow(name) << QByteArray(region) << QString::fromUtf8(expected);
    };
    // Regression: robust "yes" / 1 and objective 5 threw nlohmann type errors (abort).
    row("robust yes", R"({"sla_p99_ms": 15, "robust": "yes"})",
        "region.robust: must be true or false");
    row("robust 1", R"({"sla_p99_ms": 15, "robust": 1})", "region.robust: must be true or false");
    row("objective 5", R"({"sla_p99_ms": 15, "objective": 5})",
        "region.objective: must be max-throughput, min-energy or min-p99");
    // Regression: a power limit of "x" was dropped and the curve pack ignored the limit.
    row("max power x", R"({"sla_p99_ms": 15, "max_power_w": "x"})",
        "region.max_power_w: must be a number");
    row("sla text", R"({"sla_p99_ms": "15"})", "region.sla_p99_ms: must be a number");
    row("axis not a list", R"({"sla_p99_ms": 15, "max_batch_values": 4})",
        "region.max_batch_values: must be a list of numbers");
    row("axis item text", R"({"sla_p99_ms": 15, "rate_per_s_values": [100, "a"]})",
        "region.rate_per_s_values[1]: must be a number");
}

void TestHostileJson::regionSectionTypesNameTheKey()
{
    QFETCH(QByteArray, region);
    QFETCH(QString, expected);
    const auto regionJson = nlohmann::json::parse(region.toStdString());
    auto spec = analysis::regionSpecFromSections(nlohmann::json::parse(kScenario),
                                                 nlohmann::json::object(), regionJson);
    QVERIFY(!spec);
    QCOMPARE(QString::fromStdString(spec.error().message), expected);
    // The same section through a project (what `report` and the GUI open).
    data::Project project;
    project.scenarios = nlohmann::json::array({nlohmann::json::parse(kScenario)});
    project.region = regionJson;
    auto ofProject = analysis::regionSpecOfProject(project);
    QVERIFY(!ofProject);
    QCOMPARE(QString::fromStdString(ofProject.error().message), expected);
}

void TestHostileJson::logAxisOverThe600DecadesOfADoubleEnds()
{
    // Regression: padding 1e-300..1e300 gave 0..inf, and the decade loop from log10(0) = -inf
    // never ended (2 GB in 13 s, then bad_alloc). Also the same from JSON (a memo figure).
    const auto json = nlohmann::json::parse(R"({"title": "p99", "x_log": true, "y_log": true,
        "series": [{"name": "s", "kind": "line",
                    "points": [[1e-300, 1e-300], [1e300, 1e300], [1e-308, 1.7e308]]}]})");
    auto figure = figure::figureFromJson(json, "memo.evidence[0].figure");
    QVERIFY2(figure, figure ? "" : figure.error().toString().c_str());
    const std::string svg = figure::renderFigureSvg(*figure);
    QVERIFY(svg.starts_with("<svg"));
    QVERIFY(svg.size() < 200000);
    // Linear axes over the whole double range.
    figure->xLog = figure->yLog = false;
    figure->series[0].points = {{-1.7e308, -1.7e308}, {1.7e308, 1.7e308}};
    QVERIFY(figure::renderFigureSvg(*figure).size() < 200000);
}

void TestHostileJson::figureIndicesOutOfIntRangeAreErrors()
{
    // Regression: int(1e308) for a colour index is undefined behaviour (UBSan).
    const auto json = nlohmann::json::parse(
        R"({"series": [{"name": "s", "kind": "line", "colour_index": 1e308, "points": []}]})");
    auto figure = figure::figureFromJson(json, "memo.evidence[0].figure");
    QVERIFY(!figure);
    QVERIFY2(figure.error().message.find("memo.evidence[0].figure.series[0].colour_index") !=
                 std::string::npos,
             figure.error().message.c_str());
}

void TestHostileJson::wholeNumbersBeyond2To53AreRejected_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("1e308") << QByteArray(R"({"n": 1e308})");
    QTest::newRow("2^63") << QByteArray(R"({"n": 9223372036854775808})");
    QTest::newRow("-2^63 - 1") << QByteArray(R"({"n": -9223372036854775809})");
    QTest::newRow("2^53 + 2") << QByteArray(R"({"n": 9007199254740994})");
}

void TestHostileJson::wholeNumbersBeyond2To53AreRejected()
{
    // Regression: the cast of 1e308 or 2^63 to int64 was undefined (UBSan abort in the project
    // fuzz target through playbook.options.max_simulated_requests).
    QFETCH(QByteArray, text);
    auto json = io::parseJson(text.toStdString(), "t.json");
    QVERIFY(json);
    io::JsonFields fields(*json, "playbook.options", "t.json");
    fields.integerOr("n", 7, io::NumberRule::count(1000));
    auto status = fields.finish();
    QVERIFY(!status);
    QVERIFY2(status.error().message.starts_with("playbook.options.n: must be a whole number "
                                                "between -2^53 and 2^53"),
             status.error().message.c_str());
    const auto largest = nlohmann::json::parse(R"({"n": 9007199254740992})");
    io::JsonFields exact(largest, "x");
    QCOMPARE(exact.integer("n"), std::int64_t(9007199254740992));
}

void TestHostileJson::schemaOf2To64Minus1IsNewerNotMinus1()
{
    // Regression: get<int64_t>() of 18446744073709551615 is -1 ("invalid project schema -1").
    auto project = io::loadProjectFromBytes(R"({"schema": 18446744073709551615})", "p.bsproj");
    QVERIFY(!project);
    QCOMPARE(project.error().code, ErrorCode::Unsupported);
    QVERIFY2(project.error().message.find("project schema 18446744073709551615") !=
                 std::string::npos,
             project.error().message.c_str());
}

void TestHostileJson::duplicateKeysAreRejectedWithTheirPath_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("key");
    QTest::newRow("top") << QByteArray(R"({"schema": 1, "schema": 99})") << "schema";
    QTest::newRow("nested") << QByteArray(R"({"region": {"sla_p99_ms": 15, "sla_p99_ms": 900}})")
                            << "region.sla_p99_ms";
    QTest::newRow("in array")
        << QByteArray(R"({"scenarios": [{"seed": 1}, {"a": [1, {"b": 2}], "seed": 1, "seed": 2}]})")
        << "scenarios[1].seed";
    QTest::newRow("after nested array")
        << QByteArray(R"({"x": [[1, 2], [3]], "y": {"z": [{}, {"k": 1, "k": 1}]}})") << "y.z[1].k";
}

void TestHostileJson::duplicateKeysAreRejectedWithTheirPath()
{
    // Regression: nlohmann keeps the last of two equal keys silently.
    QFETCH(QByteArray, text);
    QFETCH(QString, key);
    auto json = io::parseJson(text.toStdString(), "p.bsproj");
    QVERIFY(!json);
    QCOMPARE(QString::fromStdString(json.error().message),
             key + QStringLiteral(": the key is given twice in the same object (which value was "
                                  "meant is unclear)"));
    // Equal keys in different objects are fine.
    QVERIFY(io::parseJson(R"({"a": {"k": 1}, "b": {"k": 1}, "c": [{"k": 1}, {"k": 2}]})", "ok"));
}

void TestHostileJson::scenarioValuesThatStopSimulatedTime_data()
{
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* name, const char* pointer, const char* value, const char* expected) {
        QTest::newRow(name) << QString::fromLatin1(pointer) << QByteArray(value)
                            << QString::fromUtf8(expected);
    };
    // Regressions: each of these ran forever.
    row("mmpp dwell 5e-324", "/arrivals",
        R"({"kind": "mmpp2", "rates_per_s": [100, 200], "mean_dwell_s": [5e-324, 1]})",
        "scenario.arrivals.mean_dwell_s[0]: must be at least 1e-06 (got 4.94066e-324)");
    row("mmpp dwell 1e308", "/arrivals",
        R"({"kind": "mmpp2", "rates_per_s": [0, 200], "mean_dwell_s": [1e308, 1]})",
        "scenario.arrivals.mean_dwell_s[0]: must be at most 1e+09 (got 1e+308)");
    row("mmpp switching per request", "/arrivals",
        R"({"kind": "mmpp2", "rates_per_s": [0.001, 0.001], "mean_dwell_s": [1e-6, 1e-6]})",
        "scenario.arrivals.mean_dwell_s: too short for the rates: fewer than 0.01 requests "
        "arrive per dwell cycle (rates_per_s x mean_dwell_s)");
    row("gamma cv 5e-324", "/arrivals", R"({"kind": "gamma", "rate_per_s": 100, "cv": 5e-324})",
        "scenario.arrivals.cv: must be 0 or at least 0.001 (got 4.94066e-324)");
    row("diurnal period 5e-324", "/arrivals",
        R"({"kind": "poisson", "rate_per_s": 100,
            "profile": {"kind": "diurnal", "period_s": 5e-324, "amplitude": 0.5}})",
        "scenario.arrivals.profile.period_s: must be at least 0.001 (got 4.94066e-324)");
    row("diurnal amplitude edge", "/arrivals",
        R"({"kind": "poisson", "rate_per_s": 100,
            "profile": {"kind": "diurnal", "period_s": 60, "amplitude": 0.9999999999999999}})",
        "scenario.arrivals.profile.amplitude: must be at most 0.99 (got 1); the rate would "
        "almost stop at the trough");
    row("ramp multiplier tiny", "/arrivals",
        R"({"kind": "poisson", "rate_per_s": 100,
            "profile": {"kind": "ramp", "times_s": [0, 10], "multipliers": [1, 1e-300]}})",
        "scenario.arrivals.profile.multipliers[1]: must be at least 0.001 (got 1e-300)");
    row("rate 1e-300", "/arrivals", R"({"kind": "poisson", "rate_per_s": 1e-300})",
        "scenario.arrivals.rate_per_s: must be at least 0.001 (got 1e-300)");
    // Regression: a service cv of 1e150 reported 0% utilisation.
    row("service cv 1e150", "/service",
        R"({"kind": "linear", "base_ms": 1, "per_item_ms": 0.5,
            "distribution": {"kind": "lognormal", "cv": 1e150}})",
        "scenario.service.distribution.cv: must be at most 10 (got 1e+150)");
    row("service time 1e308 ms", "/service", R"({"kind": "exponential", "mean_ms": 1e308})",
        "scenario.service.mean_ms: must be at most 1e+09 (got 1e+308)");
}

void TestHostileJson::scenarioValuesThatStopSimulatedTime()
{
    QFETCH(QString, pointer);
    QFETCH(QByteArray, value);
    QFETCH(QString, expected);
    const auto json =
        scenarioWith(pointer.toStdString().c_str(), nlohmann::json::parse(value.toStdString()));
    auto scenario = sim::scenarioFromJson(json, "s.json");
    QVERIFY(!scenario);
    QCOMPARE(QString::fromStdString(scenario.error().message), expected);
}

void TestHostileJson::cancelActsWithinTheSlowestAcceptedScenario()
{
    // The slowest scenario the reader accepts: about 200 MMPP switches per request. Cancel was
    // checked every 64 Ki requests (seconds here); now every 4 Ki (tens of milliseconds).
    auto json = scenarioWith("/arrivals", nlohmann::json::parse(R"({"kind": "mmpp2",
        "rates_per_s": [0, 10], "mean_dwell_s": [1e-6, 1e-3]})"));
    json["requests"] = 100000000;
    json["replications"] = 1;
    json["policy"]["max_batch"] = 1;
    json["service"] = {{"kind", "linear"}, {"base_ms", 0.001}, {"per_item_ms", 0}};
    auto scenario = sim::scenarioFromJson(json, "s.json");
    QVERIFY2(scenario, scenario ? "" : scenario.error().toString().c_str());
    CancelToken cancel;
    QElapsedTimer sinceCancel;
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        sinceCancel.start();
        cancel.cancel();
    });
    auto result = sim::simulate(*scenario, {}, Progress::null(), cancel);
    const qint64 reactionMs = sinceCancel.elapsed();
    canceller.join();
    QVERIFY(!result);
    QCOMPARE(result.error().code, ErrorCode::Cancelled);
    // 100 ms is the goal on an idle machine; the bound leaves room for a loaded CI host.
    QVERIFY2(reactionMs < 1000, QByteArray::number(reactionMs).constData());
}

QTEST_GUILESS_MAIN(TestHostileJson)
#include "tst_hostile_json.moc"
