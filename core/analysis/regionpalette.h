#pragma once

#include "analysis/regionresult.h"
#include "figure/palette.h"

namespace bs::analysis {

/// The colour of a cell's verdict: feasible, unstable, error, or the constraint it fails first.
figure::Rgb regionCellColour(const RegionCell& cell);

} // namespace bs::analysis
