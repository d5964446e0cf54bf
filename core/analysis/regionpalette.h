#pragma once

#include "analysis/llmregion.h"
#include "analysis/regionresult.h"
#include "figure/palette.h"

namespace bs::analysis {

/// The colour of a cell's verdict: feasible, unstable, error, or the constraint it fails first.
figure::Rgb regionCellColour(const RegionCell& cell);
/// The colour of an LLM cell's verdict: feasible, refused, or the limit it fails first (the
/// limits both regions have keep the queueing region's colours).
figure::Rgb llmCellColour(const LlmRegionCell& cell);

} // namespace bs::analysis
