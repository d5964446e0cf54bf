#pragma once

#include "analysis/regionresult.h"
#include "figure/figure.h"

#include <string>
#include <vector>

namespace bs::analysis {

/// A figure of the curve pack with the file stem it is written under ("region-heatmap").
struct NamedFigure
{
    std::string name;
    figure::Figure figure;
};

/// The plots of the batch policy curve pack (REGION.md, "Curve pack"), as plain data that
/// figure::renderFigureSvg draws and the GUI's region view and the report reuse:
///  - "region-heatmap": the first two policy axes (the rate when there is only one), each cell
///    coloured by "feasible" or the constraint that fails it (unstable, error, pending), its
///    p99 in ms written inside ("?" when not confident), the recommendation highlighted; the
///    other axes are fixed at the recommended cell (index 0 without one), as the caption says;
///  - "throughput-p99": every stable cell, feasible and infeasible apart, the Pareto front of
///    throughput against p99 as a line, the SLA (and the demand) as reference lines;
///  - "energy-throughput": energy per inference against throughput, the same way (no points
///    when the scenario has no power information, as the caption says);
///  - "capacity": the maximum sustainable rate per policy against the first policy axis, one
///    line per value of the second, the demand as a reference line.
/// Works on previews and shards too (whatever cells they hold).
std::vector<NamedFigure> curvePackFigures(const RegionResult& result);

} // namespace bs::analysis
