#pragma once

#include "sim/result.h"

#include <string>

namespace bs::cli {

/// A simulation result as aligned text for a terminal: stability, throughput, latency and
/// queue-wait percentiles with their 95% intervals, batch sizes, utilisation, energy, streams
/// and fairness, warnings, and the methods used.
std::string formatSimulationSummary(const sim::Result& result);

} // namespace bs::cli
