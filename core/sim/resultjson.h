#pragma once

#include "sim/result.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bs::sim {

/// The JSON form of a Result (core/sim/README.md, "Result JSON"): what `batchscope-cli simulate
/// --json` prints and what the GUI and reports read. Latencies in milliseconds (*_ms), rates per
/// second, power in W, energy in J; a metric that does not exist is null. Per-request records are
/// not included (see writeRecordsCsv); only their count is.
nlohmann::json resultToJson(const Result& result);
/// The same, under the name the other modules use.
inline nlohmann::json toJson(const Result& result)
{
    return resultToJson(result);
}

/// The per-request records as CSV: index,stream,server,batch_size,arrival_s,dispatch_s,
/// completion_s,latency_ms,queue_wait_ms (stream by name when streams are named).
std::string recordsToCsv(const Result& result);

/// Writes recordsToCsv atomically to `path`.
Status writeRecordsCsv(const Result& result, const std::string& path);

} // namespace bs::sim
