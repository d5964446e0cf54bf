// The LLM region's load, replica, tensor-parallel and power axes, its capacity curves, Pareto
// front and shards (core/analysis/llmregion.h, REGION.md "LLM servers"), on cases with known
// answers.
//
// Linear step of 5 ms + 0.04 ms per prefill token + 0.5 ms per decoding sequence; every prompt
// 1,000 tokens and every output 20, so one request alone takes a 45 ms prefill step (its first
// token) and 19 decode steps of 5.5 ms: S = 149.5 ms.
#include "analysis/llmregion.h"
#include "analysis/llmregionpack.h"
#include "analysis/pareto.h"
#include "analysis/projectregion.h"
#include "io/projectfile.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"
#include "llmsimtesthelpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace bs;
using analysis::LlmCellStatus;
using analysis::LlmConstraint;

namespace {

constexpr double kServiceS = 0.1495;
constexpr double kFirstTokenS = 0.045;

analysis::LlmRegionResult compute(const analysis::LlmRegionSpec& spec,
                                  const analysis::LlmRegionOptions& options = {})
{
    auto result = analysis::computeLlmRegion(spec, options);
    if (!result)
        qFatal("%s", result.error().toString().c_str());
    return std::move(*result);
}

const analysis::LlmRegionCell& cellWith(const analysis::LlmRegionResult& r, int replicas,
                                        double load)
{
    for (const auto& c : r.cells) {
        if (c.knobs.replicas == replicas && c.knobs.load == load)
            return c;
    }
    qFatal("no cell with %d replicas at %g", replicas, load);
}

/// A roofline scenario of Llama-3.1-8B on an H100 (config written into `dir`).
analysis::LlmRegionSpec rooflineSpec(const QTemporaryDir& dir)
{
    std::ofstream(dir.filePath(QStringLiteral("config.json")).toStdString())
        << test::kLlama8bConfig;
    auto scenario = llmsim::llmScenarioFromJson(nlohmann::json::parse(R"({
        "kind": "llm", "seed": 3, "replications": 3,
        "engine": {"policy": "vllm_v1", "num_gpu_blocks": 20000},
        "step": {"kind": "roofline", "model_config": "config.json", "accelerator": "h100-sxm",
                 "interconnect_gb_per_s": 450},
        "arrivals": {"kind": "poisson", "rate_per_s": 20, "requests": 600,
                     "prompt_tokens": {"kind": "fixed", "tokens": 2000},
                     "output_tokens": {"kind": "fixed", "tokens": 200}}})"));
    if (!scenario)
        qFatal("%s", scenario.error().toString().c_str());
    analysis::LlmRegionSpec spec;
    spec.scenario = *scenario;
    spec.maxNumSeqs = {64};
    spec.maxNumBatchedTokens = {2048, 8192};
    spec.limits.ttftP99Ms = 5000.0;
    spec.limits.tpotP99Ms = 200.0;
    return spec;
}

} // namespace

class TestLlmRegionAxes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void oneSeatEngineIsAnMD1Queue()
    {
        // max_num_seqs 1 serves one request at a time in exactly S: an M/D/1 queue, whose mean
        // wait is rho S / (2 (1 - rho)) (Pollaczek-Khinchine); TTFT adds the prefill step.
        auto spec = test::linearRegionSpec();
        spec.ratesPerS = {2.0, 4.0};
        const auto r = compute(spec);
        for (const double rate : {2.0, 4.0}) {
            const auto& c = cellWith(r, 1, rate);
            const double rho = rate * kServiceS;
            const double theoryMs = (rho * kServiceS / (2.0 * (1.0 - rho)) + kFirstTokenS) * 1e3;
            const auto& e = c.metrics.ttftMeanMs;
            qInfo("rate %.0f/s: TTFT mean %.2f [%.2f, %.2f] ms, M/D/1 %.2f ms", rate, e.value,
                  e.ciLow, e.ciHigh, theoryMs);
            QVERIFY(std::abs(e.value - theoryMs) <= std::max(2.0 * e.halfWidth(), 0.05 * theoryMs));
            QCOMPARE(analysis::llmCellEvidence(r.spec, c),
                     std::string("simulated, 5 x 2000 requests"));
            // Throughput is the offered load: 20 tokens per request.
            QVERIFY(std::abs(c.metrics.outputTokensPerS.value - 20.0 * rate) < 0.05 * 20 * rate);
        }
    }

    void capacityIsTheLastLoadMetAndNamesWhatFails()
    {
        // One seat saturates at 1 / S = 6.69 requests/s: at 8 and 12 the queue grows all run.
        auto spec = test::linearRegionSpec();
        spec.maxNumSeqs = {1, 4};
        spec.ratesPerS = {12.0, 2.0, 8.0, 4.0}; // any order
        const auto r = compute(spec);
        QCOMPARE(r.capacity.size(), std::size_t(2));
        const auto& oneSeat = r.capacity[0];
        QCOMPARE(oneSeat.knobs.maxNumSeqs, 1);
        QCOMPARE(oneSeat.knobs.load, 4.0);
        QVERIFY(oneSeat.firstFailingCell);
        QCOMPARE(r.cells[*oneSeat.firstFailingCell].knobs.load, 8.0);
        QCOMPARE(oneSeat.failingBinding, LlmConstraint::TtftP99);
        QVERIFY(!oneSeat.nonMonotone);
        // Four seats share decode steps: past one seat's saturation they still serve 8/s.
        const auto& fourSeats = r.capacity[1];
        QCOMPARE(fourSeats.knobs.maxNumSeqs, 4);
        QVERIFY(fourSeats.knobs.load >= 8.0);
        QVERIFY(fourSeats.knobs.load > oneSeat.knobs.load);
        const auto csv = analysis::llmCapacityCsv(r);
        QVERIFY(csv.find("capacity_rate_per_s") != std::string::npos);
        QVERIFY(csv.find(",8,ttft_p99,") != std::string::npos);
    }

    void headroomOfOneSeatEndsWhereItsQueueBuilds()
    {
        // A replay of evenly spaced requests (gap g) on one seat is a D/D/1 queue: no wait
        // while the gap exceeds the service time S; at load multiple m above g / S request k
        // waits k (S - g / m), so the TTFT p99 over N requests crosses its limit where
        // (limit - TTFT alone) = 0.99 (N - 1) (S - g / m). The search must bracket that.
        auto spec = test::linearRegionSpec();
        const double gapS = 0.5;
        const int n = 2000;
        auto& arrivals = spec.scenario.arrivals;
        arrivals.kind = llmsim::LlmArrivalSpec::Kind::Replay;
        for (int k = 0; k < n; ++k)
            arrivals.requests.push_back({double(k) * gapS, 1000, 20});
        const auto r = compute(spec);
        QVERIFY(r.recommendation && r.recommendation->loadHeadroom);
        const auto& cell = r.cells[r.recommendation->cell];
        // S and the lone request's TTFT as the engine serves them (no request overlaps).
        const double serviceS = cell.metrics.e2eP99Ms.value / 1e3;
        const double aloneS = cell.metrics.ttftP99Ms.value / 1e3;
        QVERIFY(std::abs(serviceS - kServiceS) < 1e-9 && std::abs(aloneS - kFirstTokenS) < 1e-9);
        const double saturation = gapS / serviceS;
        const double slopeS = (spec.limits.ttftP99Ms / 1e3 - aloneS) / (0.99 * double(n - 1));
        const double crossing = gapS / (serviceS - slopeS);
        const auto& h = *r.recommendation->loadHeadroom;
        qInfo("headroom x%.4f met, x%.4f fails (%d simulations); saturation x%.4f, TTFT p99 "
              "crosses its limit at x%.4f",
              h.multiplier, h.failingMultiplier, h.simulations, saturation, crossing);
        QVERIFY(h.converged);
        QVERIFY(h.failingMultiplier / h.multiplier <= analysis::kLlmHeadroomResolution);
        QVERIFY(h.multiplier <= crossing * 1.001);
        QVERIFY(h.failingMultiplier >= crossing * 0.999);
        QCOMPARE(h.binding, LlmConstraint::TtftP99);
        QVERIFY(h.simulations <= 10);
        // A replay has no rate of its own: the pack gives the multiple, no req/s.
        const auto pack = analysis::llmRegionToJson(r);
        QCOMPARE(pack["recommendation"]["load_headroom"]["multiplier"].get<double>(), h.multiplier);
        QVERIFY(pack["recommendation"]["load_headroom"]["max_rate_per_s"].is_null());
    }

    void headroomAgreesWithTheCapacityCurve()
    {
        // The recommended cell's configuration meets 2 and 4 req/s and fails at 8: the search
        // starts from that bracket (no simulation repeats a grid cell), and the headroom's
        // rate lies between the capacity and the first failing load.
        auto spec = test::linearRegionSpec();
        spec.ratesPerS = {2.0, 4.0, 8.0};
        const auto r = compute(spec);
        QVERIFY(r.recommendation && r.recommendation->loadHeadroom);
        const auto& rec = r.cells[r.recommendation->cell];
        QCOMPARE(rec.knobs.load, 4.0);
        const auto& h = *r.recommendation->loadHeadroom;
        const double rate = analysis::llmOfferedRatePerS(r.spec, rec.index, h.multiplier);
        qInfo("capacity 4/s on the grid, fails at 8/s; headroom x%.3f = %.3f req/s, x%.3f "
              "fails on %s (%d simulations)",
              h.multiplier, rate, h.failingMultiplier, analysis::llmConstraintName(h.binding),
              h.simulations);
        QVERIFY(h.multiplier >= 1.0 && h.failingMultiplier <= 2.0);
        QVERIFY(rate >= 4.0 && rate < 8.0);
        // One seat saturates at 1 / S = 6.69 req/s: the M/D/1 TTFT p99 crosses 2 s below it.
        QVERIFY(rate < 1.0 / kServiceS);
        QCOMPARE(h.binding, LlmConstraint::TtftP99);
        QVERIFY(h.converged);
        // Doubling never ran: the grid's failure bounded the search.
        QVERIFY(h.simulations <= 6);
        const auto pack = analysis::llmRegionToJson(r);
        QCOMPARE(pack["recommendation"]["load_headroom"]["max_rate_per_s"].get<double>(), rate);
        QCOMPARE(pack["recommendation"]["load_headroom"]["binding"].get<std::string>(),
                 std::string("ttft_p99"));
        // Direct runs at the two ends: below, every replication's TTFT p99 is under the
        // limit; above, at least one is over it (so it cannot be confidently met).
        for (const double multiple : {h.multiplier, h.failingMultiplier}) {
            auto scenario = analysis::llmCellScenario(r.spec, rec.index);
            scenario.arrivals.ratePerS *= multiple;
            auto run = llmsim::simulateLlm(scenario, {});
            QVERIFY(run);
            double worstMs = 0.0;
            for (const auto& replication : run->replications)
                worstMs = std::max(worstMs, replication.ttft.p99S * 1e3);
            qInfo("x%.3f: worst replication's TTFT p99 %.1f ms", multiple, worstMs);
            QCOMPARE(worstMs <= spec.limits.ttftP99Ms, multiple == h.multiplier);
        }
    }

    void headroomNamesALimitItCannotDecide()
    {
        // Sixteen seats at 10 req/s: the TTFT p99 of three replications spreads wide, so just
        // above the recommended load the estimate still meets 1 s but its interval holds it.
        // The headroom stops there (not confidently met counts as failing) and says why,
        // rather than naming the smallest margin (TPOT).
        auto spec = test::linearRegionSpec();
        spec.scenario.replications = 3;
        spec.maxNumSeqs = {16};
        spec.maxNumBatchedTokens = {256};
        spec.ratesPerS = {5.0, 10.0, 20.0};
        spec.limits.ttftP99Ms = 1000.0;
        const auto r = compute(spec);
        QVERIFY(r.recommendation && r.recommendation->loadHeadroom);
        const auto& rec = r.cells[r.recommendation->cell];
        const auto& h = *r.recommendation->loadHeadroom;
        qInfo("recommended at %.0f/s (binding %s); headroom x%.3f, x%.3f %s on %s", rec.knobs.load,
              analysis::llmConstraintName(rec.binding), h.multiplier, h.failingMultiplier,
              h.failingUndecided ? "undecided" : "fails", analysis::llmConstraintName(h.binding));
        QVERIFY(h.failingUndecided);
        QCOMPARE(h.binding, LlmConstraint::TtftP99);
        QVERIFY(rec.binding != LlmConstraint::TtftP99);
        // The failing multiple judged by itself: met on its estimates, TTFT undecided.
        auto alone = spec;
        alone.ratesPerS.clear();
        alone.scenario.engine.maxNumSeqs = 16;
        alone.scenario.engine.maxNumBatchedTokens = 256;
        alone.scenario.arrivals.ratePerS = rec.knobs.load * h.failingMultiplier;
        const auto point = analysis::judgeLlmOperatingPoint(alone, "");
        QVERIFY(point);
        QCOMPARE(point->cell.status, LlmCellStatus::Feasible);
        QVERIFY(!point->cell.confident);
        for (const auto& check : point->cell.checks)
            QCOMPARE(check.decided, check.kind != LlmConstraint::TtftP99);
        const auto pack = analysis::llmRegionToJson(r);
        QVERIFY(pack["recommendation"]["load_headroom"]["failing_undecided"].get<bool>());
    }

    void replicasSplitPoissonArrivalsExactly()
    {
        // Two replicas at 8/s each see Poisson at 4/s: with the same seed, the very arrivals of
        // one replica at 4/s. Latencies are equal; the region's throughput doubles.
        auto spec = test::linearRegionSpec();
        spec.maxNumSeqs = {4};
        spec.ratesPerS = {4.0, 8.0};
        spec.replicas = {1, 2};
        const auto r = compute(spec);
        const auto& one = cellWith(r, 1, 4.0);
        const auto& two = cellWith(r, 2, 8.0);
        QCOMPARE(two.metrics.ttftP99Ms.value, one.metrics.ttftP99Ms.value);
        QCOMPARE(two.metrics.tpotP99Ms.value, one.metrics.tpotP99Ms.value);
        QCOMPARE(two.metrics.outputTokensPerS.value, 2.0 * one.metrics.outputTokensPerS.value);
        QCOMPARE(two.knobs.gpus(), 2);
        // And a reproducer of the cell is one replica's scenario.
        const auto scenario = analysis::llmCellScenario(r.spec, two.index);
        QCOMPARE(scenario.arrivals.replicas, 2);
        QCOMPARE(scenario.arrivals.ratePerS, 8.0);
    }

    void replayIsCompressedAndSplitRoundRobin()
    {
        llmsim::LlmScenario s = test::linearRegionSpec().scenario;
        s.arrivals = {};
        for (int i = 0; i < 6; ++i)
            s.arrivals.requests.push_back({1.0 * i, 100, 5});
        s.arrivals.rateMultiplier = 4.0;
        s.arrivals.replicas = 2;
        s.replications = 1;
        auto run = llmsim::simulateLlm(s);
        QVERIFY(run);
        QCOMPARE(run->requests.size(), std::size_t(3)); // requests 0, 2, 4
        QCOMPARE(run->requests[1].arrivalS, 0.5);       // request 2 at 2 s / 4
        QCOMPARE(run->requests[2].arrivalS, 1.0);
        // The keys survive the scenario JSON, and absent keys mean 1.
        const auto json = llmsim::llmScenarioToJson(s);
        QCOMPARE(json["arrivals"]["rate_multiplier"].get<double>(), 4.0);
        auto back = llmsim::llmScenarioFromJson(json);
        QVERIFY(back);
        QVERIFY(*back == s);
        s.arrivals.rateMultiplier = 1.0;
        s.arrivals.replicas = 1;
        QVERIFY(!llmsim::llmScenarioToJson(s)["arrivals"].contains("replicas"));
    }

    void powerCapAxisHoldsEveryGpuUnderItsCap()
    {
        QTemporaryDir dir;
        auto spec = rooflineSpec(dir);
        spec.powerCapsW = {250.0, 700.0};
        spec.tensorParallel = {1, 2};
        spec.limits.maxPowerPerGpuW = 400.0;
        spec.limits.maxEnergyPerOutputTokenJ = 10.0;
        spec.limits.maxTemperatureC = 200.0;
        analysis::LlmRegionOptions options;
        options.baseDirectory = dir.path().toStdString();
        const auto r = compute(spec, options);
        QCOMPARE(r.cells.size(), std::size_t(8));
        bool capBinds = false;
        for (const auto& c : r.cells) {
            QVERIFY(c.status != LlmCellStatus::Refused);
            const auto& m = c.metrics;
            qInfo("tp %d cap %g budget %d: %.1f W/GPU, %.3f J/token, %.1f C, %.0f tokens/s",
                  c.knobs.tensorParallel, c.knobs.powerCapW, c.knobs.maxNumBatchedTokens,
                  m.powerPerGpuW.value, m.energyPerOutputTokenJ.value, m.peakTemperatureC.value,
                  m.outputTokensPerS.value);
            QVERIFY(m.powerPerGpuW.value <= c.knobs.powerCapW * (1 + 1e-9));
            QVERIFY(std::isfinite(m.energyPerOutputTokenJ.value));
            QVERIFY(std::isfinite(m.peakTemperatureC.value));
            QCOMPARE(c.checks.size(), std::size_t(5));
            for (const auto& check : c.checks)
                QCOMPARE(check.satisfied, check.margin >= 0.0 || std::isnan(check.margin));
            capBinds = capBinds || (c.knobs.powerCapW == 700.0 &&
                                    c.binding == LlmConstraint::PowerPerGpu && !c.checks.empty());
        }
        // Under the 700 W cap a loaded H100 draws more than the 400 W limit; at 250 W it cannot.
        QVERIFY(capBinds);
        for (const auto& c : r.cells) {
            if (c.knobs.powerCapW == 250.0)
                QVERIFY(c.binding != LlmConstraint::PowerPerGpu ||
                        c.status == LlmCellStatus::Feasible);
        }
    }

    void aSaturatedSeatServesOneRequestPerServiceTime()
    {
        // Little's law on a seat-limited cell: one seat always busy (L = 1) holds each request
        // for S, so it completes 1 / S = 6.69 requests/s, 133.8 output tokens/s, whatever the
        // overload (8 and 12 req/s offered).
        auto spec = test::linearRegionSpec();
        spec.ratesPerS = {8.0, 12.0};
        const auto r = compute(spec);
        for (const double rate : {8.0, 12.0}) {
            const auto& c = cellWith(r, 1, rate);
            const double littleTokensPerS = 20.0 / kServiceS;
            qInfo("offered %.0f/s: %.2f output tokens/s, Little's law %.2f", rate,
                  c.metrics.outputTokensPerS.value, littleTokensPerS);
            QVERIFY(std::abs(c.metrics.outputTokensPerS.value / littleTokensPerS - 1.0) < 0.01);
            QCOMPARE(int(c.status), int(LlmCellStatus::Infeasible));
            QCOMPARE(int(c.binding), int(LlmConstraint::TtftP99));
        }
    }

    void aGoodputDemandBindsWhereTheLoadFallsShort()
    {
        // Goodput counts the requests meeting the scenario's SLA per second; with no SLA every
        // request counts, so goodput is the offered rate below saturation. A demand of 3/s
        // fails at 2/s (the binding limit) and is met at 4/s, where it is the tightest limit.
        auto spec = test::linearRegionSpec();
        spec.ratesPerS = {2.0, 4.0};
        spec.limits.minGoodputPerS = 3.0;
        const auto r = compute(spec);
        const auto& low = cellWith(r, 1, 2.0);
        const auto& high = cellWith(r, 1, 4.0);
        QVERIFY(std::abs(low.metrics.goodputPerS.value - 2.0) < 0.1);
        QCOMPARE(int(low.status), int(LlmCellStatus::Infeasible));
        QCOMPARE(int(low.binding), int(LlmConstraint::Goodput));
        QCOMPARE(int(high.status), int(LlmCellStatus::Feasible));
        QCOMPARE(int(high.binding), int(LlmConstraint::Goodput));
        for (const auto& check : high.checks)
            if (check.kind == LlmConstraint::Goodput)
                QVERIFY(std::abs(check.margin - (check.value - 3.0) / 3.0) < 1e-12);
    }

    void energyAndTemperatureLimitsBindWhereTheyAreExceeded()
    {
        // The power axis spreads energy per token and peak temperature over the cells; a limit
        // between their lowest and highest values fails the cells above it (binding, where it
        // is their only failure) and passes the others. The Pareto front counts energy too.
        QTemporaryDir dir;
        auto spec = rooflineSpec(dir);
        spec.powerCapsW = {250.0, 700.0};
        spec.ratesPerS = {6.0}; // below either cap's capacity: the latency limits hold
        analysis::LlmRegionOptions options;
        options.baseDirectory = dir.path().toStdString();
        const auto loose = compute(spec, options);
        double lowJ = 1e9, highJ = 0.0, lowC = 1e9, highC = 0.0;
        for (const auto& c : loose.cells) {
            lowJ = std::min(lowJ, c.metrics.energyPerOutputTokenJ.value);
            highJ = std::max(highJ, c.metrics.energyPerOutputTokenJ.value);
            lowC = std::min(lowC, c.metrics.peakTemperatureC.value);
            highC = std::max(highC, c.metrics.peakTemperatureC.value);
        }
        qInfo("energy %.4f-%.4f J/token, peak %.1f-%.1f C", lowJ, highJ, lowC, highC);
        QVERIFY(highJ > 1.05 * lowJ && highC > lowC + 1.0);
        // `tight` has one limit at `limit`, halfway between the cells' lowest and highest; the
        // region is left in `r` (a void lambda: Qt's checks return on failure).
        analysis::LlmRegionResult r;
        const auto judged = [&](const analysis::LlmRegionSpec& tight, LlmConstraint kind,
                                double limit, auto valueOf) {
            r = compute(tight, options);
            int bound = 0, passed = 0;
            for (const auto& c : r.cells) {
                const bool exceeds = valueOf(c.metrics) > limit;
                int failures = 0;
                for (const auto& check : c.checks) {
                    failures += check.satisfied ? 0 : 1;
                    if (check.kind == kind)
                        QCOMPARE(check.satisfied, !exceeds);
                }
                if (exceeds && failures == 1) {
                    QCOMPARE(int(c.binding), int(kind));
                    ++bound;
                }
                passed += exceeds ? 0 : 1;
            }
            QVERIFY(bound >= 1 && passed >= 1);
        };
        auto byEnergySpec = spec;
        byEnergySpec.limits.maxEnergyPerOutputTokenJ = 0.5 * (lowJ + highJ);
        judged(byEnergySpec, LlmConstraint::EnergyPerToken, 0.5 * (lowJ + highJ),
               [](const analysis::LlmCellMetrics& m) { return m.energyPerOutputTokenJ.value; });
        if (QTest::currentTestFailed())
            return;
        const analysis::LlmRegionResult byEnergy = r;
        auto byTemperatureSpec = spec;
        byTemperatureSpec.limits.maxTemperatureC = 0.5 * (lowC + highC);
        judged(byTemperatureSpec, LlmConstraint::Temperature, 0.5 * (lowC + highC),
               [](const analysis::LlmCellMetrics& m) { return m.peakTemperatureC.value; });
        if (QTest::currentTestFailed())
            return;
        const auto point = [](const analysis::LlmRegionCell& c) {
            return std::vector<double>{-c.metrics.outputTokensPerS.value, c.metrics.ttftP99Ms.value,
                                       c.metrics.tpotP99Ms.value,
                                       c.metrics.energyPerOutputTokenJ.value};
        };
        const auto usable = [](const analysis::LlmRegionCell& c) {
            return c.status == LlmCellStatus::Feasible && c.confident;
        };
        for (const auto& c : byEnergy.cells) {
            if (!usable(c))
                continue;
            bool dominated = false;
            for (const auto& other : byEnergy.cells)
                dominated =
                    dominated || (usable(other) && analysis::dominates(point(other), point(c)));
            QCOMPARE(c.pareto, !dominated);
        }
    }

    void powerLimitsNeedAnAcceleratorModel()
    {
        auto spec = test::linearRegionSpec();
        spec.limits.maxPowerPerGpuW = 300.0;
        auto result = analysis::computeLlmRegion(spec);
        QVERIFY(!result);
        QVERIFY(result.error().message.find("--power-cap-w: needs a roofline step") !=
                std::string::npos);
        spec = test::linearRegionSpec();
        spec.scenario.arrivals.kind = llmsim::LlmArrivalSpec::Kind::Replay;
        spec.ratesPerS = {1.0};
        result = analysis::computeLlmRegion(spec);
        QVERIFY(!result);
        QVERIFY(result.error().message.find("--rate-multiplier") != std::string::npos);
    }

    void paretoFrontHoldsExactlyTheUndominatedCells()
    {
        auto spec = test::linearRegionSpec();
        spec.maxNumSeqs = {2, 4, 8};
        spec.maxNumBatchedTokens = {256, 1024, 2048};
        spec.ratesPerS = {4.0, 6.0};
        const auto r = compute(spec);
        QVERIFY(!r.pareto.empty());
        const auto point = [](const analysis::LlmRegionCell& c) {
            return std::vector<double>{-c.metrics.outputTokensPerS.value, c.metrics.ttftP99Ms.value,
                                       c.metrics.tpotP99Ms.value};
        };
        for (const auto& c : r.cells) {
            if (c.status != LlmCellStatus::Feasible || !c.confident)
                continue;
            bool dominated = false;
            for (const auto& other : r.cells)
                dominated =
                    dominated || (other.status == LlmCellStatus::Feasible && other.confident &&
                                  analysis::dominates(point(other), point(c)));
            QCOMPARE(c.pareto, !dominated);
        }
        if (r.recommended())
            QVERIFY(r.recommended()->pareto);
    }

    void shardsMergeIntoTheWholeRegion()
    {
        auto spec = test::linearRegionSpec();
        spec.maxNumSeqs = {1, 4};
        spec.maxNumBatchedTokens = {512, 2048};
        spec.ratesPerS = {2.0, 8.0};
        spec.limits.minOutputTokensPerS = 30.0;
        const auto whole = compute(spec);
        std::vector<analysis::LlmRegionResult> shards;
        for (std::size_t i : {2u, 0u, 1u}) { // any order
            analysis::LlmRegionOptions options;
            options.shardIndex = i;
            options.shardCount = 3;
            const auto shard = compute(spec, options);
            QVERIFY(shard.isShard());
            QVERIFY(!shard.recommendation);
            // Through the file, as a Slurm array task hands it over.
            const auto json = nlohmann::json::parse(analysis::llmRegionToJson(shard).dump());
            auto back = analysis::llmRegionFromJson(json, "shard.json");
            QVERIFY2(back, back ? "" : back.error().toString().c_str());
            shards.push_back(std::move(*back));
        }
        auto merged = analysis::mergeLlmRegions(shards);
        QVERIFY2(merged, merged ? "" : merged.error().toString().c_str());
        // The headroom simulates: the merging machine searches it.
        QVERIFY(merged->recommendation && !merged->recommendation->loadHeadroom);
        QVERIFY(analysis::findLlmLoadHeadroom(*merged, 0));
        QCOMPARE(analysis::llmRegionToJson(*merged).dump(),
                 analysis::llmRegionToJson(whole).dump());
        // The same load headroom the whole run found.
        QVERIFY(merged->recommendation && merged->recommendation->loadHeadroom);
        QVERIFY(merged->recommendation->loadHeadroom->simulations > 0);
        // A missing slice and a repeated one are errors naming the shard.
        shards.pop_back();
        auto missing = analysis::mergeLlmRegions(shards);
        QVERIFY(!missing);
        QVERIFY2(missing.error().message.find("is missing") != std::string::npos,
                 missing.error().message.c_str());
        shards.push_back(shards.front());
        auto twice = analysis::mergeLlmRegions(shards);
        QVERIFY(!twice);
        QVERIFY(twice.error().message.find("shards[2]: slice 2 is given twice") !=
                std::string::npos);
    }

    void specJsonRoundTripsThroughAProject()
    {
        auto spec = test::linearRegionSpec();
        spec.maxNumSeqs = {1, 4};
        spec.maxNumBatchedTokens = {512, 2048};
        spec.rateMultipliers = {0.5, 1.0};
        spec.replicas = {1, 2};
        spec.limits.minGoodputPerS = 1.5;
        spec.limits.maxPreemptionsPerRequest = 0.1;
        spec.objective = analysis::LlmObjective::MaxTokensPerGpu;
        data::Project project;
        project.llm = analysis::llmRegionSpecToJson(spec);
        // Through the project file's bytes, as the GUI saves and the CLI reads it.
        const std::string bytes = io::projectToJson(project, {}).dump();
        auto reopened = io::loadProjectFromBytes(bytes, "llm.bsproj");
        QVERIFY2(reopened, reopened ? "" : reopened.error().toString().c_str());
        auto back = analysis::llmRegionSpecOfProject(*reopened, "llm.bsproj");
        QVERIFY2(back, back ? "" : back.error().toString().c_str());
        QVERIFY(back->has_value());
        QVERIFY((*back)->scenario == spec.scenario);
        QCOMPARE(analysis::llmRegionSpecToJson(**back).dump(),
                 analysis::llmRegionSpecToJson(spec).dump());
        QVERIFY(analysis::computeLlmRegion(**back).hasValue());

        // A project without an LLM server has none and keeps its bytes.
        data::Project plain;
        QVERIFY(!io::projectToJson(plain, {}).contains("llm"));
        QVERIFY(!analysis::llmRegionSpecOfProject(plain, "p.bsproj")->has_value());

        // Bad keys are named under "llm".
        project.llm["limits"]["tpot_p99_ms"] = -1;
        auto bad = analysis::llmRegionSpecOfProject(project, "p.bsproj");
        QVERIFY(!bad);
        QVERIFY2(bad.error().toString().find("llm.limits.tpot_p99_ms") != std::string::npos,
                 bad.error().toString().c_str());
        project.llm = analysis::llmRegionSpecToJson(spec);
        project.llm["axes"]["max_num_seqs"] = nlohmann::json::array();
        bad = analysis::llmRegionSpecOfProject(project, "p.bsproj");
        QVERIFY(!bad);
        QVERIFY2(bad.error().toString().find(
                     "llm.axes: --max-num-seqs: needs at least one value") != std::string::npos,
                 bad.error().toString().c_str());
    }

    void previewShowsTheCoarseLatticeAndChangesNothing()
    {
        auto spec = test::linearRegionSpec();
        spec.maxNumSeqs = {1, 4, 16};
        spec.maxNumBatchedTokens = {512, 2048};
        spec.ratesPerS = {2.0, 8.0, 12.0};
        const auto plain = compute(spec);
        int previews = 0;
        analysis::LlmRegionOptions options;
        options.preview = [&](const analysis::LlmRegionResult& preview) {
            ++previews;
            std::size_t judged = 0;
            for (const auto& c : preview.cells) {
                const auto even = [&c](analysis::LlmAxis axis) {
                    return c.at[std::size_t(axis)] % 2 == 0;
                };
                const bool coarse = even(analysis::LlmAxis::MaxNumSeqs) &&
                                    even(analysis::LlmAxis::MaxNumBatchedTokens) &&
                                    even(analysis::LlmAxis::Load);
                QCOMPARE(c.pending, !coarse);
                judged += !c.pending;
                if (!c.pending) // a coarse cell is already its final self
                    QCOMPARE(c.metrics.ttftP99Ms.value,
                             plain.cells[c.index].metrics.ttftP99Ms.value);
            }
            QCOMPARE(judged, std::size_t(2 * 1 * 2)); // seqs 1, 16 x budget 512 x rates 2, 12
            QCOMPARE(preview.feasible + preview.infeasible + preview.refused, judged);
            QVERIFY(preview.capacity.empty()); // pending loads would cut the curves short
        };
        const auto withPreview = compute(spec, options);
        QCOMPARE(previews, 1);
        QCOMPARE(analysis::llmRegionToJson(withPreview).dump(),
                 analysis::llmRegionToJson(plain).dump());
    }

    void figuresDrawTheGridCapacityAndFront()
    {
        auto spec = test::linearRegionSpec();
        spec.maxNumSeqs = {1, 4};
        spec.maxNumBatchedTokens = {512, 2048};
        spec.ratesPerS = {2.0, 8.0};
        const auto r = compute(spec);
        const auto figures = analysis::llmRegionFigures(r);
        QCOMPARE(figures.size(), std::size_t(3)); // no power model: no energy plot
        QCOMPARE(figures[0].name, std::string("llm-region-heatmap"));
        const auto& h = *figures[0].figure.heatmap;
        QCOMPARE(h.rowLabels, (std::vector<std::string>{"1", "4"}));
        QCOMPARE(h.columnLabels, (std::vector<std::string>{"512", "2048"}));
        QVERIFY(figures[0].figure.caption.find("rate_per_s") != std::string::npos);
        QCOMPARE(figures[1].name, std::string("llm-capacity"));
        QCOMPARE(figures[1].figure.series.size(), std::size_t(2));
        QCOMPARE(figures[2].name, std::string("llm-tokens-ttft"));
        QTemporaryDir dir;
        auto written = analysis::writeLlmCurvePack(r, dir.path().toStdString());
        QVERIFY(written);
        for (const char* name : {"capacity.csv", "pareto.csv", "llm-region-heatmap.svg",
                                 "llm-capacity.svg", "llm-tokens-ttft.svg"})
            QVERIFY2(std::find(written->begin(), written->end(), name) != written->end(), name);
    }
};

QTEST_GUILESS_MAIN(TestLlmRegionAxes)
#include "tst_llmregionaxes.moc"
