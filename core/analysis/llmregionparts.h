#pragma once

// Internal to the LLM region's parts: its JSON readers (llmregionread.cpp,
// llmregionspecjson.cpp) and the cell judging its grid and its headroom search share.

#include "analysis/llmregion.h"

#include <nlohmann/json_fwd.hpp>

namespace bs::io {
class JsonFields;
}

namespace bs::analysis {

/// The spec's keys of `document` (scenario, axes, limits, objective) through `f`, which
/// collects the first error; the grid is not validated here.
LlmRegionSpec readLlmRegionSpec(io::JsonFields& f, const nlohmann::json& document);

/// As the recommendation, the capacity curves and the load headroom count a cell: judged,
/// feasible and confidently so.
inline bool meetsConfidently(const LlmRegionCell& c)
{
    return !c.pending && c.status == LlmCellStatus::Feasible && c.confident;
}

/// Cell `index` judged from its run of `scenario` (the cell's, or one at another load); an
/// error unless the run succeeded or the engine refused the load up front.
Expected<LlmRegionCell> judgedLlmCell(const LlmRegionSpec& spec, std::size_t index,
                                      const llmsim::LlmScenario& scenario,
                                      const Expected<llmsim::LlmResult>& run);

} // namespace bs::analysis
