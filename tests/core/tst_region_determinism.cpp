// The region analysis gives the same result whatever runs it: 1 or 2 threads, one machine or
// --shard i/N slices joined by mergeRegions; the coarse preview comes first and is complete;
// merge refuses shard sets that do not fit; cancellation stops it.
#include "regiontesthelpers.h"

#include <QtTest>

using namespace bs;
using analysis::RegionResult;
using analysis::RegionStage;

namespace {

/// Random arrivals and service (so a thread-dependent order would show), power for the energy
/// constraint and the 3-objective Pareto front, short runs (the full run is 6000 requests x 3).
const char* kSpec = R"({
  "scenario": {"seed": 11, "requests": 6000, "warmup_requests": 600, "replications": 3,
    "arrivals": {"kind": "poisson", "rate_per_s": 1000},
    "policy": {"kind": "dynamic", "max_batch": 8, "max_queue_delay_ms": 1},
    "service": {"kind": "linear", "base_ms": 1.5, "per_item_ms": 0.4,
                "distribution": {"kind": "gamma", "cv": 0.3}},
    "power": {"idle_w": 20, "busy_w": 120}},
  "axes": [{"name": "max_batch", "values": [1, 4, 16]},
           {"name": "max_queue_delay_ms", "values": [0, 2]},
           {"name": "rate_per_s", "values": [300, 900, 1800, 2600]}],
  "constraints": {"sla_p99_ms": 12, "max_energy_per_inference_j": 0.2},
  "objective": "max-throughput",
  "refinement": {"screen_requests": 1500, "screen_warmup_requests": 200, "max_replications": 6},
  "capacity": {"max_evaluations": 6},
  "headroom": {"max_evaluations": 4}
})";

analysis::RegionSpec spec()
{
    auto parsed = test::regionSpecFrom(kSpec);
    if (!parsed)
        qFatal("bad test spec: %s", parsed.error().toString().c_str());
    return *parsed;
}

std::string dumped(const RegionResult& r)
{
    return analysis::toJson(r).dump();
}

Expected<RegionResult> mergeOf(std::vector<RegionResult> shards, std::size_t threads = 2)
{
    analysis::RegionOptions options;
    options.threads = threads;
    return analysis::mergeRegions(std::move(shards), options);
}

} // namespace

class TestRegionDeterminism : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void identicalForOneAndTwoThreads();
    void previewComesFirstAndCoversEveryCell();
    void shardedThenMergedEqualsSingleRun_data();
    void shardedThenMergedEqualsSingleRun();
    void shardedResultsSurviveJson();
    void mergeRefusesShardSetsThatDoNotFit();
    void badShardIndexIsAnError();
    void cancellationStops();

private:
    RegionResult m_single; ///< 2 threads, one shard.
};

void TestRegionDeterminism::initTestCase()
{
    auto single = test::computeOn(spec(), 2);
    QVERIFY2(single, single ? "" : qPrintable(test::describe(single.error())));
    m_single = *single;
    // The grid must exercise what determinism is about: every kind of cell and method.
    const auto& s = m_single.summary;
    QVERIFY(s.feasible > 0 && s.infeasible > 0 && s.unstable > 0);
    QVERIFY(s.shortRun > 0 && s.simulated > 0 && s.analytic > 0);
    QVERIFY(!m_single.paretoCells.empty());
    QVERIFY(m_single.recommendation && m_single.recommendation->headroom);
    QCOMPARE(m_single.capacity.size(), std::size_t(6));
}

void TestRegionDeterminism::identicalForOneAndTwoThreads()
{
    const auto one = test::computeOn(spec(), 1);
    QVERIFY2(one, one ? "" : qPrintable(test::describe(one.error())));
    QVERIFY(*one == m_single);
    QCOMPARE(dumped(*one), dumped(m_single));
}

void TestRegionDeterminism::previewComesFirstAndCoversEveryCell()
{
    int previews = 0;
    RegionResult preview;
    analysis::RegionOptions options;
    options.threads = 2;
    const auto result = analysis::computeRegion(spec(), options, Progress::null(), CancelToken(),
                                                [&](const RegionResult& r) {
                                                    ++previews;
                                                    preview = r;
                                                });
    QVERIFY(result);
    QCOMPARE(previews, 1);
    QCOMPARE(preview.stage, RegionStage::Preview);
    QCOMPARE(preview.cells.size(), m_single.cells.size());
    std::size_t pending = 0;
    for (std::size_t i = 0; i < preview.cells.size(); ++i) {
        const auto& p = preview.cells[i];
        const auto& f = m_single.cells[i];
        QCOMPARE(p.index, f.index);
        pending += p.pending;
        // A cell the coarse pass decided keeps its numbers (its Pareto mark is redone among
        // the final cells) unless it is a feasible one near the boundary, which a full run
        // confirms; a pending one is refined.
        if (!p.pending) {
            auto decided = p;
            decided.paretoOptimal = f.paretoOptimal;
            const bool confirmed = p.status == analysis::CellStatus::Feasible &&
                                   p.method == analysis::CellMethod::ShortRun &&
                                   f.method == analysis::CellMethod::Simulated;
            QVERIFY(decided == f || confirmed);
        } else
            QVERIFY(f.method == analysis::CellMethod::Simulated && !f.pending);
    }
    QVERIFY(pending > 0);
    QVERIFY(preview.capacity.empty());
    QVERIFY(!preview.recommendation || !preview.recommendation->headroom);
    // The preview does not change the final result.
    QVERIFY(*result == m_single);
}

void TestRegionDeterminism::shardedThenMergedEqualsSingleRun_data()
{
    QTest::addColumn<int>("shards");
    QTest::addColumn<int>("threads");
    QTest::newRow("2 shards, 1 thread") << 2 << 1;
    QTest::newRow("4 shards, 2 threads") << 4 << 2;
}

void TestRegionDeterminism::shardedThenMergedEqualsSingleRun()
{
    QFETCH(int, shards);
    QFETCH(int, threads);
    std::vector<RegionResult> parts;
    std::size_t cells = 0;
    // Given in reverse order: merge must not depend on it.
    for (int i = shards - 1; i >= 0; --i) {
        auto part =
            test::computeOn(spec(), std::size_t(threads), std::size_t(i), std::size_t(shards));
        QVERIFY2(part, part ? "" : qPrintable(test::describe(part.error())));
        QCOMPARE(part->stage, RegionStage::Shard);
        QVERIFY(!part->recommendation);
        cells += part->cells.size();
        parts.push_back(std::move(*part));
    }
    QCOMPARE(cells, m_single.cells.size());
    const auto merged = mergeOf(std::move(parts), std::size_t(threads));
    QVERIFY2(merged, merged ? "" : qPrintable(test::describe(merged.error())));
    QVERIFY(*merged == m_single);
    QCOMPARE(dumped(*merged), dumped(m_single));
}

void TestRegionDeterminism::shardedResultsSurviveJson()
{
    // What the CLI does: shards written as JSON, read back, merged.
    std::vector<RegionResult> parts;
    for (std::size_t i = 0; i < 3; ++i) {
        auto part = test::computeOn(spec(), 2, i, 3);
        QVERIFY(part);
        auto back = analysis::regionResultFromJson(
            nlohmann::json::parse(analysis::toJson(*part).dump()), "shard.json");
        QVERIFY2(back, back ? "" : qPrintable(test::describe(back.error())));
        QVERIFY(*back == *part);
        parts.push_back(std::move(*back));
    }
    const auto merged = mergeOf(std::move(parts));
    QVERIFY(merged);
    QVERIFY(*merged == m_single);
    // And the complete result reads back identical too.
    auto back = analysis::regionResultFromJson(
        nlohmann::json::parse(analysis::toJson(m_single).dump()), "region.json");
    QVERIFY2(back, back ? "" : qPrintable(test::describe(back.error())));
    QVERIFY(*back == m_single);
}

void TestRegionDeterminism::mergeRefusesShardSetsThatDoNotFit()
{
    std::vector<RegionResult> parts;
    for (std::size_t i = 0; i < 3; ++i) {
        auto part = test::computeOn(spec(), 2, i, 3);
        QVERIFY(part);
        parts.push_back(std::move(*part));
    }
    // An empty string when merging `set` fails with a message holding `fragment`.
    const auto problem = [](std::vector<RegionResult> set, const std::string& fragment) {
        const auto merged = mergeOf(std::move(set));
        if (merged)
            return "merged although: " + fragment;
        const std::string text = merged.error().toString();
        return text.find(fragment) == std::string::npos ? "'" + text + "' lacks '" + fragment + "'"
                                                        : std::string();
    };
    const auto expectError = [&](std::vector<RegionResult> set, const std::string& fragment) {
        const std::string text = problem(std::move(set), fragment);
        QVERIFY2(text.empty(), text.c_str());
    };
    expectError({}, "no shard results");
    expectError({parts[0], parts[2]}, "shard(s) 1 of 3 are missing");
    expectError({parts[0], parts[1], parts[1]},
                "shards[2] (shard 1/3): this shard index is given twice");
    expectError({parts[0], parts[1], m_single}, "its stage is 'complete'");
    auto otherSpec = parts;
    otherSpec[1].spec.constraints.slaP99S *= 2;
    expectError(otherSpec, "different region spec");
    auto missingCell = parts;
    missingCell[2].cells.pop_back();
    expectError(missingCell, "its cells are not those of its policies");
}

void TestRegionDeterminism::badShardIndexIsAnError()
{
    const auto result = test::computeOn(spec(), 1, 3, 3);
    QVERIFY(!result);
    QCOMPARE(result.error().code, ErrorCode::Usage);
    QVERIFY(result.error().message.find("below the count") != std::string::npos);
}

void TestRegionDeterminism::cancellationStops()
{
    CancelToken cancel;
    analysis::RegionOptions options;
    options.threads = 2;
    // Cancel as soon as the preview arrives: refinement must not run to the end.
    const auto result = analysis::computeRegion(spec(), options, Progress::null(), cancel,
                                                [&](const RegionResult&) { cancel.cancel(); });
    QVERIFY(!result);
    QCOMPARE(result.error().code, ErrorCode::Cancelled);
}

QTEST_APPLESS_MAIN(TestRegionDeterminism)
#include "tst_region_determinism.moc"
