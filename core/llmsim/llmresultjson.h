#pragma once

#include "llmsim/llmresult.h"

#include <nlohmann/json.hpp>

namespace bs::llmsim {

/// Time-series windows the result JSON shows at most (steps are averaged per window).
inline constexpr std::size_t kMaxSeriesWindows = 200;

/// The result as JSON (README.md: "Result JSON"): the scenario as run, per-metric estimates
/// over the replications, each replication's metrics, and replication 0's step series.
nlohmann::json llmResultToJson(const LlmResult& result);

} // namespace bs::llmsim
