#pragma once

#include "analysis/regionresult.h"
#include "util/expected.h"

#include <string>
#include <vector>

namespace bs::analysis {

/// cells.csv: one row per cell of the result (REGION.md, "Curve pack" lists the columns).
/// Numbers are written shortest-exact (they read back to the same double); absent ones empty.
std::string cellsCsv(const RegionResult& result);
/// pareto.csv: the Pareto-optimal cells (throughput up, p99 down, energy down).
std::string paretoCsv(const RegionResult& result);
/// capacity.csv: one row per policy, its maximum sustainable rate and what binds above it.
std::string capacityCsv(const RegionResult& result);

/// Writes the batch policy curve pack into `folder` (created when missing; existing files of
/// the same names are replaced, each atomically): cells.csv, pareto.csv, capacity.csv,
/// region.json (the whole result: spec with scenario and seed, version - regionResultFromJson
/// reads it back, `batchscope-cli region region.json` recomputes it) and one SVG per figure of
/// curvePackFigures. Returns the names of the files written, in that order.
/// Errors: a folder or file that cannot be written (ErrorCode::Io, naming it).
Expected<std::vector<std::string>> writeCurvePack(const RegionResult& result,
                                                  const std::string& folder);

} // namespace bs::analysis
