#pragma once

#include "analysis/llmrunanalysis.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bs::analysis {

/// One percentile of two LLM runs side by side (seconds), each with its exact 95% interval.
struct LlmStatisticDelta
{
    std::string metric; ///< ttft, tpot, itl, e2e
    double probability = 0.0;
    PercentileEstimate a, b;
    double delta = kNaN;    ///< b - a
    double relative = kNaN; ///< delta / a
    /// The two 95% intervals do not overlap: the runs differ beyond sampling noise. (Overlap
    /// does not prove them equal; the deltas are reported either way.)
    bool distinguishable = false;
};

/// A rate of two runs as the tools reported it (or as computed from the records).
struct LlmRateDelta
{
    std::string metric; ///< output_tokens_per_s, requests_per_s, goodput_per_s
    double a = kNaN, b = kNaN, delta = kNaN, relative = kNaN;
};

/// Run `aIndex` of the first set against run `bIndex` of the second, at one load.
struct LlmRunComparison
{
    std::size_t aIndex = 0, bIndex = 0;
    std::optional<double> load; ///< The request rate or concurrency both ran at.
    std::string loadKind;       ///< "request rate" or "concurrency" (empty: paired by position)
    std::vector<LlmStatisticDelta> latency; ///< p50, p90, p99 of each metric with records.
    std::vector<LlmRateDelta> rates;
};

/// Two benchmarks compared point by point: a run is paired with the other set's run at the same
/// request rate (or, for an unlimited rate, the same concurrency); when neither set records a
/// load, runs pair by position (equal counts only).
struct LlmSweepComparison
{
    std::string pairedBy; ///< "request rate or concurrency", "position"
    std::vector<LlmRunComparison> points;
    std::vector<std::size_t> onlyInA, onlyInB; ///< Run indices with no partner.
};

/// Compares set b against set a (b - a). Goodput is judged against `sla` when it has a limit.
LlmSweepComparison compareLlmRuns(const data::LlmRunSet& a, const data::LlmRunSet& b,
                                  const LlmSla& sla = {});

/// {"kind": "llm_comparison", "paired_by", "points": [{a_run, b_run, load, latency: [{metric,
/// percentile, a_ms, a_ci95_ms, b_ms, b_ci95_ms, delta_ms, relative, distinguishable}], rates:
/// [...]}], "only_in_a", "only_in_b"} (runs 1-based, as the analysis JSON numbers them).
nlohmann::json toJson(const LlmSweepComparison& comparison);

} // namespace bs::analysis
