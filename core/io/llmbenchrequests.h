#pragma once

#include "data/llmrun.h"
#include "io/linereader.h"

#include <nlohmann/json.hpp>

#include <set>
#include <vector>

namespace bs::io {

/// The per-request arrays of a vLLM result (`input_lens`, `output_lens`, `ttfts`, `itls`,
/// `start_times`, `errors`; seconds), as requests; empty when the run has none. Arrays of
/// different lengths, or values that are not non-negative numbers, are errors on the current
/// line of `lines`. The keys read are added to `used`.
Expected<std::vector<data::LlmRequest>>
readLlmRequests(const nlohmann::json& object, const LineReader& lines, std::set<std::string>& used);

} // namespace bs::io
