#pragma once

#include "analysis/regionresult.h"
#include "charts/chartcontent.h"

namespace bs::widgets {

/// Charts of a feasible-region result (display units: ms, mJ, req/s). Series names carry the
/// cell verdict so a click on a point can be mapped back to its cell (regionCellForPoint).

/// p99 latency against throughput: feasible and infeasible cells, the Pareto front as a line,
/// the SLA, the recommended point.
ChartContent regionLatencyThroughputChart(const analysis::RegionResult& result);
/// Energy per inference against throughput, same cells and front.
ChartContent regionEnergyThroughputChart(const analysis::RegionResult& result);
/// Capacity curves: the highest sustainable rate under the SLA per policy, one series per value
/// of the second policy axis, against the first.
ChartContent regionCapacityChart(const analysis::RegionResult& result);
/// The cell drawn at `value` (display units) in one of the two scatter charts, if any.
std::optional<std::size_t> regionCellForPoint(const analysis::RegionResult& result,
                                              const QPointF& value, bool energyChart);

} // namespace bs::widgets
