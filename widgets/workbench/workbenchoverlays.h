#pragma once

#include "charts/chartcontent.h"
#include "charts/sweepcharts.h"
#include "workbench/workbenchjob.h"

namespace bs::widgets {

/// The model prediction and the simulated policy curve as overlays on the sweep charts
/// (x = batch size): model service time, throughput, energy and power; simulated p99 and
/// throughput against max batch at the scenario's traffic.
QList<SweepOverlay> workbenchOverlays(const WorkbenchOutputs& outputs, const QString& trafficLabel);

/// What the simulation charts say when they have nothing to draw, where the user looks: no run
/// yet, the scenario's error, or why the scenario is unstable ("Unstable: ρ = 3.52 ≥ 1 — …
/// lower the arrival rate or add servers"), so an empty chart never reads as "not run".
QString simulationEmptyText(const WorkbenchOutputs& outputs);

/// Latency histogram of a simulation (share of requests per bucket, x in ms).
ChartContent simulatedLatencyHistogram(const sim::Result& result, std::optional<double> slaP99Ms);
/// p50/p90/p99 per time window (replication 0), ms.
ChartContent simulatedLatencyOverTime(const sim::Result& result, std::optional<double> slaP99Ms);
/// Mean queue depth and mean batch per time window.
ChartContent simulatedQueueOverTime(const sim::Result& result);
/// Share of batches per batch size.
ChartContent simulatedBatchSizes(const sim::Result& result);
/// p99 (with its CI bounds) against max batch from the policy curve.
ChartContent policyCurveChart(const WorkbenchOutputs& outputs, std::optional<double> slaP99Ms);

} // namespace bs::widgets
