#include "charts/regioncharts.h"

#include "analysis/regionpalette.h"
#include "charts/regionheatmap.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace bs::widgets {

namespace {

QColor toQColor(figure::Rgb rgb)
{
    return QColor(rgb.red, rgb.green, rgb.blue);
}

constexpr double kMsPerS = 1000.0;
const QColor kLimitColour(200, 40, 40);
constexpr double kMjPerJ = 1000.0;

QPointF cellPoint(const analysis::RegionCell& cell, bool energy)
{
    const double y = energy ? cell.metrics.energyPerInferenceJ.value * kMjPerJ
                            : cell.metrics.p99S.value * kMsPerS;
    return {cell.metrics.throughputPerS.value, y};
}

bool drawable(const QPointF& point)
{
    return std::isfinite(point.x()) && std::isfinite(point.y()) && point.y() > 0.0;
}

ChartContent scatterChart(const analysis::RegionResult& result, bool energy)
{
    ChartContent content;
    content.title = energy ? QObject::tr("Energy vs throughput") : QObject::tr("p99 vs throughput");
    content.xTitle = QObject::tr("Throughput (requests/s)");
    content.yTitle =
        energy ? QObject::tr("Energy per inference (mJ)") : QObject::tr("p99 latency (ms)");
    content.xUnit = QStringLiteral("req/s");
    content.yUnit = energy ? QStringLiteral("mJ") : QStringLiteral("ms");
    content.logY = !energy;
    content.emptyText = QObject::tr("No region computed yet");

    // One scatter series per verdict, in the heatmap's colours.
    std::map<QString, SeriesSpec> byCategory;
    for (const auto& cell : result.cells) {
        const QPointF point = cellPoint(cell, energy);
        if (!drawable(point))
            continue;
        const QString category = regionCellCategory(cell);
        auto& series = byCategory[category];
        series.data.name = category;
        series.style = SeriesStyle::Scatter;
        series.colour = widgets::regionCellColour(cell);
        series.data.points.append(point);
    }
    for (auto& [name, series] : byCategory)
        content.series.append(series);

    // The front of this projection: feasible cells no other feasible cell beats on both
    // throughput (higher) and y (lower). The 3-objective front (result.paretoCells) zig-zags
    // when drawn in two dimensions, so each chart draws its own.
    SeriesSpec front;
    front.data.name = QObject::tr("Pareto front");
    front.style = SeriesStyle::Step;
    front.colour = toQColor(figure::palette::kParetoFront);
    QList<QPointF> feasible;
    for (const auto& cell : result.cells)
        if (cell.status == analysis::CellStatus::Feasible && drawable(cellPoint(cell, energy)))
            feasible.append(cellPoint(cell, energy));
    std::sort(feasible.begin(), feasible.end(), [](const QPointF& a, const QPointF& b) {
        return a.x() > b.x() || (a.x() == b.x() && a.y() < b.y());
    });
    double bestY = std::numeric_limits<double>::infinity();
    for (const QPointF& point : feasible)
        if (point.y() < bestY) {
            bestY = point.y();
            front.data.points.prepend(point);
        }
    if (!front.data.points.isEmpty())
        content.series.append(front);

    if (result.recommendation)
        if (const auto* cell = result.cell(result.recommendation->cell);
            cell && drawable(cellPoint(*cell, energy))) {
            SeriesSpec star;
            star.data.name = QObject::tr("Recommended");
            star.style = SeriesStyle::Scatter;
            star.colour = toQColor(figure::palette::kRecommended);
            star.emphasised = true;
            star.data.points.append(cellPoint(*cell, energy));
            content.series.append(star);
        }
    const auto& limits = result.spec.constraints;
    if (!energy && limits.slaP99S > 0)
        content.references.append({QObject::tr("SLA p99 %1 ms").arg(limits.slaP99S * kMsPerS),
                                   limits.slaP99S * kMsPerS,
                                   Qt::Horizontal,
                                   kLimitColour,
                                   {},
                                   AcceptableSide::Below,
                                   QObject::tr("meets SLA p99")});
    if (energy && limits.maxEnergyPerInferenceJ)
        content.references.append({QObject::tr("budget"),
                                   *limits.maxEnergyPerInferenceJ * kMjPerJ,
                                   Qt::Horizontal,
                                   kLimitColour,
                                   {},
                                   AcceptableSide::Below,
                                   QObject::tr("within energy budget")});
    if (limits.minThroughputPerS)
        content.references.append({QObject::tr("demand"),
                                   *limits.minThroughputPerS,
                                   Qt::Vertical,
                                   kLimitColour,
                                   {},
                                   AcceptableSide::Above,
                                   QObject::tr("meets demand")});
    for (auto& series : content.series) {
        series.data.xTitle = content.xTitle;
        series.data.yTitle = content.yTitle;
    }
    return content;
}

/// A legend-sized name for one value of an axis: "2 ms delay", "4 servers".
QString shortAxisValue(const analysis::RegionAxis& axis, std::size_t index)
{
    const QString value = QString::fromStdString(axis.label(index));
    switch (axis.kind) {
    case analysis::RegionAxisKind::MaxQueueDelayMs:
        return QObject::tr("%1 ms delay").arg(value);
    case analysis::RegionAxisKind::MaxBatch:
        return QObject::tr("batch ≤ %1").arg(value);
    case analysis::RegionAxisKind::Servers:
        return QObject::tr("%1 servers").arg(value);
    case analysis::RegionAxisKind::PowerCapW:
        return QObject::tr("%1 W cap").arg(value);
    default:
        return value;
    }
}

} // namespace

ChartContent regionLatencyThroughputChart(const analysis::RegionResult& result)
{
    return scatterChart(result, false);
}

ChartContent regionEnergyThroughputChart(const analysis::RegionResult& result)
{
    return scatterChart(result, true);
}

ChartContent regionCapacityChart(const analysis::RegionResult& result)
{
    ChartContent content;
    content.title = QObject::tr("Capacity under the SLA");
    content.yTitle = QObject::tr("Max sustainable rate (requests/s)");
    content.yUnit = QStringLiteral("req/s");
    content.yIncludesZero = true;
    content.emptyText = QObject::tr("No capacity curve (the grid needs a policy axis)");
    const auto& axes = result.spec.axes;
    // The policy axes are the non-rate ones; the first goes across, the second splits series.
    std::vector<std::size_t> policyAxes;
    for (std::size_t axis = 0; axis < axes.size(); ++axis)
        if (!axes[axis].isRate())
            policyAxes.push_back(axis);
    if (policyAxes.empty() || result.capacity.empty())
        return content;
    const auto& across = axes[policyAxes[0]];
    content.xTitle = QString::fromStdString(analysis::axisTitle(across.kind));
    content.logX = across.kind == analysis::RegionAxisKind::MaxBatch;
    content.logXBase = 2.0;
    std::map<std::size_t, SeriesSpec> bySplit;
    for (const auto& point : result.capacity) {
        if (point.axisIndex.size() != axes.size())
            continue;
        const std::size_t split = policyAxes.size() > 1 ? point.axisIndex[policyAxes[1]] : 0;
        auto& series = bySplit[split];
        if (series.data.name.isEmpty()) {
            series.data.name = policyAxes.size() > 1 ? shortAxisValue(axes[policyAxes[1]], split)
                                                     : QObject::tr("Capacity");
            series.colour = neutralColour(int(split));
        }
        const std::size_t x = point.axisIndex[policyAxes[0]];
        const double xValue =
            across.kind == analysis::RegionAxisKind::Precision ? double(x + 1) : across.values[x];
        series.data.points.append({xValue, point.maxRatePerS});
    }
    for (auto& [split, series] : bySplit) {
        std::sort(series.data.points.begin(), series.data.points.end(),
                  [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
        series.data.xTitle = content.xTitle;
        series.data.yTitle = content.yTitle;
        content.series.append(series);
    }
    if (result.spec.constraints.minThroughputPerS)
        content.references.append(
            {QObject::tr("demand"), *result.spec.constraints.minThroughputPerS, Qt::Horizontal});
    return content;
}

std::optional<std::size_t> regionCellForPoint(const analysis::RegionResult& result,
                                              const QPointF& value, bool energyChart)
{
    for (const auto& cell : result.cells) {
        const QPointF point = cellPoint(cell, energyChart);
        if (drawable(point) &&
            std::fabs(point.x() - value.x()) <= 1e-9 * std::max(1.0, std::fabs(value.x())) &&
            std::fabs(point.y() - value.y()) <= 1e-9 * std::max(1.0, std::fabs(value.y())))
            return cell.index;
    }
    return std::nullopt;
}

} // namespace bs::widgets
