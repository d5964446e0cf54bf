#pragma once

#include "analysis/distribution.h"
#include "data/llmrun.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bs::analysis {

/// One LLM benchmark run analysed from its per-request records: exact TTFT, TPOT, ITL and E2E
/// percentiles with their order-statistic intervals (seconds), over the successful requests.
/// A run without per-request records has empty distributions and only the tool's figures.
struct LlmRunAnalysis
{
    std::string tool;
    std::int64_t line = 0;
    std::uint64_t requests = 0; ///< Per-request records.
    std::uint64_t failed = 0;   ///< Of those, the ones the tool marked failed.
    std::optional<double> requestRatePerS;
    std::optional<std::int64_t> completed;  ///< As the tool reported it.
    std::optional<double> outputTokensPerS; ///< As the tool reported it.
    Distribution ttft, tpot, e2e;
    Distribution itl; ///< Pooled over every gap of every successful request (as vLLM pools).
};

std::vector<LlmRunAnalysis> analyzeLlmRuns(const data::LlmRunSet& set);

/// {"kind": "llm_runs", "runs": [...]}, distributions in ms.
nlohmann::json toJson(const std::vector<LlmRunAnalysis>& runs);

} // namespace bs::analysis
