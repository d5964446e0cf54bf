#pragma once

#include "charts/chartcontent.h"
#include "charts/sweeprecommendation.h"
#include "data/dataset.h"

#include <memory>
#include <optional>

namespace bs::widgets {

enum class SweepXAxis
{
    BatchSize,
    Concurrency,
    RequestRate,
};

/// One sweep to draw, with the role that picks its colour.
struct SweepInput
{
    QString name;
    data::DatasetRole role = data::DatasetRole::None;
    std::shared_ptr<const data::SweepTable> table;
};

/// Extra curves on top of the measurements (the fitted model, a simulation). Empty lists are
/// not drawn. Display units as in the charts.
struct SweepOverlay
{
    QString name;        ///< Short, for legends ("Model", "Simulated").
    QString description; ///< What it is, for the caption above the charts.
    QList<QPointF> throughputPerS;
    QList<QPointF> latencyP99Ms;
    QList<QPointF> energyPerInferenceMj;
    QList<QPointF> powerW;
};

struct SweepChartOptions
{
    SweepXAxis xAxis = SweepXAxis::BatchSize;
    bool logX = true;
    bool logY = false;
    std::optional<double> slaP99Ms;
    std::optional<double> powerCapW;
    /// The Region view's recommended point, drawn against batch size (its max batch) or offered
    /// load (per server); not against concurrency, which a policy does not set.
    std::optional<SweepRecommendation> recommendation;
};

/// The x axis that suits a set of sweeps: batch size when batch varies, else its load axis.
SweepXAxis suggestedXAxis(const QList<SweepInput>& sweeps);

ChartContent sweepThroughputChart(const QList<SweepInput>& sweeps,
                                  const QList<SweepOverlay>& overlays,
                                  const SweepChartOptions& options);
/// p99 solid, p50 dashed, per sweep; the SLA as a line with the side that meets it shaded.
ChartContent sweepLatencyChart(const QList<SweepInput>& sweeps, const QList<SweepOverlay>& overlays,
                               const SweepChartOptions& options);
/// Energy per inference in millijoules (measured, or power ÷ throughput when only those exist).
ChartContent sweepEnergyChart(const QList<SweepInput>& sweeps, const QList<SweepOverlay>& overlays,
                              const SweepChartOptions& options);
ChartContent sweepPowerChart(const QList<SweepInput>& sweeps, const QList<SweepOverlay>& overlays,
                             const SweepChartOptions& options);

/// Energy per inference in joules for a point: measured, or derived from power and throughput.
std::optional<double> energyPerInferenceJ(const data::SweepPoint& point);

} // namespace bs::widgets
