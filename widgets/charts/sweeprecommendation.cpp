#include "charts/sweeprecommendation.h"

#include <QLocale>
#include <QObject>
#include <QStringList>

#include <cmath>

namespace bs::widgets {

namespace {

/// The cell's value on the axis of `kind`, or nothing when the grid does not vary it.
std::optional<double> axisValue(const analysis::RegionResult& result,
                                const analysis::RegionCell& cell, analysis::RegionAxisKind kind)
{
    for (std::size_t axis = 0; axis < result.spec.axes.size(); ++axis) {
        const auto& a = result.spec.axes[axis];
        if (a.kind == kind && axis < cell.axisIndex.size() && cell.axisIndex[axis] < a.size() &&
            kind != analysis::RegionAxisKind::Precision)
            return a.values[cell.axisIndex[axis]];
    }
    return std::nullopt;
}

std::optional<double> finite(double value)
{
    return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

} // namespace

QString regionCellPolicyText(const analysis::RegionResult& result, const analysis::RegionCell& cell)
{
    QStringList where;
    for (std::size_t axis = 0; axis < result.spec.axes.size() && axis < cell.axisIndex.size();
         ++axis)
        where << QStringLiteral("%1 %2").arg(
            QString::fromStdString(analysis::axisTitle(result.spec.axes[axis].kind)),
            QString::fromStdString(result.spec.axes[axis].label(cell.axisIndex[axis])));
    return where.join(QStringLiteral(", "));
}

std::optional<SweepRecommendation> sweepRecommendationOf(const analysis::RegionResult& result)
{
    if (result.stage != analysis::RegionStage::Complete || !result.recommendation)
        return std::nullopt;
    const analysis::RegionCell* cell = result.cell(result.recommendation->cell);
    if (!cell || !std::isfinite(cell->metrics.p99S.value))
        return std::nullopt;
    const auto& m = cell->metrics;
    SweepRecommendation out;
    out.maxBatch = axisValue(result, *cell, analysis::RegionAxisKind::MaxBatch)
                       .value_or(double(result.spec.scenario.policy.maxBatch));
    out.servers = int(axisValue(result, *cell, analysis::RegionAxisKind::Servers)
                          .value_or(double(result.spec.scenario.servers.count)));
    out.servers = std::max(out.servers, 1);
    out.offeredRatePerServerPerS = m.offeredRatePerS / out.servers;
    out.throughputPerServerPerS = m.throughputPerS.value / out.servers;
    out.p99Ms = m.p99S.value * 1e3;
    out.p99LowMs = m.p99S.ciLow * 1e3;
    out.p99HighMs = m.p99S.ciHigh * 1e3;
    if (const auto energy = finite(m.energyPerInferenceJ.value))
        out.energyPerInferenceMj = *energy * 1e3;
    out.powerPerServerW = finite(m.powerPerServerW.value);
    out.objective = QString::fromUtf8(analysis::objectiveName(result.recommendation->objective));
    out.policy = regionCellPolicyText(result, *cell);
    return out;
}

QString sweepRecommendationText(const SweepRecommendation& r)
{
    QString text =
        QObject::tr("Recommended (Region tab, %1): %2 → %3 req/s at p99 %4 ms (95% interval "
                    "%5–%6 ms)")
            .arg(r.objective, r.policy,
                 QLocale().toString(r.throughputPerServerPerS * r.servers, 'f', 0),
                 QLocale().toString(r.p99Ms, 'g', 4), QLocale().toString(r.p99LowMs, 'g', 4),
                 QLocale().toString(r.p99HighMs, 'g', 4));
    if (r.servers > 1)
        text += QObject::tr("; drawn per server (%1 servers) beside the sweeps").arg(r.servers);
    return text + QLatin1Char('.');
}

} // namespace bs::widgets
