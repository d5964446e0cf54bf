#pragma once

#include "llmsim/llmresult.h"
#include "llmsim/llmscenario.h"
#include "sim/result.h"
#include "util/canceltoken.h"
#include "util/expected.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bs::analysis {

/// The most cells one LLM region may have (each cell is a whole LLM simulation).
inline constexpr std::size_t kMaxLlmRegionCells = 4096;
/// Replications of a generated-arrival cell, at least: fewer give no useful 95% interval.
inline constexpr std::int32_t kMinLlmRegionReplications = 3;

/// The limits an LLM operating point must meet (REGION.md, "LLM servers").
struct LlmRegionLimits
{
    double ttftP99Ms = 0.0; ///< > 0
    double tpotP99Ms = 0.0; ///< > 0
    /// Inter-token latency p99 at most this (pooled over every gap: a stall a user sees, which
    /// a request's mean TPOT hides).
    std::optional<double> maxItlP99Ms;
    std::optional<double> maxE2eP99Ms;         ///< End-to-end latency p99 (arrival to last token).
    std::optional<double> minOutputTokensPerS; ///< Over every replica.
    std::optional<double> minGoodputPerS;      ///< Requests/s meeting the scenario's SLA.
    /// Preemptions per served request at most this (a preemption storm recomputes prompts).
    std::optional<double> maxPreemptionsPerRequest;
    std::optional<double> maxPowerPerGpuW;          ///< Mean board power of one GPU (power model).
    std::optional<double> maxEnergyPerOutputTokenJ; ///< (power model)
    std::optional<double> maxTemperatureC;          ///< Peak device temperature (thermal model).

    friend bool operator==(const LlmRegionLimits&, const LlmRegionLimits&) = default;
};

/// What the recommendation maximises among the confident feasible cells.
enum class LlmObjective
{
    MaxOutputTokens,   ///< Output tokens/s over every replica.
    MaxTokensPerGpu,   ///< Output tokens/s per GPU (replicas x tensor parallel).
    MinEnergyPerToken, ///< Energy per output token (power model).
};
/// max-output-tokens, max-tokens-per-gpu, min-energy-per-token.
const char* llmObjectiveName(LlmObjective objective);
std::optional<LlmObjective> llmObjectiveFromName(const std::string& name);

/// The grid's axes, outermost first; cells are numbered in row-major order of them (the load
/// varies fastest, so one configuration's cells are adjacent).
enum class LlmAxis
{
    TensorParallel,
    PowerCapW,
    Replicas,
    GpuMemoryUtilization, ///< The KV cache's memory (engine.kv_memory.gpu_memory_utilization).
    MaxNumSeqs,
    MaxNumBatchedTokens,
    Load, ///< rate_per_s or rate_multiplier
};
inline constexpr std::size_t kLlmAxisCount = 7;

/// A grid of engine knobs and loads around one LLM scenario. max_num_seqs and
/// max_num_batched_tokens are required; an empty optional axis keeps the scenario's value.
struct LlmRegionSpec
{
    llmsim::LlmScenario scenario;
    std::vector<std::int32_t> maxNumSeqs;
    std::vector<std::int32_t> maxNumBatchedTokens;
    /// Total offered rate over the replicas, requests/s (Poisson arrivals only).
    std::vector<double> ratesPerS;
    /// Multipliers on the scenario's rate (any arrivals: a replay is compressed in time).
    std::vector<double> rateMultipliers;
    std::vector<std::int32_t> replicas;       ///< Identical engines behind a router.
    std::vector<std::int32_t> tensorParallel; ///< GPUs per replica (roofline step).
    std::vector<double> powerCapsW;           ///< Board power limit per GPU (roofline step).
    /// vLLM's gpu_memory_utilization: the fraction of each GPU's memory the engine may use, so
    /// the KV cache is what is left of it after the weights and the runtime's reserve (the
    /// scenario must size its KV cache from memory: engine.kv_memory).
    std::vector<double> gpuMemoryUtilizations;
    LlmRegionLimits limits;
    LlmObjective objective = LlmObjective::MaxOutputTokens;

    /// Whether a result computed for one spec answers for the other (the GUI withdraws it when
    /// not).
    friend bool operator==(const LlmRegionSpec&, const LlmRegionSpec&) = default;
};

enum class LlmConstraint
{
    None,
    TtftP99,
    TpotP99,
    ItlP99,
    E2eP99,
    OutputTokens,
    Goodput,
    Preemptions,
    PowerPerGpu,
    EnergyPerToken,
    Temperature,
    /// The engine refuses the load up front: a request can never fit these knobs, or the
    /// weights leave the KV cache no block (the engine would not start).
    Refused,
};
/// Stable short names: none, ttft_p99, tpot_p99, itl_p99, e2e_p99, output_tokens, goodput,
/// preemptions, power, energy_per_token, temperature, refused.
const char* llmConstraintName(LlmConstraint kind);

/// One limit checked on one cell's estimate.
struct LlmCheck
{
    LlmConstraint kind = LlmConstraint::None;
    double value = sim::kNaN; ///< The estimate's mean (in the limit's unit).
    double ciLow = sim::kNaN, ciHigh = sim::kNaN;
    double limit = 0.0;
    /// (limit - value) / limit for upper limits, (value - limit) / limit for demands.
    double margin = sim::kNaN;
    bool satisfied = false;
    /// The limit lies outside the 95% interval (a deterministic replay: always), so more
    /// replications would not change this verdict.
    bool decided = false;
};

/// The estimates of one cell over its replications (mean and 95% Student-t interval).
/// Throughputs are over every replica; power is per GPU; NaN where the step model has no power
/// or thermal model.
struct LlmCellMetrics
{
    sim::Estimate ttftP99Ms, tpotP99Ms, outputTokensPerS, goodputPerS, preemptionsPerRequest;
    sim::Estimate ttftMeanMs, tpotMeanMs, peakKvUse;
    sim::Estimate itlP99Ms, e2eP99Ms;
    sim::Estimate powerPerGpuW, energyPerOutputTokenJ, peakTemperatureC;
};

enum class LlmCellStatus
{
    Feasible,
    Infeasible,
    Refused,
};
const char* llmCellStatusName(LlmCellStatus status); ///< feasible, infeasible, refused

/// Where a cell sits on each axis and the knobs it runs with.
struct LlmCellKnobs
{
    std::int32_t tensorParallel = 1;
    double powerCapW = sim::kNaN; ///< NaN: the accelerator's own limit.
    std::int32_t replicas = 1;
    /// NaN: the scenario's KV cache is a fixed block count, not sized from memory.
    double gpuMemoryUtilization = sim::kNaN;
    std::int32_t maxNumSeqs = 0, maxNumBatchedTokens = 0;
    double load = sim::kNaN; ///< The load axis's value (NaN without a load axis).

    std::int32_t gpus() const { return tensorParallel * replicas; }
};

struct LlmRegionCell
{
    std::size_t index = 0;
    std::array<std::size_t, kLlmAxisCount> at{}; ///< Index on each axis (0 for an absent one).
    LlmCellKnobs knobs;
    /// The configuration: every axis but the load (cells of one configuration differ in load).
    std::size_t configuration = 0;
    LlmCellStatus status = LlmCellStatus::Refused;
    /// Every check decided (feasible) or a violated check decided (infeasible); a refusal is
    /// certain. "Not confident" means an interval straddles a limit that sets the verdict.
    bool confident = false;
    /// Feasible: the smallest margin (what it meets first); infeasible: the most violated.
    LlmConstraint binding = LlmConstraint::None;
    std::vector<LlmCheck> checks;
    LlmCellMetrics metrics;
    std::int32_t replications = 0;
    std::uint64_t requests = 0; ///< Served per replication (of one replica).
    std::string note;           ///< Why refused, or which limit is not confidently judged.
    bool pareto = false;        ///< On the Pareto front (LlmRegionResult::pareto).
    /// A preview's cell not simulated yet (LlmRegionOptions::preview): no verdict.
    bool pending = false;
};

/// Objective values closer than this fraction of the best are a tie, intervals or not: a replay
/// has no sampling interval, and the simulator's own error against a real run is larger (on the
/// public RTX 4090 vLLM run: up to 1.4% with the measured step profile, 4-8% on the roofline;
/// core/llmsim/README.md), so a 0.1% lead is no reason to choose. Ties go to the lowest TTFT
/// p99.
inline constexpr double kLlmObjectiveResolution = 0.01;

/// How much more load the recommended configuration takes before it leaves the region: the
/// largest multiple of the recommended cell's offered load that still meets every limit,
/// confidently (llmsim's rate_multiplier on the cell's scenario, same seed: a multiple that
/// lands on a grid load is that grid cell). The configuration's grid cells bound the search
/// first (its highest met load below the first failure, that failure above); then doubling
/// up to kMaxLlmHeadroomMultiplier and bisection until the bracket is within
/// kLlmHeadroomResolution.
struct LlmLoadHeadroom
{
    double multiplier = 1.0;              ///< The largest multiple found to meet every limit.
    double failingMultiplier = sim::kNaN; ///< The smallest found to fail (NaN: none up to the cap).
    LlmConstraint binding = LlmConstraint::None; ///< What fails at failingMultiplier.
    /// The failing multiple meets every limit on its estimates but an interval holds the
    /// limit `binding` names (not confidently met: more replications would decide it).
    bool failingUndecided = false;
    int simulations = 0;    ///< Probes simulated (grid cells reused cost none).
    bool converged = false; ///< failingMultiplier / multiplier within the resolution.
    std::string note;
};
inline constexpr double kMaxLlmHeadroomMultiplier = 16.0;
inline constexpr double kLlmHeadroomResolution = 1.02; ///< failing / met at convergence

struct LlmRecommendation
{
    std::size_t cell = 0;
    /// Confident feasible cells whose objective cannot be told from the best's (within the
    /// combined 95% intervals or kLlmObjectiveResolution).
    std::vector<std::size_t> indistinguishableCells;
    std::string reason;
    /// Whole regions with LlmRegionOptions::searchLoadHeadroom (and every merge); absent in
    /// previews and shards.
    std::optional<LlmLoadHeadroom> loadHeadroom;
};

/// One configuration's capacity: the highest load on the grid it sustains under every limit.
struct LlmCapacity
{
    std::size_t configuration = 0;
    LlmCellKnobs knobs; ///< load: the capacity (NaN when even the lowest load fails).
    /// The cell at the capacity (none when even the lowest load fails).
    std::optional<std::size_t> capacityCell;
    /// The first load above it that fails, and what fails there (none: every load met).
    std::optional<std::size_t> firstFailingCell;
    LlmConstraint failingBinding = LlmConstraint::None;
    /// A load above the first failure is met again: the capacity is where it first failed
    /// (the conservative reading), and the note says so.
    bool nonMonotone = false;
    std::string note;
};

struct LlmRegionResult
{
    LlmRegionSpec spec;
    std::string baseDirectory; ///< Where the scenario's relative paths resolve (as computed).
    /// A shard holds only its cells (index % shardCount == shardIndex) and no recommendation,
    /// capacity or Pareto front: mergeLlmRegions completes it.
    std::size_t shardIndex = 0, shardCount = 1;
    std::vector<LlmRegionCell> cells;
    std::optional<LlmRecommendation> recommendation;
    std::vector<LlmCapacity> capacity; ///< Per configuration, with a load axis.
    /// Confident feasible cells no other beats on output tokens/s, TTFT p99, TPOT p99 and (with
    /// a power model) energy per output token. Ascending cell index.
    std::vector<std::size_t> pareto;
    std::size_t feasible = 0, infeasible = 0, refused = 0, notConfident = 0;

    const LlmRegionCell* recommended() const
    {
        return recommendation ? &cells[recommendation->cell] : nullptr;
    }
    bool isShard() const { return shardCount > 1; }
};

struct LlmRegionOptions
{
    std::string baseDirectory; ///< Relative replay and profile paths resolve against it.
    std::size_t threads = 0;   ///< 0: all cores. The result does not depend on it.
    std::size_t shardIndex = 0, shardCount = 1; ///< Compute only cells index % count == index.
    /// Called once, from the calling thread, when the coarse pass is judged (the cells whose
    /// every axis index is even: the corners and a lattice spanning the grid), with the other
    /// cells `pending`, finalised over what is known (no capacity curves). Not for a shard.
    std::function<void(const LlmRegionResult&)> preview;
    /// Search the recommendation's load headroom (findLlmLoadHeadroom) once the grid is judged.
    bool searchLoadHeadroom = true;
};

/// The axis's values in the spec (an absent axis: empty) and its CLI/JSON name.
std::size_t llmAxisSize(const LlmRegionSpec& spec, LlmAxis axis); ///< 1 for an absent axis
bool hasLlmAxis(const LlmRegionSpec& spec, LlmAxis axis);
const char* llmAxisName(const LlmRegionSpec& spec, LlmAxis axis); ///< e.g. max_num_seqs
std::size_t llmCellCount(const LlmRegionSpec& spec);

/// Checks the grid and the limits: required lists non-empty, no repeats, knobs in range, limits
/// positive, power limits only with a power model, a gpu_memory_utilization axis only with a
/// KV cache sized from memory, at most kMaxLlmRegionCells. Errors
/// (ErrorCode::Usage) name the CLI option.
Status validate(const LlmRegionSpec& spec);

/// Where cell `index` sits and the knobs it runs with.
LlmRegionCell llmCellAt(const LlmRegionSpec& spec, std::size_t index);
/// The number of the cell at index `at` on each axis (0 for an absent one): llmCellAt's inverse.
std::size_t llmCellIndex(const LlmRegionSpec& spec,
                         const std::array<std::size_t, kLlmAxisCount>& at);

/// The engine knob that bounds the tokens of one step, which the token-budget axis
/// (max_num_batched_tokens) sets: "max_num_batched_tokens"; for sglang, which has none
/// (REGION.md), "chunked_prefill_size", or "max_prefill_tokens" with chunking off. For labels,
/// so that a user reads the knob the engine has.
const char* llmTokenBudgetKnob(const llmsim::EngineConfig& engine);
/// That knob's value in `engine`.
std::int32_t llmTokenBudget(const llmsim::EngineConfig& engine);
/// Sets that knob and nothing else (for sglang with chunking, a chunk above max_prefill_tokens
/// is bounded by it, as on the real server).
void setLlmTokenBudget(llmsim::EngineConfig& engine, std::int32_t tokens);

/// The scenario one cell simulates (one replica of the cell's): the base with the cell's knobs
/// and the replications the region uses (at least kMinLlmRegionReplications for generated
/// arrivals; a replay keeps 1). Running it with llmsim::simulateLlm gives exactly the cell's
/// latency figures and one replica's throughput.
llmsim::LlmScenario llmCellScenario(const LlmRegionSpec& spec, std::size_t index);

/// Simulates every cell (of the shard; in parallel, one cell per task, each with the scenario's
/// seed), judges it against the limits and, for a whole region, finalises it
/// (finalizeLlmRegion). Bit-identical for any thread count and sharding. Errors: an invalid
/// spec, a scenario the simulator cannot prepare (a missing replay file), cancellation.
Expected<LlmRegionResult> computeLlmRegion(const LlmRegionSpec& spec,
                                           const LlmRegionOptions& options = {},
                                           CancelToken cancel = CancelToken());

/// Searches the recommended cell's load headroom (LlmLoadHeadroom) into result.recommendation;
/// nothing without a recommendation. Probes run one after another, each simulation on
/// `threads` (0: all cores). Errors: a scenario the simulator cannot prepare, cancellation.
Status findLlmLoadHeadroom(LlmRegionResult& result, std::size_t threads,
                           CancelToken cancel = CancelToken());
/// The rate offered to all replicas, req/s, at `multiple` times cell `index`'s load: Poisson
/// arrivals only (NaN for a replay or a fitted trace, whose rate its file sets).
double llmOfferedRatePerS(const LlmRegionSpec& spec, std::size_t index, double multiple);

/// The evidence that decided a cell, for people: "simulated, 3 x 2000 requests", "replay of
/// 2000 requests (deterministic)", "refused up front, not simulated"; ", not confident" added.
std::string llmCellEvidence(const LlmRegionSpec& spec, const LlmRegionCell& cell);

/// Checks, verdict and binding limit of one cell from its metrics (the limits as given).
void judgeLlmCell(const LlmRegionSpec& spec, LlmRegionCell& cell);

/// Counts, recommendation, capacity curves and Pareto front of a whole region whose cells are
/// judged (computeLlmRegion and mergeLlmRegions end with it).
void finalizeLlmRegion(LlmRegionResult& result);

/// Whether two specs judge the same cells the same way: equal axes, limits and objective, and
/// base scenarios that differ at most in the knobs the axes set (a scenario moved to one of its
/// cells keeps its region). Invalid specs compare as wholes.
bool sameLlmRegion(const LlmRegionSpec& a, const LlmRegionSpec& b);

/// The operating point a scenario runs at by itself: its own knobs and load, simulated and judged
/// against the limits exactly as the region cell with those knobs would be (the live LLM view's
/// answer), with replication 0's requests and steps kept for charts.
struct LlmOperatingPoint
{
    LlmRegionSpec spec; ///< One cell: the scenario's max_num_seqs and budget, no other axis.
    LlmRegionCell cell;
    std::string evidence; ///< llmCellEvidence
    /// The run (null when the engine refused the load up front: cell.note says why).
    std::shared_ptr<const llmsim::LlmResult> run;
};
/// The one-cell spec of the scenario's own operating point.
LlmRegionSpec llmOperatingPointSpec(const LlmRegionSpec& spec);
/// The operating point's knobs over the spec's loads (its rate_per_s or rate_multiplier axis;
/// without one, multipliers 0.25 .. 2 of the scenario's own load): one configuration whose
/// capacity is the knee of its throughput curve.
LlmRegionSpec llmLoadSweepSpec(const LlmRegionSpec& spec);
/// Simulates and judges the scenario's operating point (one cell, the scenario's threads).
/// Errors: an invalid spec, a scenario the simulator cannot prepare, cancellation.
Expected<LlmOperatingPoint> judgeLlmOperatingPoint(const LlmRegionSpec& spec,
                                                   const std::string& baseDirectory,
                                                   CancelToken cancel = CancelToken());

/// Joins the shards 0..N-1 of one region (same spec, each once, any order) into the whole
/// region, finalised exactly as computeLlmRegion would, but for the load headroom: that one
/// simulates, so the caller searches it (findLlmLoadHeadroom) once the base directory is where
/// the merge runs. Errors name the misfit shard as "shards[K]".
Expected<LlmRegionResult> mergeLlmRegions(std::vector<LlmRegionResult> shards);

} // namespace bs::analysis
