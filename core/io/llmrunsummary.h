#pragma once

#include "data/llmrun.h"

#include <nlohmann/json.hpp>

namespace bs::io {

/// What `inspect` shows of LLM benchmark runs: counts, then per run its tool, load, totals,
/// throughputs and the aggregates the tool reported (seconds), each with its definition.
nlohmann::json llmRunSetSummary(const data::LlmRunSet& set);

/// The engine's batching limits among a run's knobs (trtllm-bench's world_info):
/// {"max_batch_size", "max_num_tokens", "scheduling_policy", "kv_cache_fraction", "tp_size"}
/// as written, only those the run has.
nlohmann::json llmBatchingKnobs(const data::LlmRun& run);

} // namespace bs::io
