#pragma once

#include "llmsim/llmresult.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bs::llmsim {

/// Time-series windows the result JSON shows at most (steps are averaged per window).
inline constexpr std::size_t kMaxSeriesWindows = 200;

/// The result as JSON (README.md: "Result JSON"): the scenario as run, per-metric estimates
/// over the replications, each replication's metrics, and replication 0's step series.
nlohmann::json llmResultToJson(const LlmResult& result);

/// Replication 0's requests as CSV: index,arrival_s,prompt_tokens,output_tokens,
/// first_scheduled_s,first_token_s,finish_s,ttft_ms,tpot_ms,e2e_ms,queue_ms,max_itl_ms,
/// preemptions (written atomically).
Status writeLlmRequestsCsv(const LlmResult& result, const std::string& path);

} // namespace bs::llmsim
