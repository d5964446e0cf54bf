// The grid of an LLM region and its simulation (llmregion.h, REGION.md "LLM servers").
#include "analysis/llmregion.h"

#include "analysis/llmregionparts.h"
#include "llmsim/llmsimulator.h"
#include "sim/estimate.h"
#include "util/numbertext.h"
#include "util/threadpool.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <tuple>

namespace bs::analysis {

namespace {

using llmsim::LlmArrivalSpec;
using llmsim::LlmResult;
using llmsim::ReplicationMetrics;
using llmsim::StepSpec;

template <typename T>
Status checkAxis(const std::vector<T>& values, const char* option, T minimum, T maximum,
                 bool required)
{
    if (values.empty())
        return required
                   ? makeError(ErrorCode::Usage, std::string(option) + ": needs at least one value")
                   : Status();
    std::set<T> seen;
    for (T v : values) {
        if (!(v >= minimum && v <= maximum) || (!std::is_integral_v<T> && v <= 0))
            return makeError(ErrorCode::Usage,
                             std::string(option) + ": " + significant(double(v), 10) +
                                 (std::is_integral_v<T>
                                      ? " is not a whole number from " +
                                            significant(double(minimum), 10) + " to " +
                                            significant(double(maximum), 10)
                                      : " is not a number above 0 and at most " +
                                            significant(double(maximum), 10)));
        if (!seen.insert(v).second)
            return makeError(ErrorCode::Usage, std::string(option) + ": " +
                                                   significant(double(v), 10) + " is repeated");
    }
    return {};
}

Status checkLimit(const std::optional<double>& value, const char* option)
{
    if (value && (!std::isfinite(*value) || *value <= 0.0))
        return makeError(ErrorCode::Usage, std::string(option) +
                                               ": must be a number above 0 (got " +
                                               significant(*value, 6) + ")");
    return {};
}

Status checkLimits(const LlmRegionLimits& l)
{
    const std::pair<std::optional<double>, const char*> limits[] = {
        {l.ttftP99Ms, "--sla-ttft-ms"},
        {l.tpotP99Ms, "--sla-tpot-ms"},
        {l.maxItlP99Ms, "--sla-itl-ms"},
        {l.maxE2eP99Ms, "--sla-e2e-ms"},
        {l.minOutputTokensPerS, "--min-output-tokens-per-s"},
        {l.minGoodputPerS, "--min-goodput-per-s"},
        {l.maxPreemptionsPerRequest, "--max-preemptions-per-request"},
        {l.maxPowerPerGpuW, "--power-cap-w"},
        {l.maxEnergyPerOutputTokenJ, "--max-energy-per-output-token-j"},
        {l.maxTemperatureC, "--max-temperature-c"}};
    for (const auto& [value, option] : limits)
        if (auto status = checkLimit(value, option); !status)
            return status;
    return {};
}

/// Axes and limits that need the roofline step's accelerator model: the linear and profiled
/// step times know neither how TP splits the model nor any power.
Status checkNeedsAccelerator(const LlmRegionSpec& spec)
{
    const bool roofline = spec.scenario.step.kind == StepSpec::Kind::Roofline;
    const std::pair<bool, const char*> needs[] = {
        {!spec.tensorParallel.empty(), "--tensor-parallel"},
        {!spec.powerCapsW.empty(), "--power-cap-w-axis"},
        {spec.limits.maxPowerPerGpuW.has_value(), "--power-cap-w"},
        {spec.limits.maxEnergyPerOutputTokenJ.has_value(), "--max-energy-per-output-token-j"},
        {spec.limits.maxTemperatureC.has_value(), "--max-temperature-c"},
        {spec.objective == LlmObjective::MinEnergyPerToken, "--objective min-energy-per-token"}};
    for (const auto& [used, option] : needs) {
        if (used && !roofline)
            return makeError(ErrorCode::Usage,
                             std::string(option) +
                                 ": needs a roofline step (scenario.step.kind \"roofline\"), the "
                                 "only step model with an accelerator, its power and temperature");
    }
    if (!spec.gpuMemoryUtilizations.empty() && !spec.scenario.engine.kvMemory)
        return makeError(ErrorCode::Usage,
                         "--gpu-memory-utilization: needs the scenario's KV cache sized from "
                         "memory (engine.kv_memory: model config, device memory); its "
                         "num_gpu_blocks is a fixed count");
    if (spec.limits.maxTemperatureC && !spec.scenario.step.thermal)
        return makeError(ErrorCode::Usage, "--max-temperature-c: the scenario's step has "
                                           "\"thermal\": false, so no temperature is modelled");
    return {};
}

Status checkLoadAxes(const LlmRegionSpec& spec)
{
    if (!spec.ratesPerS.empty() && !spec.rateMultipliers.empty())
        return makeError(ErrorCode::Usage, "--rate-per-s, --rate-multiplier: give one load "
                                           "axis, not both");
    if (!spec.ratesPerS.empty() && spec.scenario.arrivals.kind != LlmArrivalSpec::Kind::Poisson)
        return makeError(ErrorCode::Usage,
                         "--rate-per-s: sets a Poisson scenario's rate; this scenario's arrivals "
                         "are a replay or fitted to a trace, so sweep them with --rate-multiplier");
    return {};
}

template <typename T>
T valueOr(const std::vector<T>& values, std::size_t at, T fallback)
{
    return values.empty() ? fallback : values.at(at);
}

sim::Estimate estimateOver(const std::vector<ReplicationMetrics>& replications,
                           const std::function<double(const ReplicationMetrics&)>& metric)
{
    std::vector<double> values;
    values.reserve(replications.size());
    for (const auto& m : replications)
        values.push_back(metric(m));
    return sim::estimateOf(values);
}

/// The cell's estimates from one replica's run: throughputs times the replicas (they are
/// alike), power per GPU of the replica's tensor-parallel group.
LlmCellMetrics metricsOf(const LlmResult& result, const LlmCellKnobs& knobs)
{
    const auto& reps = result.replications;
    const double replicas = knobs.replicas;
    const double tp = knobs.tensorParallel;
    LlmCellMetrics m;
    m.ttftP99Ms = estimateOver(reps, [](const auto& r) { return r.ttft.p99S * 1e3; });
    m.tpotP99Ms = estimateOver(reps, [](const auto& r) { return r.tpot.p99S * 1e3; });
    m.ttftMeanMs = estimateOver(reps, [](const auto& r) { return r.ttft.meanS * 1e3; });
    m.tpotMeanMs = estimateOver(reps, [](const auto& r) { return r.tpot.meanS * 1e3; });
    m.itlP99Ms = estimateOver(reps, [](const auto& r) { return r.itl.p99S * 1e3; });
    m.e2eP99Ms = estimateOver(reps, [](const auto& r) { return r.e2e.p99S * 1e3; });
    m.outputTokensPerS =
        estimateOver(reps, [&](const auto& r) { return r.outputTokensPerS * replicas; });
    m.goodputPerS = estimateOver(reps, [&](const auto& r) { return r.goodputPerS * replicas; });
    m.peakKvUse = estimateOver(reps, [](const auto& r) { return r.peakKvUse; });
    m.preemptionsPerRequest = estimateOver(reps, [](const auto& r) {
        return r.ttft.count ? double(r.preemptions) / double(r.ttft.count) : sim::kNaN;
    });
    m.powerPerGpuW = estimateOver(reps, [&](const auto& r) { return r.meanPowerW / tp; });
    m.energyPerOutputTokenJ =
        estimateOver(reps, [](const auto& r) { return r.energyPerOutputTokenJ; });
    m.peakTemperatureC = estimateOver(reps, [](const auto& r) { return r.peakTemperatureC; });
    return m;
}

/// The engine's up-front refusal of a load it could never finish under these knobs (a
/// request larger than the token budget without chunking, or than the KV cache; weights that
/// leave the KV cache no block at this memory share or tensor parallelism, as
/// llmsim::kvCapacity words it): a result of the cell, not a failure of the region. Any other
/// error is the scenario's, for every cell.
bool isRefusal(const Error& error)
{
    const auto startsWith = [&](const char* prefix) { return error.message.rfind(prefix, 0) == 0; };
    return error.code == ErrorCode::Value &&
           (startsWith("scenario.arrivals: request") ||
            // A KV memory too small for one block: the engine does not start with it.
            startsWith("scenario.engine.kv_memory: the weights"));
}

} // namespace

std::size_t llmAxisSize(const LlmRegionSpec& spec, LlmAxis axis)
{
    const auto size = [](std::size_t n) { return std::max<std::size_t>(n, 1); };
    switch (axis) {
    case LlmAxis::TensorParallel:
        return size(spec.tensorParallel.size());
    case LlmAxis::PowerCapW:
        return size(spec.powerCapsW.size());
    case LlmAxis::Replicas:
        return size(spec.replicas.size());
    case LlmAxis::GpuMemoryUtilization:
        return size(spec.gpuMemoryUtilizations.size());
    case LlmAxis::MaxNumSeqs:
        return size(spec.maxNumSeqs.size());
    case LlmAxis::MaxNumBatchedTokens:
        return size(spec.maxNumBatchedTokens.size());
    case LlmAxis::Load:
        return size(spec.ratesPerS.size() + spec.rateMultipliers.size());
    }
    return 1;
}

bool hasLlmAxis(const LlmRegionSpec& spec, LlmAxis axis)
{
    switch (axis) {
    case LlmAxis::TensorParallel:
        return !spec.tensorParallel.empty();
    case LlmAxis::PowerCapW:
        return !spec.powerCapsW.empty();
    case LlmAxis::Replicas:
        return !spec.replicas.empty();
    case LlmAxis::GpuMemoryUtilization:
        return !spec.gpuMemoryUtilizations.empty();
    case LlmAxis::MaxNumSeqs:
        return !spec.maxNumSeqs.empty();
    case LlmAxis::MaxNumBatchedTokens:
        return !spec.maxNumBatchedTokens.empty();
    case LlmAxis::Load:
        return !spec.ratesPerS.empty() || !spec.rateMultipliers.empty();
    }
    return false;
}

const char* llmAxisName(const LlmRegionSpec& spec, LlmAxis axis)
{
    switch (axis) {
    case LlmAxis::TensorParallel:
        return "tensor_parallel";
    case LlmAxis::PowerCapW:
        return "power_cap_w";
    case LlmAxis::Replicas:
        return "replicas";
    case LlmAxis::GpuMemoryUtilization:
        return "gpu_memory_utilization";
    case LlmAxis::MaxNumSeqs:
        return "max_num_seqs";
    case LlmAxis::MaxNumBatchedTokens:
        return "max_num_batched_tokens";
    case LlmAxis::Load:
        return spec.rateMultipliers.empty() ? "rate_per_s" : "rate_multiplier";
    }
    return "";
}

std::size_t llmCellCount(const LlmRegionSpec& spec)
{
    std::size_t n = 1;
    for (std::size_t a = 0; a < kLlmAxisCount; ++a)
        n *= llmAxisSize(spec, LlmAxis(a));
    return n;
}

const char* llmObjectiveName(LlmObjective objective)
{
    switch (objective) {
    case LlmObjective::MaxOutputTokens:
        return "max-output-tokens";
    case LlmObjective::MaxTokensPerGpu:
        return "max-tokens-per-gpu";
    case LlmObjective::MinEnergyPerToken:
        return "min-energy-per-token";
    }
    return "max-output-tokens";
}

std::optional<LlmObjective> llmObjectiveFromName(const std::string& name)
{
    for (auto o : {LlmObjective::MaxOutputTokens, LlmObjective::MaxTokensPerGpu,
                   LlmObjective::MinEnergyPerToken}) {
        if (name == llmObjectiveName(o))
            return o;
    }
    return std::nullopt;
}

Status validate(const LlmRegionSpec& spec)
{
    for (auto status :
         {checkAxis<std::int32_t>(spec.maxNumSeqs, "--max-num-seqs", 1, 1 << 20, true),
          checkAxis<std::int32_t>(spec.maxNumBatchedTokens, "--max-num-batched-tokens", 1, 1 << 24,
                                  true),
          checkAxis<double>(spec.ratesPerS, "--rate-per-s", 0.0, 1e9, false),
          checkAxis<double>(spec.rateMultipliers, "--rate-multiplier", 0.0, 1e6, false),
          checkAxis<std::int32_t>(spec.replicas, "--servers", 1, 1024, false),
          checkAxis<std::int32_t>(spec.tensorParallel, "--tensor-parallel", 1, 1024, false),
          checkAxis<double>(spec.powerCapsW, "--power-cap-w-axis", 0.0, 1e6, false),
          checkAxis<double>(spec.gpuMemoryUtilizations, "--gpu-memory-utilization", 0.0, 1.0,
                            false),
          checkLimits(spec.limits), checkNeedsAccelerator(spec), checkLoadAxes(spec)}) {
        if (!status)
            return status;
    }
    const std::size_t cells = llmCellCount(spec);
    if (cells > kMaxLlmRegionCells)
        return makeError(ErrorCode::Usage,
                         "LLM region axes: " + std::to_string(cells) + " cells, more than the " +
                             std::to_string(kMaxLlmRegionCells) +
                             " an LLM region may have (each is a whole simulation)");
    return {};
}

std::size_t llmCellIndex(const LlmRegionSpec& spec,
                         const std::array<std::size_t, kLlmAxisCount>& at)
{
    std::size_t index = 0;
    for (std::size_t a = 0; a < kLlmAxisCount; ++a)
        index = index * llmAxisSize(spec, LlmAxis(a)) + at[a];
    return index;
}

LlmRegionCell llmCellAt(const LlmRegionSpec& spec, std::size_t index)
{
    LlmRegionCell cell;
    cell.index = index;
    std::size_t rest = index;
    for (std::size_t a = kLlmAxisCount; a-- > 0;) {
        const std::size_t size = llmAxisSize(spec, LlmAxis(a));
        cell.at[a] = rest % size;
        rest /= size;
    }
    const auto at = [&](LlmAxis axis) { return cell.at[std::size_t(axis)]; };
    const auto& s = spec.scenario;
    LlmCellKnobs& k = cell.knobs;
    k.tensorParallel = valueOr(spec.tensorParallel, at(LlmAxis::TensorParallel),
                               s.step.kind == StepSpec::Kind::Roofline ? s.step.tensorParallel : 1);
    k.powerCapW = valueOr(spec.powerCapsW, at(LlmAxis::PowerCapW), s.step.powerCapW.value_or(NAN));
    k.replicas = valueOr(spec.replicas, at(LlmAxis::Replicas), s.arrivals.replicas);
    k.gpuMemoryUtilization =
        valueOr(spec.gpuMemoryUtilizations, at(LlmAxis::GpuMemoryUtilization),
                s.engine.kvMemory ? s.engine.kvMemory->gpuMemoryUtilization : double(NAN));
    k.maxNumSeqs = valueOr(spec.maxNumSeqs, at(LlmAxis::MaxNumSeqs), s.engine.maxNumSeqs);
    k.maxNumBatchedTokens = valueOr(spec.maxNumBatchedTokens, at(LlmAxis::MaxNumBatchedTokens),
                                    s.engine.maxNumBatchedTokens);
    k.load = !spec.ratesPerS.empty()
                 ? spec.ratesPerS.at(at(LlmAxis::Load))
                 : valueOr(spec.rateMultipliers, at(LlmAxis::Load), double(NAN));
    cell.configuration = index / llmAxisSize(spec, LlmAxis::Load);
    return cell;
}

namespace {

bool sglangChunks(const llmsim::EngineConfig& engine)
{
    return engine.policy == "sglang" && engine.chunkedPrefillSize > 0;
}

} // namespace

const char* llmTokenBudgetKnob(const llmsim::EngineConfig& engine)
{
    if (engine.policy != "sglang")
        return "max_num_batched_tokens";
    return sglangChunks(engine) ? "chunked_prefill_size" : "max_prefill_tokens";
}

std::int32_t llmTokenBudget(const llmsim::EngineConfig& engine)
{
    if (engine.policy != "sglang")
        return engine.maxNumBatchedTokens;
    return sglangChunks(engine) ? engine.chunkedPrefillSize : engine.maxPrefillTokens;
}

void setLlmTokenBudget(llmsim::EngineConfig& engine, std::int32_t tokens)
{
    if (engine.policy != "sglang") {
        engine.maxNumBatchedTokens = tokens;
    } else if (sglangChunks(engine)) {
        // SGLang bounds a prefill step by its chunk and by max_prefill_tokens, both: the
        // budget is the chunk, and max_prefill_tokens stays the scenario's (a chunk above it
        // is bounded by it, as on the real server).
        engine.chunkedPrefillSize = tokens;
    } else {
        engine.maxPrefillTokens = tokens;
    }
}

llmsim::LlmScenario llmCellScenario(const LlmRegionSpec& spec, std::size_t index)
{
    const LlmCellKnobs k = llmCellAt(spec, index).knobs;
    llmsim::LlmScenario s = spec.scenario;
    s.engine.maxNumSeqs = k.maxNumSeqs;
    setLlmTokenBudget(s.engine, k.maxNumBatchedTokens);
    s.arrivals.replicas = k.replicas;
    if (!spec.ratesPerS.empty())
        s.arrivals.ratePerS = k.load;
    if (!spec.rateMultipliers.empty())
        s.arrivals.rateMultiplier = k.load;
    if (!spec.tensorParallel.empty()) {
        s.step.tensorParallel = k.tensorParallel;
        if (s.engine.kvMemory) // the KV cache grows with the GPUs it is split over
            s.engine.kvMemory->tensorParallel = k.tensorParallel;
    }
    if (!spec.powerCapsW.empty())
        s.step.powerCapW = k.powerCapW;
    if (!spec.gpuMemoryUtilizations.empty() && s.engine.kvMemory)
        s.engine.kvMemory->gpuMemoryUtilization = k.gpuMemoryUtilization;
    // A replay is deterministic and must run once; generated arrivals need replications for
    // an interval.
    if (s.arrivals.kind != LlmArrivalSpec::Kind::Replay)
        s.replications = std::max(s.replications, kMinLlmRegionReplications);
    return s;
}

Expected<LlmRegionCell> judgedLlmCell(const LlmRegionSpec& spec, std::size_t index,
                                      const llmsim::LlmScenario& scenario,
                                      const Expected<LlmResult>& run)
{
    LlmRegionCell cell = llmCellAt(spec, index);
    cell.replications = scenario.replications;
    if (!run && !isRefusal(run.error()))
        return run.error();
    if (run) {
        cell.metrics = metricsOf(*run, cell.knobs);
        cell.requests = run->requests.size();
    } else
        cell.note = "refused up front: " + run.error().message;
    cell.status = run ? LlmCellStatus::Infeasible : LlmCellStatus::Refused;
    judgeLlmCell(spec, cell);
    return cell;
}

namespace {

/// Whether a cell belongs to the coarse pass: every axis index even (corners and a lattice
/// that spans the grid), so a preview shows the region's shape early.
bool isCoarse(const LlmRegionCell& cell)
{
    return std::all_of(cell.at.begin(), cell.at.end(), [](std::size_t i) { return i % 2 == 0; });
}

/// Simulates and judges the cells `indices` into `cells` (in parallel, one cell per task). A
/// run's detail is dropped as soon as its metrics are taken: a grid of hundreds of cells would
/// otherwise hold every request and step of every run.
Status runCells(const LlmRegionSpec& spec, const LlmRegionOptions& options,
                const std::vector<std::size_t>& indices, std::vector<LlmRegionCell>& cells,
                CancelToken cancel)
{
    std::vector<std::optional<Error>> errors(indices.size());
    const auto runCell = [&](std::size_t k) {
        const std::size_t index = indices[k];
        llmsim::LlmSimOptions sim;
        sim.baseDirectory = options.baseDirectory;
        sim.threads = 1; // cells are the parallel unit
        const auto scenario = llmCellScenario(spec, index);
        auto run = llmsim::simulateLlm(scenario, sim, cancel);
        auto cell = judgedLlmCell(spec, index, scenario, run);
        if (!cell) {
            errors[k] = cell.error();
            return;
        }
        cells[index] = std::move(*cell);
    };
    ThreadPool pool(std::min(options.threads, indices.size()));
    pool.parallelFor(indices.size(), runCell, cancel);
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "LLM region cancelled");
    for (auto& error : errors) {
        if (error) // every cell would fail alike: the scenario's error, the first in index order
            return *error;
    }
    return {};
}

} // namespace

Expected<LlmRegionResult> computeLlmRegion(const LlmRegionSpec& spec,
                                           const LlmRegionOptions& options, CancelToken cancel)
{
    if (auto status = validate(spec); !status)
        return status.error();
    if (options.shardCount < 1 || options.shardIndex >= options.shardCount)
        return makeError(ErrorCode::Usage, "--shard: the slice must be I/N with 0 <= I < N");
    LlmRegionResult result;
    result.spec = spec;
    result.baseDirectory = options.baseDirectory;
    result.shardIndex = options.shardIndex;
    result.shardCount = options.shardCount;
    const std::size_t n = llmCellCount(spec);
    std::vector<LlmRegionCell> cells(n);
    std::vector<std::size_t> coarse, fine;
    for (std::size_t i = options.shardIndex; i < n; i += options.shardCount)
        (isCoarse(llmCellAt(spec, i)) ? coarse : fine).push_back(i);
    const bool previewFirst =
        options.preview && !result.isShard() && !coarse.empty() && !fine.empty();
    if (previewFirst) {
        if (auto status = runCells(spec, options, coarse, cells, cancel); !status)
            return status.error();
        LlmRegionResult preview = result;
        preview.cells = cells;
        for (std::size_t i : fine) {
            preview.cells[i] = llmCellAt(spec, i);
            preview.cells[i].pending = true;
        }
        finalizeLlmRegion(preview);
        options.preview(preview);
    } else {
        fine.insert(fine.end(), coarse.begin(), coarse.end());
    }
    if (auto status = runCells(spec, options, fine, cells, cancel); !status)
        return status.error();
    for (std::size_t i = options.shardIndex; i < n; i += options.shardCount)
        result.cells.push_back(std::move(cells[i]));
    if (!result.isShard()) {
        finalizeLlmRegion(result);
        if (options.searchLoadHeadroom)
            if (auto status = findLlmLoadHeadroom(result, options.threads, cancel); !status)
                return status.error();
    }
    return result;
}

LlmRegionSpec llmOperatingPointSpec(const LlmRegionSpec& spec)
{
    LlmRegionSpec point;
    point.scenario = spec.scenario;
    point.limits = spec.limits;
    point.objective = spec.objective;
    point.maxNumSeqs = {spec.scenario.engine.maxNumSeqs};
    point.maxNumBatchedTokens = {llmTokenBudget(spec.scenario.engine)};
    return point;
}

bool sameLlmRegion(const LlmRegionSpec& a, const LlmRegionSpec& b)
{
    if (!validate(a) || !validate(b))
        return a == b;
    const auto grid = [](const LlmRegionSpec& s) {
        return std::tie(s.maxNumSeqs, s.maxNumBatchedTokens, s.ratesPerS, s.rateMultipliers,
                        s.replicas, s.tensorParallel, s.powerCapsW, s.gpuMemoryUtilizations,
                        s.limits, s.objective);
    };
    // Every cell's scenario is the base with the axes' knobs set: if cell 0's agree, the bases
    // differ only in knobs every cell overrides.
    return grid(a) == grid(b) && llmCellScenario(a, 0) == llmCellScenario(b, 0);
}

LlmRegionSpec llmLoadSweepSpec(const LlmRegionSpec& spec)
{
    LlmRegionSpec sweep = llmOperatingPointSpec(spec);
    sweep.ratesPerS = spec.ratesPerS;
    sweep.rateMultipliers = spec.rateMultipliers;
    if (sweep.ratesPerS.empty() && sweep.rateMultipliers.empty()) {
        // Scenario rate x multiplier: the sweep keeps the current load on its grid.
        const double current = spec.scenario.arrivals.rateMultiplier;
        for (double factor : {0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0})
            sweep.rateMultipliers.push_back(current * factor);
    }
    return sweep;
}

Expected<LlmOperatingPoint> judgeLlmOperatingPoint(const LlmRegionSpec& spec,
                                                   const std::string& baseDirectory,
                                                   CancelToken cancel)
{
    LlmOperatingPoint point;
    point.spec = llmOperatingPointSpec(spec);
    if (auto valid = validate(point.spec); !valid)
        return valid.error();
    const auto scenario = llmCellScenario(point.spec, 0);
    llmsim::LlmSimOptions options;
    options.baseDirectory = baseDirectory;
    auto run = llmsim::simulateLlm(scenario, options, cancel);
    auto cell = judgedLlmCell(point.spec, 0, scenario, run);
    if (!cell)
        return cell.error();
    point.cell = std::move(*cell);
    point.evidence = llmCellEvidence(point.spec, point.cell);
    if (run)
        point.run = std::make_shared<const LlmResult>(std::move(*run));
    return point;
}

} // namespace bs::analysis
