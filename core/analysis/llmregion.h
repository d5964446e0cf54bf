#pragma once

#include "llmsim/llmscenario.h"
#include "sim/result.h"
#include "util/canceltoken.h"
#include "util/expected.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bs::analysis {

/// The most cells one LLM region may have (each cell is a whole LLM simulation).
inline constexpr std::size_t kMaxLlmRegionCells = 1024;
/// Replications of a generated-arrival cell, at least: fewer give no useful 95% interval.
inline constexpr std::int32_t kMinLlmRegionReplications = 3;

/// The limits an LLM operating point must meet (REGION.md, "LLM servers").
struct LlmRegionLimits
{
    double ttftP99Ms = 0.0; ///< > 0
    double tpotP99Ms = 0.0; ///< > 0
    std::optional<double> minOutputTokensPerS;
    /// Preemptions per served request at most this (a preemption storm recomputes prompts).
    std::optional<double> maxPreemptionsPerRequest;
};

/// A grid of engine knobs around one LLM scenario: rows max_num_seqs, columns
/// max_num_batched_tokens (the policy's token budget).
struct LlmRegionSpec
{
    llmsim::LlmScenario scenario;
    std::vector<std::int32_t> maxNumSeqs;
    std::vector<std::int32_t> maxNumBatchedTokens;
    LlmRegionLimits limits;
};

enum class LlmConstraint
{
    None,
    TtftP99,
    TpotP99,
    OutputTokens,
    Preemptions,
    Refused, ///< The engine refuses the load up front (a request can never fit these knobs).
};
/// Stable short names: none, ttft_p99, tpot_p99, output_tokens, preemptions, refused.
const char* llmConstraintName(LlmConstraint kind);

/// One limit checked on one cell's estimate.
struct LlmCheck
{
    LlmConstraint kind = LlmConstraint::None;
    double value = sim::kNaN; ///< The estimate's mean (ms, tokens/s or preemptions/request).
    double ciLow = sim::kNaN, ciHigh = sim::kNaN;
    double limit = 0.0;
    /// (limit - value) / limit for upper limits, (value - limit) / limit for the demand.
    double margin = sim::kNaN;
    bool satisfied = false;
    /// The limit lies outside the 95% interval (a deterministic replay: always), so more
    /// replications would not change this verdict.
    bool decided = false;
};

/// The estimates of one cell over its replications (mean and 95% Student-t interval).
struct LlmCellMetrics
{
    sim::Estimate ttftP99Ms, tpotP99Ms, outputTokensPerS, goodputPerS, preemptionsPerRequest;
    sim::Estimate ttftMeanMs, tpotMeanMs, peakKvUse;
};

enum class LlmCellStatus
{
    Feasible,
    Infeasible,
    Refused,
};
const char* llmCellStatusName(LlmCellStatus status); ///< feasible, infeasible, refused

struct LlmRegionCell
{
    std::size_t index = 0; ///< seqs index * budget count + budget index
    std::size_t seqsIndex = 0, budgetIndex = 0;
    std::int32_t maxNumSeqs = 0, maxNumBatchedTokens = 0;
    LlmCellStatus status = LlmCellStatus::Refused;
    /// Every check decided (feasible) or a violated check decided (infeasible); a refusal is
    /// certain. "Not confident" means an interval straddles a limit that sets the verdict.
    bool confident = false;
    /// Feasible: the smallest margin (what it meets first); infeasible: the most violated.
    LlmConstraint binding = LlmConstraint::None;
    std::vector<LlmCheck> checks;
    LlmCellMetrics metrics;
    std::int32_t replications = 0;
    std::string note; ///< Why refused, or which limit is not confidently judged.
};

struct LlmRecommendation
{
    std::size_t cell = 0;
    /// Confident feasible cells whose output tokens/s cannot be told from the best's.
    std::vector<std::size_t> indistinguishableCells;
    std::string reason;
};

struct LlmRegionResult
{
    LlmRegionSpec spec;
    std::string baseDirectory; ///< Where the scenario's relative paths resolve (as computed).
    std::vector<LlmRegionCell> cells;
    std::optional<LlmRecommendation> recommendation;
    std::size_t feasible = 0, infeasible = 0, refused = 0, notConfident = 0;

    const LlmRegionCell* recommended() const
    {
        return recommendation ? &cells[recommendation->cell] : nullptr;
    }
};

struct LlmRegionOptions
{
    std::string baseDirectory; ///< Relative replay and profile paths resolve against it.
    std::size_t threads = 0;   ///< 0: all cores. The result does not depend on it.
};

/// Checks the grid and the limits: each list non-empty, no repeats, knobs in range, limits
/// positive, at most kMaxLlmRegionCells. Errors (ErrorCode::Usage) name the option.
Status validate(const LlmRegionSpec& spec);

/// The scenario one cell simulates: the base with the cell's knobs and the replications the
/// region uses (at least kMinLlmRegionReplications for generated arrivals; a replay keeps 1).
/// Running it with llmsim::simulateLlm gives exactly the cell's metrics.
llmsim::LlmScenario llmCellScenario(const LlmRegionSpec& spec, std::size_t seqsIndex,
                                    std::size_t budgetIndex);

/// Simulates every cell (in parallel, one cell per task, each with the scenario's seed), judges
/// it against the limits and recommends among the confident feasible cells the one with the
/// most output tokens/s (ties within the combined 95% half-widths: the lower TTFT p99).
/// Bit-identical for any thread count. Errors: an invalid spec, a scenario the simulator
/// cannot prepare (a missing replay file), cancellation.
Expected<LlmRegionResult> computeLlmRegion(const LlmRegionSpec& spec,
                                           const LlmRegionOptions& options = {},
                                           CancelToken cancel = CancelToken());

} // namespace bs::analysis
