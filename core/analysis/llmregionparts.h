#pragma once

// Internal to the LLM region's JSON readers (llmregionread.cpp, llmregionspecjson.cpp).

#include "analysis/llmregion.h"

#include <nlohmann/json_fwd.hpp>

namespace bs::io {
class JsonFields;
}

namespace bs::analysis {

/// The spec's keys of `document` (scenario, axes, limits, objective) through `f`, which
/// collects the first error; the grid is not validated here.
LlmRegionSpec readLlmRegionSpec(io::JsonFields& f, const nlohmann::json& document);

} // namespace bs::analysis
