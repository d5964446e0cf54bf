// The LLM region's KV-memory axis, vLLM's gpu_memory_utilization (core/analysis/llmregion.h,
// REGION.md "LLM servers"), on a case whose KV cache is worked out by hand.
//
// Llama-3.1-8B in bf16 on a 20 GiB GPU with the default 1 GiB runtime reserve: the weights are
// 8,030,261,248 parameters x 2 bytes, one token's KV is 2 x 32 layers x 8 KV heads x 128 x 2
// bytes = 128 KiB, a 16-token block 2 MiB. Every request is a 1,000-token prompt and 20 output
// tokens, so it holds ceil(1,000 / 16) = 63 blocks when admitted and 64 by its last token.
// More KV memory lets more requests decode beside each prefill: TTFT falls and TPOT rises.
#include "analysis/llmregion.h"
#include "analysis/llmregionpack.h"
#include "analysis/projectregion.h"
#include "io/projectfile.h"
#include "llmsim/llmsimulator.h"
#include "llmsimtesthelpers.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace bs;
using analysis::LlmCellStatus;
using analysis::LlmConstraint;

namespace {

constexpr double kGib = 1024.0 * 1024.0 * 1024.0;
constexpr double kDeviceGib = 20.0;
constexpr double kWeightBytes = 8030261248.0 * 2.0;
constexpr double kBlockBytes = 16.0 * 2 * 32 * 8 * 128 * 2;
constexpr std::int64_t kBlocksPerRequest = 64;

/// The KV blocks vLLM's sizing leaves at a utilization: what the weights and the reserve
/// leave of utilization x device memory, in whole blocks.
std::int64_t blocksByHand(double utilization)
{
    const double kvBytes = utilization * kDeviceGib * kGib - kWeightBytes - 1.0 * kGib;
    return kvBytes > 0 ? std::int64_t(std::floor(kvBytes / kBlockBytes)) : 0;
}

/// test::linearRegionSpec with its KV cache sized from memory, 64 seats (the cache binds first)
/// and 2,000 requests (5 replications) at 12 and 200 req/s; TTFT p99 at most 450 ms, TPOT p99 at
/// most 52 ms.
analysis::LlmRegionSpec kvMemorySpec()
{
    auto spec = test::linearRegionSpec();
    auto& s = spec.scenario;
    llmsim::KvMemorySpec memory;
    memory.modelConfig = "builtin:llama-3.1-8b";
    memory.deviceMemoryGib = kDeviceGib;
    s.engine.kvMemory = memory;
    s.engine.numGpuBlocks = 0;
    s.arrivals.count = 2000;
    s.replications = 5;
    spec.maxNumSeqs = {64};
    spec.ratesPerS = {12.0, 200.0};
    spec.gpuMemoryUtilizations = {0.5, 0.8, 0.85, 0.9, 0.95};
    spec.limits.ttftP99Ms = 450.0;
    spec.limits.tpotP99Ms = 52.0;
    return spec;
}

const analysis::LlmRegionCell& cellAt(const analysis::LlmRegionResult& r, double utilization,
                                      double rate)
{
    for (const auto& c : r.cells)
        if (c.knobs.gpuMemoryUtilization == utilization && c.knobs.load == rate)
            return c;
    qFatal("no cell at gpu_memory_utilization %g, %g req/s", utilization, rate);
}

} // namespace

class TestLlmRegionKvMemory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eachCellSizesItsCacheFromItsUtilization()
    {
        const auto spec = kvMemorySpec();
        for (std::size_t i = 0; i < analysis::llmCellCount(spec); ++i) {
            const auto cell = analysis::llmCellAt(spec, i);
            const auto scenario = analysis::llmCellScenario(spec, i);
            QVERIFY(scenario.engine.kvMemory.has_value());
            QCOMPARE(scenario.engine.kvMemory->gpuMemoryUtilization,
                     cell.knobs.gpuMemoryUtilization);
            QCOMPARE(cell.knobs.gpuMemoryUtilization,
                     spec.gpuMemoryUtilizations.at(
                         cell.at[std::size_t(analysis::LlmAxis::GpuMemoryUtilization)]));
        }
        // Saturated (200 req/s), the simulator's cache is the hand-computed one and it fills:
        // as many requests decode at once as it holds at 64 blocks each (a 63-block prompt more
        // never fits), and a partial prefill may take the blocks left over.
        for (const double utilization : {0.85, 0.9, 0.95}) {
            auto at = std::array<std::size_t, analysis::kLlmAxisCount>{};
            const auto& values = spec.gpuMemoryUtilizations;
            at[std::size_t(analysis::LlmAxis::GpuMemoryUtilization)] =
                std::size_t(std::find(values.begin(), values.end(), utilization) - values.begin());
            at[std::size_t(analysis::LlmAxis::Load)] = 1;
            auto scenario = analysis::llmCellScenario(spec, analysis::llmCellIndex(spec, at));
            scenario.replications = 1;
            const auto run = llmsim::simulateLlm(scenario);
            QVERIFY2(run, run ? "" : run.error().toString().c_str());
            QVERIFY(run->kvCapacity.has_value());
            const std::int64_t blocks = blocksByHand(utilization);
            QCOMPARE(run->kvCapacity->numGpuBlocks, blocks);
            std::int32_t peakDecoding = 0;
            std::int64_t peakBlocks = 0;
            for (const auto& step : run->steps) {
                peakDecoding = std::max(peakDecoding, step.decodeSeqs);
                peakBlocks = std::max(peakBlocks, step.kvBlocksUsed);
            }
            qInfo("gpu_memory_utilization %.2f: %lld blocks, peak %lld used, peak %d decoding",
                  utilization, static_cast<long long>(blocks), static_cast<long long>(peakBlocks),
                  peakDecoding);
            QCOMPARE(blocks / kBlocksPerRequest, blocks / (kBlocksPerRequest - 1));
            QCOMPARE(std::int64_t(peakDecoding), blocks / kBlocksPerRequest);
            QVERIFY(peakBlocks <= blocks && peakBlocks > blocks - kBlocksPerRequest);
        }
    }

    void tooLittleMemoryIsRefusedAndMoreMemoryMeetsTheLoad()
    {
        const auto result = analysis::computeLlmRegion(kvMemorySpec());
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        const auto& r = *result;
        QCOMPARE(r.cells.size(), std::size_t(10));
        // 0.5 x 20 GiB does not hold the 15 GiB of weights: the engine would not start.
        const auto& noRoom = cellAt(r, 0.5, 12.0);
        QCOMPARE(noRoom.status, LlmCellStatus::Refused);
        QVERIFY2(noRoom.note.find("leave no room for a KV block") != std::string::npos,
                 noRoom.note.c_str());
        // 0.8 leaves 21 blocks (336 tokens): a 1,000-token prompt never fits.
        QCOMPARE(blocksByHand(0.8), std::int64_t(21));
        const auto& tooSmall = cellAt(r, 0.8, 12.0);
        QCOMPARE(tooSmall.status, LlmCellStatus::Refused);
        QVERIFY2(tooSmall.note.find("scenario.arrivals: request") != std::string::npos,
                 tooSmall.note.c_str());
        // At 12 req/s the KV memory trades TTFT against TPOT: a small cache queues requests
        // (TTFT), a large one decodes more of them beside each prefill (TPOT); 0.9 meets both.
        const auto& small = cellAt(r, 0.85, 12.0);
        const auto& middle = cellAt(r, 0.9, 12.0);
        const auto& large = cellAt(r, 0.95, 12.0);
        for (const auto* c : {&small, &middle, &large})
            qInfo("12 req/s at %.2f: TTFT p99 %.0f ms, TPOT p99 %.1f ms, %s",
                  c->knobs.gpuMemoryUtilization, c->metrics.ttftP99Ms.value,
                  c->metrics.tpotP99Ms.value, analysis::llmConstraintName(c->binding));
        qInfo("0.9: TTFT p99 95%% interval [%.0f, %.0f] ms, TPOT p99 [%.1f, %.1f] ms",
              middle.metrics.ttftP99Ms.ciLow, middle.metrics.ttftP99Ms.ciHigh,
              middle.metrics.tpotP99Ms.ciLow, middle.metrics.tpotP99Ms.ciHigh);
        QVERIFY(small.metrics.ttftP99Ms.value > middle.metrics.ttftP99Ms.value &&
                middle.metrics.ttftP99Ms.value > large.metrics.ttftP99Ms.value);
        QVERIFY(small.metrics.tpotP99Ms.value < middle.metrics.tpotP99Ms.value &&
                middle.metrics.tpotP99Ms.value < large.metrics.tpotP99Ms.value);
        QCOMPARE(small.status, LlmCellStatus::Infeasible);
        QCOMPARE(small.binding, LlmConstraint::TtftP99);
        QCOMPARE(middle.status, LlmCellStatus::Feasible);
        QVERIFY(middle.confident);
        QCOMPARE(large.status, LlmCellStatus::Infeasible);
        QCOMPARE(large.binding, LlmConstraint::TpotP99);
        QVERIFY(r.recommendation.has_value());
        QCOMPARE(r.recommendation->cell, middle.index);
        // Saturated, more memory serves more tokens.
        QVERIFY(cellAt(r, 0.9, 200.0).metrics.outputTokensPerS.value >
                cellAt(r, 0.85, 200.0).metrics.outputTokensPerS.value);
    }

    void theAxisGoesIntoThePackAndTheSpecFile()
    {
        auto spec = kvMemorySpec();
        spec.gpuMemoryUtilizations = {0.9, 0.95};
        spec.ratesPerS = {12.0};
        const auto json = analysis::llmRegionSpecToJson(spec);
        QCOMPARE(json["axes"]["gpu_memory_utilization"], nlohmann::json::array({0.9, 0.95}));
        data::Project project;
        project.llm = json;
        auto back = analysis::llmRegionSpecOfProject(project, "kv.bsproj");
        QVERIFY2(back, back ? "" : back.error().toString().c_str());
        QVERIFY(back->has_value());
        QVERIFY(**back == spec);

        const auto result = analysis::computeLlmRegion(spec);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        const auto csv = analysis::llmCellsCsv(*result);
        QVERIFY2(csv.find("replicas,gpu_memory_utilization,max_num_seqs") != std::string::npos,
                 csv.c_str());
        QVERIFY(csv.find(",0.95,64,") != std::string::npos);
    }

    void theAxisNeedsACacheSizedFromMemory()
    {
        auto spec = test::linearRegionSpec();
        spec.gpuMemoryUtilizations = {0.9};
        auto result = analysis::computeLlmRegion(spec);
        QVERIFY(!result);
        QVERIFY2(result.error().message.find("--gpu-memory-utilization: needs the scenario's KV "
                                             "cache sized from memory") != std::string::npos,
                 result.error().message.c_str());
        spec = kvMemorySpec();
        spec.gpuMemoryUtilizations = {0.9, 1.5};
        result = analysis::computeLlmRegion(spec);
        QVERIFY(!result);
        QVERIFY2(result.error().message.find("1.5 is not a number above 0 and at most 1") !=
                     std::string::npos,
                 result.error().message.c_str());
        auto json = analysis::llmRegionSpecToJson(kvMemorySpec());
        json["axes"]["gpu_memory_utilization"] = nlohmann::json::array({0.0});
        data::Project project;
        project.llm = json;
        const auto bad = analysis::llmRegionSpecOfProject(project, "kv.bsproj");
        QVERIFY(!bad);
        QVERIFY2(bad.error().toString().find("llm.axes.gpu_memory_utilization") !=
                     std::string::npos,
                 bad.error().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestLlmRegionKvMemory)
#include "tst_llmregionkvmemory.moc"
