#pragma once

#include "analysis/regionresult.h"

#include <QString>

namespace bs::widgets {

/// What binds a region cell, in words, for the heatmap, its tooltip and its table. The binding
/// constraint is the one with the smallest margin: for a feasible cell the first limit it would
/// hit if pushed, for an infeasible one the limit it misses by most, for an unstable one the
/// capacity (ρ ≥ 1).

/// A few characters that fit in a cell: "p99", "thru", "pwr", "temp", "enrg", "ρ≥1".
QString bindingShortLabel(const analysis::RegionCell& cell);
/// The whole sentence: "p99 latency 12.3 ms against the 15 ms SLA: 18% margin".
QString bindingText(const analysis::RegionCell& cell);
/// The smallest finite margin over the cell's checks (a fraction), NaN when it has none.
double smallestMargin(const analysis::RegionCell& cell);

} // namespace bs::widgets
