#pragma once

#include "analysis/curvefigures.h"
#include "analysis/llmregion.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bs::analysis {

/// The result as JSON (kind "batchscope.llmregion.result"; REGION.md, "LLM servers"): the axes,
/// the limits, the objective, every cell with its knobs, checks and estimates (ms, tokens/s,
/// W, J, °C; [value, ci_low, ci_high], NaN as null), the recommendation, the capacity curves
/// and the Pareto front; a shard says which slice it is.
nlohmann::json llmRegionToJson(const LlmRegionResult& result);

/// Reads what llmRegionToJson wrote (shards for mergeLlmRegions): the spec and every cell's
/// knobs, status and estimates; the checks are judged again. Errors name the file and key.
Expected<LlmRegionResult> llmRegionFromJson(const nlohmann::json& json, const std::string& path);

/// Whether a parsed JSON document is an LLM region result (merge picks the reader by it).
bool isLlmRegionJson(const nlohmann::json& json);

/// Every metric of a cell with its JSON and CSV key (the writers and the reader share it).
std::vector<std::pair<const char*, sim::Estimate LlmCellMetrics::*>> llmMetricFields();

/// cells.csv: one row per cell with its knobs, every metric with its 95% interval and every
/// margin.
std::string llmCellsCsv(const LlmRegionResult& result);
/// capacity.csv: per configuration, the highest load met, the first failing one and why.
std::string llmCapacityCsv(const LlmRegionResult& result);
/// pareto.csv: the Pareto-optimal cells with their objectives.
std::string llmParetoCsv(const LlmRegionResult& result);

/// What a heatmap cell of the region prints: its TTFT p99 in ms to 3 significant digits, "?"
/// added when not confident; empty for a refused or pending cell (nothing simulated).
std::string llmCellTtftText(const LlmRegionCell& cell);

/// The plots of the LLM curve pack, as data (figure::renderFigureSvg draws them):
///  - "llm-region-heatmap": max_num_seqs (rows) by max_num_batched_tokens (columns), each cell
///    coloured by "feasible" or the limit that fails it, its TTFT p99 inside ("?" when not
///    confident), the recommendation highlighted; other axes fixed at the recommended cell;
///  - "llm-capacity" (with a load axis): the highest load met against max_num_batched_tokens,
///    one line per max_num_seqs, other axes fixed at the recommended cell;
///  - "llm-tokens-ttft": output tokens/s against TTFT p99 for every judged cell, feasible and
///    infeasible apart, the Pareto-optimal cells marked, the TTFT limit shaded;
///  - "llm-energy-tokens" (with a power model): energy per output token against output tokens/s.
std::vector<NamedFigure> llmRegionFigures(const LlmRegionResult& result);

/// The scenario of one cell as a file of its own: llmCellScenario with the scenario's relative
/// paths (replay file, step profile, model configs) made absolute against the result's base
/// directory, so it runs from anywhere.
llmsim::LlmScenario llmReproducerScenario(const LlmRegionResult& result, const LlmRegionCell& cell);

/// Writes the LLM curve pack into `folder` (created when missing, files replaced atomically):
/// cells.csv, capacity.csv (with a load axis), pareto.csv, recommendation.json (the recommended
/// cell with its checks as headroom, or null), llm-region.json (llmRegionToJson), the SVG plots
/// and, with a recommendation, recommended-scenario.json: the cell's scenario, which
/// `batchscope-cli simulate` reproduces exactly. A shard writes only its result, as
/// llm-region-shard-I-of-N.json. Returns the names.
Expected<std::vector<std::string>> writeLlmCurvePack(const LlmRegionResult& result,
                                                     const std::string& folder);

} // namespace bs::analysis
