#include "charts/regioncelltext.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>
#include <limits>

namespace bs::widgets {

namespace {

using analysis::ConstraintKind;

QString tr(const char* text)
{
    return QCoreApplication::translate("RegionCellText", text);
}

/// How a constraint's value reads: its name, the scale from core units and the unit.
struct ConstraintWording
{
    QString metric;
    QString limitName;
    double scale = 1.0;
    QString unit;
};

ConstraintWording wordingOf(ConstraintKind kind)
{
    switch (kind) {
    case ConstraintKind::P99:
        return {tr("p99 latency"), tr("SLA"), 1e3, QStringLiteral(" ms")};
    case ConstraintKind::Throughput:
        return {tr("throughput"), tr("demand"), 1.0, tr(" req/s")};
    case ConstraintKind::Power:
        return {tr("power per server"), tr("limit"), 1.0, QStringLiteral(" W")};
    case ConstraintKind::Temperature:
        return {tr("peak temperature"), tr("limit"), 1.0, QStringLiteral(" °C")};
    case ConstraintKind::Energy:
        return {tr("energy per inference"), tr("budget"), 1e3, QStringLiteral(" mJ")};
    default:
        return {};
    }
}

QString number(double value)
{
    return QLocale().toString(value, 'g', 4);
}

const analysis::ConstraintCheck* bindingCheck(const analysis::RegionCell& cell)
{
    for (const auto& check : cell.checks)
        if (check.kind == cell.binding)
            return &check;
    return nullptr;
}

} // namespace

QString bindingShortLabel(const analysis::RegionCell& cell)
{
    switch (cell.binding) {
    case ConstraintKind::P99:
        return QStringLiteral("p99");
    case ConstraintKind::Throughput:
        return tr("thru");
    case ConstraintKind::Power:
        return tr("pwr");
    case ConstraintKind::Temperature:
        return tr("temp");
    case ConstraintKind::Energy:
        return tr("enrg");
    case ConstraintKind::Stability:
        return QStringLiteral("ρ≥1");
    case ConstraintKind::None:
        break;
    }
    return {};
}

QString bindingText(const analysis::RegionCell& cell)
{
    if (cell.binding == ConstraintKind::Stability)
        return tr("capacity: offered load at or above what the servers sustain (ρ = %1)")
            .arg(QLocale().toString(cell.metrics.rho, 'f', 2));
    if (cell.binding == ConstraintKind::None)
        return tr("none (no constraint was checked)");
    const ConstraintWording w = wordingOf(cell.binding);
    const auto* check = bindingCheck(cell);
    if (!check || !std::isfinite(check->value))
        return tr("%1: no value, so the %2 cannot be shown to hold").arg(w.metric, w.limitName);
    const QString margin = QLocale().toString(std::abs(check->margin) * 100.0, 'f', 0);
    return tr("%1 %2 against the %3 %4: %5 %6%")
        .arg(w.metric, number(check->value * w.scale) + w.unit,
             number(check->limit * w.scale) + w.unit, w.limitName,
             check->satisfied ? tr("margin") : tr("missed by"), margin);
}

double smallestMargin(const analysis::RegionCell& cell)
{
    double margin = std::numeric_limits<double>::infinity();
    for (const auto& check : cell.checks)
        if (std::isfinite(check.margin))
            margin = std::min(margin, check.margin);
    return std::isfinite(margin) ? margin : std::nan("");
}

} // namespace bs::widgets
