#pragma once

#include "analysis/kernelanalysis.h"
#include "analysis/requestanalysis.h"
#include "analysis/thermalevidence.h"
#include "analysis/thermalmodelcheck.h"
#include "charts/chartcontent.h"

namespace bs::widgets {

/// Charts of the trace analytics (core/analysis), built as pure functions of the results so
/// the views, the tests and the report draw the same numbers. Latencies in milliseconds.

/// Empirical CDFs of latency and queue wait, with the p50/p99 estimates and the p99's 95%
/// interval as vertical lines.
ChartContent latencyCdfChart(const analysis::RequestAnalysis& analysis);
/// p50 and p99 latency per window, the p99's 95% interval as dashed bounds, and the SLA.
ChartContent percentilesOverTimeChart(const analysis::RequestAnalysis& analysis,
                                      std::optional<double> slaP99Ms);
/// Completions per second per window.
ChartContent throughputOverTimeChart(const analysis::RequestAnalysis& analysis);
/// How many batches had each size.
ChartContent batchSizeHistogramChart(const analysis::RequestAnalysis& analysis);
/// Device time per step by kernel class (GEMM, elementwise, memory, ...), milliseconds.
ChartContent kernelBreakdownChart(const analysis::KernelAnalysis& analysis);
/// Power (W) with the throttling evidence's time axis in seconds since the log start, the
/// idle power (its definition in the legend entry's tooltip) and the cap.
ChartContent powerTimelineChart(const analysis::ThermalEvidence& evidence,
                                std::optional<double> powerCapW);
/// SM clock (MHz) on the same time axis as the power and temperature charts, with the sustained
/// clock and every clock drop as one marker series "clock drops (N)" (details per marker in its
/// tooltip and the table). A clock falling while the temperature climbs is thermal throttling;
/// each quantity has its own chart so each keeps its own y axis and unit.
ChartContent smClockChart(const analysis::ThermalEvidence& evidence);
/// Logged temperature (°C) and, dashed, the model's thermal RC integrated over the log's own
/// power, with the model's slowdown temperature: how far the device runs from where the model
/// says, and how much thermal headroom it has. `model` may be null (no project model): the
/// logged temperature is drawn alone.
ChartContent temperatureChart(const analysis::ThermalEvidence& evidence,
                              const analysis::ThermalModelCheck* model);
/// Completions per second aligned with the power log (empty without a matched request trace).
ChartContent alignedThroughputChart(const analysis::ThermalEvidence& evidence);

} // namespace bs::widgets
