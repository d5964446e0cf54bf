#pragma once

#include "charts/sweepcharts.h"
#include "playbook/sweepdeltas.h"

#include <QStringList>

namespace bs::widgets {

/// The metrics the Sweep view draws as candidate − baseline.
enum class SweepDeltaMetric
{
    Throughput,
    LatencyP99,
    LatencyP50,
    EnergyPerInference,
};

/// Absolute change in the metric's display unit, or relative change in percent of the baseline.
enum class DeltaScale
{
    Absolute,
    Relative,
};

/// A baseline/candidate pair of sweeps, matched point by point by core (playbook::sweepDeltas).
struct SweepDeltaInput
{
    QString baselineName;
    QString candidateName;
    playbook::SweepDeltas deltas;
};

/// The x axis the delta charts use: concurrency when the points were matched on it and the user
/// asked for it (or batch size does not vary); otherwise batch size. Offered load is never a
/// delta axis: it usually differs between the two sides by design.
SweepXAxis sweepDeltaXAxis(const playbook::SweepDeltas& deltas, SweepXAxis requested);

/// One delta chart: candidate − baseline of `metric` per matched point, a zero line, units in
/// the axis title ("Δ p99 latency (ms)", "Δ throughput (%)") and a tooltip note per point with
/// both sides, the absolute and relative change and its 95% interval. Points whose change is
/// undefined (a side lacks the metric; a zero baseline in relative scale) are left out and named
/// by sweepDeltaNotes(), and so are points the two sides ran at different offered loads (no Δ is
/// drawn there). Where the points carry intervals, dashed bounds give each Δ's 95% interval
/// (deltaBandDescription()). With several concurrencies per batch size (or batch sizes per
/// concurrency) there is one series per value of the other key.
ChartContent sweepDeltaChart(const SweepDeltaInput& input, SweepDeltaMetric metric,
                             DeltaScale scale, SweepXAxis xAxis, bool logX);

/// What the dashed band around a Δ is (legend tooltip and caption).
QString deltaBandDescription();

/// The caption of the delta charts: first which pair is compared, matched on what, at how many
/// points; then one line for each thing the charts cannot show: rows without a partner, metrics
/// only one side measured, relative changes left undefined by a zero baseline.
QStringList sweepDeltaNotes(const SweepDeltaInput& input);

} // namespace bs::widgets
