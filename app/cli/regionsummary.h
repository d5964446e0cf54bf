#pragma once

#include "analysis/regionresult.h"
#include "commandline.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bs::cli {

/// The human summary of a region result: grid and counts, a compact table (one row per
/// policy, one column per rate, a code per cell, the capacity), the recommendation with its
/// headroom, warnings.
std::string formatRegionSummary(const analysis::RegionResult& result);

/// What `region` and `merge` do last: print the result (--json: its JSON; else the summary)
/// and, with --out DIR, write the curve pack there (a shard: DIR/region-shard-I-of-N.json).
/// Returns the exit code.
int finishRegion(const analysis::RegionResult& result, const ParsedArgs& args, CliIo& io);

/// Reads a JSON file (plain or gzip); errors name the file, line and column.
Expected<nlohmann::json> readJsonFile(const std::string& path);

} // namespace bs::cli
