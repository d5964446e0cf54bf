#pragma once

#include "analysis/llmregion.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bs::analysis {

/// The result as JSON (kind "batchscope.llmregion.result"; REGION.md, "LLM servers"): the grid,
/// the limits, every cell with its checks and estimates (ms, tokens/s; [value, ci_low, ci_high],
/// NaN as null), the recommendation.
nlohmann::json llmRegionToJson(const LlmRegionResult& result);

/// cells.csv: one row per cell with every metric, its 95% interval and every margin.
std::string llmCellsCsv(const LlmRegionResult& result);

/// The scenario of one cell as a file of its own: llmCellScenario with the scenario's relative
/// paths (replay file, step profile, model configs) made absolute against the result's base
/// directory, so it runs from anywhere.
llmsim::LlmScenario llmReproducerScenario(const LlmRegionResult& result, const LlmRegionCell& cell);

/// Writes the LLM curve pack into `folder` (created when missing, files replaced atomically):
/// cells.csv, recommendation.json (the recommended cell with its checks as headroom, or null),
/// llm-region.json (llmRegionToJson) and, with a recommendation, recommended-scenario.json:
/// the cell's scenario, which `batchscope-cli simulate` reproduces exactly. Returns the names.
Expected<std::vector<std::string>> writeLlmCurvePack(const LlmRegionResult& result,
                                                     const std::string& folder);

} // namespace bs::analysis
