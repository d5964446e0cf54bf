#pragma once

#include "analysis/perfanalyzervalidation.h"
#include "charts/chartcontent.h"

namespace bs::widgets {

/// Measured (solid) and predicted (dashed) throughput in inferences/s against concurrency, one
/// pair per run of the sweep.
ChartContent validationThroughputChart(const analysis::PerfAnalyzerValidation& validation);

/// Measured (solid) and predicted (dashed) p50 and p99 latency in ms against concurrency.
ChartContent validationLatencyChart(const analysis::PerfAnalyzerValidation& validation);

} // namespace bs::widgets
