#pragma once

#include "analysis/curvefigures.h"
#include "analysis/llmregion.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
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

/// The spec alone (kind "batchscope.llmregion.spec"): the scenario, the axes, the limits and the
/// objective, in the keys of the result's header. A project's `llm` section holds one.
nlohmann::json llmRegionSpecToJson(const LlmRegionSpec& spec);

/// Reads what llmRegionSpecToJson wrote and validates the grid; errors name `path` and the
/// dotted key under `where` (e.g. "llm.limits.ttft_p99_ms").
Expected<LlmRegionSpec> llmRegionSpecFromJson(const nlohmann::json& json, const std::string& path,
                                              const std::string& where);

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

/// The files of the LLM curve pack by name, in the order they are written: llm-region.json
/// (llmRegionToJson), cells.csv, capacity.csv (with a load axis), pareto.csv,
/// recommendation.json (the recommended cell with its checks as headroom, or null), the SVG
/// plots when `withPlots`, and, with a recommendation, recommended-scenario.json: the cell's
/// scenario (llmReproducerScenario), which `batchscope-cli simulate` reproduces exactly. A
/// shard has only its result, as llm-region-shard-I-of-N.json. The report attaches the same
/// files (its figures are drawn in the document, so it asks for no plots).
std::vector<std::pair<std::string, std::string>> llmCurvePackFiles(const LlmRegionResult& result,
                                                                   bool withPlots);

/// Writes the LLM curve pack (llmCurvePackFiles with the plots) into `folder` (created when
/// missing, files replaced atomically). Returns the names.
Expected<std::vector<std::string>> writeLlmCurvePack(const LlmRegionResult& result,
                                                     const std::string& folder);

} // namespace bs::analysis
