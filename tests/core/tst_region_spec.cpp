// Region specs: the JSON form reads back identical; bad inputs (empty axis, SLA <= 0, values
// out of range, unknown keys, ...) are errors naming the key, from JSON and from code; an
// overloaded grid gives unstable cells, not an error. And the Pareto front and recommendation
// on hand-built points.
#include "analysis/pareto.h"
#include "analysis/regionfinalize.h"
#include "regiontesthelpers.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace bs;
using analysis::CellStatus;
using analysis::RegionCell;
using analysis::RegionObjective;
using analysis::RegionResult;

namespace {

const char* kScenario = R"({"seed": 5, "requests": 3000, "warmup_requests": 300,
    "replications": 2, "arrivals": {"kind": "poisson", "rate_per_s": 500},
    "policy": {"kind": "dynamic", "max_batch": 4, "max_queue_delay_ms": 1},
    "service": {"kind": "linear", "base_ms": 1, "per_item_ms": 0.5},
    "power": {"idle_w": 10, "busy_w": 50}})";

/// A spec text with the given axes and constraints (JSON fragments) and extra top-level keys.
std::string specText(const std::string& axes, const std::string& constraints,
                     const std::string& extra = "")
{
    return std::string(R"({"scenario": )") + kScenario + R"(, "axes": )" + axes +
           R"(, "constraints": )" + constraints + extra + "}";
}

const std::string kAxes = R"([{"name": "max_batch", "values": [1, 2, 4]},
                              {"name": "rate_per_s", "values": [200, 800]}])";

RegionCell pointCell(std::size_t index, CellStatus status, double throughput, double p99S,
                     double energyJ)
{
    RegionCell c;
    c.index = index;
    c.status = status;
    c.metrics.stable = status != CellStatus::Unstable;
    c.metrics.throughputPerS.value = throughput;
    c.metrics.p99S.value = p99S;
    c.metrics.energyPerInferenceJ.value = energyJ;
    return c;
}

} // namespace

class TestRegionSpec : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void jsonRoundTrip_data();
    void jsonRoundTrip();
    void badSpecsNameTheKey_data();
    void badSpecsNameTheKey();
    void codeBuiltSpecsAreCheckedToo();
    void overloadedCellsAreUnstableNotErrors();
    void paretoFrontOfHandBuiltPoints();
    void paretoFrontMatchesBruteForce();
    void markParetoAndRecommendOnCells();
};

void TestRegionSpec::jsonRoundTrip_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("minimal") << QString::fromStdString(specText(kAxes, R"({"sla_p99_ms": 7.3})"));
    QTest::newRow("every setting") << QString::fromStdString(specText(
        R"([{"name": "servers", "values": [1, 3]},
            {"name": "max_queue_delay_ms", "values": [0, 0.1, 0.3, 2.5]},
            {"name": "rate_multiplier", "values": [0.5, 1.1]}])",
        R"({"sla_p99_ms": 0.3, "robust": true, "min_throughput_per_s": 120.5,
            "max_power_w": 45, "max_energy_per_inference_j": 0.07})",
        R"(, "objective": "min-energy",
             "refinement": {"screen": false, "screen_requests": 777, "screen_warmup_requests": 9,
                            "screen_replications": 3, "screen_stages": 3,
                            "screen_half_widths": 2.5,
                            "screen_max_rho": 0.8, "max_replications": 40},
             "capacity": {"enabled": false, "relative_tolerance": 0.01, "max_evaluations": 20},
             "headroom": {"relative_tolerance": 0.05, "max_evaluations": 7,
                          "max_arrival_cv": 4})"));
    QTest::newRow("accelerator axes")
        << QStringLiteral(R"({"scenario": {"arrivals": {"kind": "poisson", "rate_per_s": 100},
            "policy": {"kind": "dynamic", "max_batch": 8},
            "service": {"kind": "accelerator", "model": {"accelerator": "t4",
                        "workload": "resnet50", "precision": "int8"}}},
          "axes": [{"name": "precision", "values": ["int8", "fp16"]},
                   {"name": "power_cap_w", "values": [50, 70]}],
          "constraints": {"sla_p99_ms": 20, "max_temperature_c": 80},
          "objective": "min-p99"})");
}

void TestRegionSpec::jsonRoundTrip()
{
    QFETCH(QString, text);
    const auto spec = test::regionSpecFrom(text.toStdString());
    QVERIFY2(spec, spec ? "" : qPrintable(test::describe(spec.error())));
    const nlohmann::json written = analysis::toJson(*spec);
    const auto back = analysis::regionSpecFromJson(nlohmann::json::parse(written.dump()), "x");
    QVERIFY2(back, back ? "" : qPrintable(test::describe(back.error())));
    QVERIFY(*back == *spec);
    QCOMPARE(analysis::toJson(*back).dump(), written.dump());
    QCOMPARE(written["kind"].get<std::string>(), std::string("batchscope.region.spec"));
}

void TestRegionSpec::badSpecsNameTheKey_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    const auto row = [](const char* name, const std::string& text, const char* message) {
        QTest::newRow(name) << QString::fromStdString(text) << QString::fromUtf8(message);
    };
    const std::string sla = R"({"sla_p99_ms": 5})";
    row("empty axis", specText(R"([{"name": "max_batch", "values": []}])", sla),
        "region.json: region.axes[0].values: must not be empty (give at least one value)");
    row("SLA zero", specText(kAxes, R"({"sla_p99_ms": 0})"),
        "region.json: region.constraints.sla_p99_ms: must be greater than 0 (got 0)");
    row("SLA negative", specText(kAxes, R"({"sla_p99_ms": -2})"),
        "region.json: region.constraints.sla_p99_ms: must be greater than 0 (got -2)");
    row("SLA missing", specText(kAxes, R"({"max_power_w": 5})"),
        "region.json: region.constraints.sla_p99_ms: missing");
    row("max batch zero", specText(R"([{"name": "max_batch", "values": [1, 0]}])", sla),
        "region.json: region.axes[0].values[1]: max_batch must be a whole number from 1 to "
        "65536 (got 0)");
    row("max batch fraction", specText(R"([{"name": "max_batch", "values": [2.5]}])", sla),
        "region.axes[0].values[0]: max_batch must be a whole number from 1 to 65536 (got 2.5)");
    row("negative rate", specText(R"([{"name": "rate_per_s", "values": [10, -5]}])", sla),
        "region.axes[0].values[1]: rate_per_s must be greater than 0 (got -5)");
    row("negative delay", specText(R"([{"name": "max_queue_delay_ms", "values": [-1]}])", sla),
        "region.axes[0].values[0]: max_queue_delay_ms must be at least 0 (got -1)");
    row("too many servers", specText(R"([{"name": "servers", "values": [2000]}])", sla),
        "region.axes[0].values[0]: servers must be a whole number from 1 to 1024 (got 2000)");
    row("repeated value", specText(R"([{"name": "max_batch", "values": [4, 4]}])", sla),
        "region.axes[0].values[1]: 4 appears twice");
    row("repeated axis",
        specText(R"([{"name": "servers", "values": [1]}, {"name": "servers", "values": [2]}])",
                 sla),
        "region.axes[1].name: servers appears twice");
    row("two rate axes",
        specText(
            R"([{"name": "rate_per_s", "values": [1]}, {"name": "rate_multiplier", "values": [2]}])",
            sla),
        "region.axes[1].name: rate_per_s and rate_multiplier cannot both be axes");
    row("unknown axis", specText(R"([{"name": "batch", "values": [1]}])", sla),
        "region.axes[0].name: unknown axis 'batch'; expected one of: max_batch, "
        "max_queue_delay_ms, rate_per_s, rate_multiplier, servers, precision, power_cap_w");
    row("number as text", specText(R"([{"name": "max_batch", "values": ["8"]}])", sla),
        "region.axes[0].values[0]: must be a number");
    row("unknown top-level key", specText(kAxes, sla, R"(, "objectiv": "min-p99")"),
        "region.objectiv: unknown key");
    row("unknown constraint", specText(kAxes, R"({"sla_p99_ms": 5, "sla_p95_ms": 3})"),
        "region.constraints.sla_p95_ms: unknown key");
    row("unknown objective", specText(kAxes, sla, R"(, "objective": "fastest")"),
        "region.objective: ");
    row("precision without accelerator",
        specText(R"([{"name": "precision", "values": ["int8"]}])", sla),
        "region.axes[0].name: precision needs the accelerator service model");
    row("temperature without accelerator",
        specText(kAxes, R"({"sla_p99_ms": 5, "max_temperature_c": 80})"),
        "region.constraints.max_temperature_c: needs the accelerator service model");
    row("screen replications",
        specText(kAxes, sla, R"(, "refinement": {"screen_replications": 1})"),
        "region.refinement.screen_replications: must be a whole number from 2 to 1000 (got 1)");
    row("screen stages", specText(kAxes, sla, R"(, "refinement": {"screen_stages": 0})"),
        "region.refinement.screen_stages: must be a whole number from 1 to 4 (got 0)");
    row("bad scenario", R"({"scenario": {"policy": {"kind": "dynamic", "max_batch": 0}},
                           "axes": [], "constraints": {"sla_p99_ms": 5}})",
        "region.json: scenario");
    row("scenario missing", R"({"axes": [], "constraints": {"sla_p99_ms": 5}})",
        "region.scenario: missing");
    std::string many = "[";
    for (int i = 1; i <= 1001; ++i)
        many += (i > 1 ? "," : "") + std::to_string(i);
    many += "]";
    row("grid too large",
        specText(R"([{"name": "max_batch", "values": )" + many +
                     R"(}, {"name": "rate_per_s", "values": )" + many + "}]",
                 sla),
        "region.axes: the grid has more than 1000000 cells");
}

void TestRegionSpec::badSpecsNameTheKey()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const auto spec = test::regionSpecFrom(text.toStdString());
    QVERIFY(!spec);
    const QString got = test::describe(spec.error());
    QVERIFY2(got.contains(message), qPrintable(QString(QStringLiteral("got: ") + got)));
}

void TestRegionSpec::codeBuiltSpecsAreCheckedToo()
{
    auto good = test::regionSpecFrom(specText(kAxes, R"({"sla_p99_ms": 5})"));
    QVERIFY(good);
    auto noSla = *good;
    noSla.constraints.slaP99S = 0.0;
    auto emptyAxis = *good;
    emptyAxis.axes[1].values.clear();
    auto nanRate = *good;
    nanRate.axes[1].values[0] = std::nan("");
    const std::pair<analysis::RegionSpec, const char*> cases[] = {
        {noSla, "region.constraints.sla_p99_ms: must be greater than 0"},
        {emptyAxis, "region.axes[1].values: must not be empty"},
        {nanRate, "region.axes[1].values[0]: rate_per_s must be greater than 0"},
    };
    for (const auto& [spec, message] : cases) {
        const auto result = test::computeOn(spec, 1);
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::Value);
        QVERIFY2(result.error().message.find(message) != std::string::npos,
                 result.error().message.c_str());
    }
}

void TestRegionSpec::overloadedCellsAreUnstableNotErrors()
{
    // Capacity of max batch 1: 1 / 1.5 ms = 666.7 req/s; of 2: 2 / 2 ms = 1000 req/s.
    auto spec = test::regionSpecFrom(specText(
        R"([{"name": "max_batch", "values": [1, 2]}, {"name": "rate_per_s", "values": [5000, 9000]}])",
        R"({"sla_p99_ms": 5})"));
    QVERIFY(spec);
    spec->headroom.enabled = false;
    const auto result = test::computeOn(*spec, 2);
    QVERIFY2(result, result ? "" : qPrintable(test::describe(result.error())));
    QCOMPARE(result->summary.unstable, std::size_t(4));
    for (const auto& cell : result->cells) {
        QCOMPARE(cell.status, CellStatus::Unstable);
        QCOMPARE(cell.binding, analysis::ConstraintKind::Stability);
        QVERIFY2(cell.note.find("scenario.arrivals.rate_per_s") != std::string::npos,
                 cell.note.c_str());
        QCOMPARE(cell.method, analysis::CellMethod::Analytic); // nothing was simulated
        QCOMPARE(cell.simulatedRequests, std::uint64_t(0));
        QCOMPARE(cell.replications, 0);
    }
    QVERIFY(!result->recommendation);
    QVERIFY(!result->warnings.empty());
    QCOMPARE(QString::fromStdString(result->warnings.front()),
             QStringLiteral("no cell meets every constraint; nothing to recommend"));
    // The capacity search still finds each policy's rate below its stability limit.
    QCOMPARE(result->capacity.size(), std::size_t(2));
    for (const auto& point : result->capacity) {
        QVERIFY(point.maxRatePerS > 0.0);
        QVERIFY(point.maxRatePerS < point.stabilityLimitPerS);
    }
    QVERIFY(std::abs(result->capacity[0].stabilityLimitPerS - 1 / 0.0015) < 1e-6);
}

void TestRegionSpec::paretoFrontOfHandBuiltPoints()
{
    const double nan = std::nan("");
    // (2,2) is dominated by (1,2); equal points both stay; NaN takes no part.
    QCOMPARE(analysis::paretoFront({{1, 2}, {2, 1}, {2, 2}, {1, 2}, {3, 0}, {nan, 0}}),
             (std::vector<std::size_t>{0, 1, 3, 4}));
    QCOMPARE(analysis::paretoFront({{0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {1, 1, 1}, {0, 0, 1}}),
             (std::vector<std::size_t>{0, 1, 2, 4}));
    QCOMPARE(analysis::paretoFront({}), std::vector<std::size_t>{});
    QCOMPARE(analysis::paretoFront({{5, 5}}), std::vector<std::size_t>{0});
    QVERIFY(analysis::dominates({1, 1}, {1, 2}));
    QVERIFY(!analysis::dominates({1, 1}, {1, 1}));
    QVERIFY(!analysis::dominates({0, 2}, {1, 1}));
}

void TestRegionSpec::paretoFrontMatchesBruteForce()
{
    std::mt19937 random(42);
    std::uniform_int_distribution<int> value(0, 6); // small range: many ties and duplicates
    for (int round = 0; round < 50; ++round) {
        std::vector<std::vector<double>> points(40, std::vector<double>(3));
        for (auto& p : points) {
            for (auto& v : p)
                v = value(random);
        }
        std::vector<std::size_t> expected;
        for (std::size_t i = 0; i < points.size(); ++i) {
            bool dominated = false;
            for (std::size_t j = 0; j < points.size(); ++j)
                dominated = dominated || analysis::dominates(points[j], points[i]);
            if (!dominated)
                expected.push_back(i);
        }
        QCOMPARE(analysis::paretoFront(points), expected);
    }
}

void TestRegionSpec::markParetoAndRecommendOnCells()
{
    RegionResult result;
    result.cells = {
        pointCell(0, CellStatus::Feasible, 100, 0.010, 0.5),   // dominated by 1
        pointCell(1, CellStatus::Feasible, 200, 0.008, 0.4),   // front: best feasible throughput
        pointCell(2, CellStatus::Infeasible, 300, 0.020, 0.6), // front (most throughput)
        pointCell(3, CellStatus::Feasible, 150, 0.004, 0.3),   // front (lowest p99 and energy)
        pointCell(4, CellStatus::Unstable, 999, 0.001, 0.1),   // no metrics: no part
        pointCell(5, CellStatus::Feasible, 200, 0.008, 0.45),  // dominated by 1 (energy)
    };
    analysis::markPareto(result);
    QCOMPARE(result.paretoCells, (std::vector<std::size_t>{1, 2, 3}));
    QVERIFY(result.cells[1].paretoOptimal && !result.cells[0].paretoOptimal);
    QVERIFY(!result.cells[4].paretoOptimal);

    QCOMPARE(analysis::recommend(result, RegionObjective::MaxThroughput)->cell, std::size_t(1));
    QCOMPARE(analysis::recommend(result, RegionObjective::MinP99)->cell, std::size_t(3));
    QCOMPARE(analysis::recommend(result, RegionObjective::MinEnergy)->cell, std::size_t(3));
    const auto r = analysis::recommend(result, RegionObjective::MaxThroughput);
    QVERIFY2(r->reason.find("highest throughput (200 req/s) among 4 feasible") != std::string::npos,
             r->reason.c_str());
    for (auto& c : result.cells)
        c.status = c.status == CellStatus::Feasible ? CellStatus::Infeasible : c.status;
    QVERIFY(!analysis::recommend(result, RegionObjective::MaxThroughput));
}

QTEST_APPLESS_MAIN(TestRegionSpec)
#include "tst_region_spec.moc"
