#pragma once

#include "data/llmrun.h"

#include <nlohmann/json.hpp>

namespace bs::io {

/// What `inspect` shows of LLM benchmark runs: counts, then per run its tool, load, totals,
/// throughputs and the aggregates the tool reported (seconds), each with its definition.
nlohmann::json llmRunSetSummary(const data::LlmRunSet& set);

} // namespace bs::io
