#include "charts/llmregioncelltext.h"

#include "analysis/regionpalette.h"

#include <QLocale>
#include <QObject>
#include <QStringList>

#include <cmath>

namespace bs::widgets {

using analysis::LlmAxis;
using analysis::LlmCellStatus;
using analysis::LlmConstraint;

namespace {

/// Output tokens/s and goodput are demands (at least); every other limit is a ceiling.
bool isDemand(LlmConstraint kind)
{
    return kind == LlmConstraint::OutputTokens || kind == LlmConstraint::Goodput;
}

QString withUnit(const QString& number, const QString& unit)
{
    return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

} // namespace

QString llmNumber(double value, int digits)
{
    return std::isfinite(value) ? QLocale().toString(value, 'g', digits) : QStringLiteral("—");
}

QString llmEstimateText(const sim::Estimate& estimate, const QString& unit)
{
    QString text = withUnit(llmNumber(estimate.value), unit);
    if (std::isfinite(estimate.value) && std::isfinite(estimate.ciLow) &&
        std::isfinite(estimate.ciHigh))
        text +=
            QStringLiteral(" [%1, %2]").arg(llmNumber(estimate.ciLow), llmNumber(estimate.ciHigh));
    return text;
}

QColor llmCellQColour(const analysis::LlmRegionCell& cell)
{
    if (cell.pending)
        return QColor(0xc8, 0xc8, 0xc8);
    const auto rgb = analysis::llmCellColour(cell);
    return QColor(rgb.red, rgb.green, rgb.blue);
}

QString llmCellCategory(const analysis::LlmRegionCell& cell)
{
    if (cell.pending)
        return QObject::tr("pending (computing)");
    if (cell.status == LlmCellStatus::Feasible)
        return QObject::tr("feasible");
    if (cell.status == LlmCellStatus::Refused)
        return QObject::tr("refused up front");
    const QString comparison =
        isDemand(cell.binding) ? QStringLiteral(" < ") : QStringLiteral(" > ");
    return llmConstraintTitle(cell.binding) + comparison + QObject::tr("limit");
}

QString llmCellShortLabel(const analysis::LlmRegionCell& cell)
{
    if (cell.pending)
        return QObject::tr("pending");
    if (cell.status == LlmCellStatus::Feasible)
        return QObject::tr("ok");
    switch (cell.binding) {
    case LlmConstraint::TtftP99:
        return QStringLiteral("TTFT");
    case LlmConstraint::TpotP99:
        return QStringLiteral("TPOT");
    case LlmConstraint::ItlP99:
        return QStringLiteral("ITL");
    case LlmConstraint::E2eP99:
        return QStringLiteral("E2E");
    case LlmConstraint::OutputTokens:
        return QObject::tr("tok/s");
    case LlmConstraint::Goodput:
        return QObject::tr("goodput");
    case LlmConstraint::Preemptions:
        return QObject::tr("preempt");
    case LlmConstraint::PowerPerGpu:
        return QObject::tr("power");
    case LlmConstraint::EnergyPerToken:
        return QObject::tr("J/tok");
    case LlmConstraint::Temperature:
        return QObject::tr("temp");
    case LlmConstraint::Refused:
        return QObject::tr("refused");
    case LlmConstraint::None:
        break;
    }
    return QObject::tr("refused");
}

QString llmConstraintTitle(LlmConstraint kind)
{
    switch (kind) {
    case LlmConstraint::TtftP99:
        return QObject::tr("TTFT p99");
    case LlmConstraint::TpotP99:
        return QObject::tr("TPOT p99");
    case LlmConstraint::ItlP99:
        return QObject::tr("ITL p99");
    case LlmConstraint::E2eP99:
        return QObject::tr("E2E p99");
    case LlmConstraint::OutputTokens:
        return QObject::tr("output tokens/s");
    case LlmConstraint::Goodput:
        return QObject::tr("goodput");
    case LlmConstraint::Preemptions:
        return QObject::tr("preemptions per request");
    case LlmConstraint::PowerPerGpu:
        return QObject::tr("power per GPU");
    case LlmConstraint::EnergyPerToken:
        return QObject::tr("energy per output token");
    case LlmConstraint::Temperature:
        return QObject::tr("peak temperature");
    case LlmConstraint::Refused:
        return QObject::tr("refused up front");
    case LlmConstraint::None:
        break;
    }
    return QObject::tr("none");
}

QString llmConstraintUnit(LlmConstraint kind)
{
    switch (kind) {
    case LlmConstraint::TtftP99:
    case LlmConstraint::TpotP99:
    case LlmConstraint::ItlP99:
    case LlmConstraint::E2eP99:
        return QStringLiteral("ms");
    case LlmConstraint::OutputTokens:
        return QObject::tr("tokens/s");
    case LlmConstraint::Goodput:
        return QObject::tr("requests/s");
    case LlmConstraint::PowerPerGpu:
        return QStringLiteral("W");
    case LlmConstraint::EnergyPerToken:
        return QStringLiteral("J");
    case LlmConstraint::Temperature:
        return QStringLiteral("°C");
    default:
        return {};
    }
}

QString llmCheckText(const analysis::LlmCheck& check)
{
    const QString unit = llmConstraintUnit(check.kind);
    const sim::Estimate estimate{check.value, check.ciLow, check.ciHigh};
    const QString margin =
        std::isfinite(check.margin)
            ? QLocale().toString(check.margin * 100.0, 'f', 1) + QStringLiteral("%")
            : QStringLiteral("—");
    QString verdict = check.satisfied ? QObject::tr("met") : QObject::tr("missed");
    if (!check.decided)
        verdict += QObject::tr(", not decided (the limit lies inside the 95% interval)");
    return QObject::tr("%1 %2, limit %3 %4, margin %5: %6")
        .arg(llmConstraintTitle(check.kind), llmEstimateText(estimate, unit),
             isDemand(check.kind) ? QStringLiteral("≥") : QStringLiteral("≤"),
             withUnit(llmNumber(check.limit), unit), margin, verdict);
}

QString llmKnobsText(const analysis::LlmRegionSpec& spec, const analysis::LlmCellKnobs& knobs)
{
    QStringList parts = {
        QStringLiteral("max_num_seqs %1").arg(knobs.maxNumSeqs),
        QStringLiteral("%1 %2")
            .arg(QString::fromLatin1(analysis::llmTokenBudgetKnob(spec.scenario.engine)))
            .arg(knobs.maxNumBatchedTokens)};
    const auto add = [&](LlmAxis axis, const QString& value) {
        if (analysis::hasLlmAxis(spec, axis))
            parts << QString::fromLatin1(analysis::llmAxisName(spec, axis)) + QLatin1Char(' ') +
                         value;
    };
    add(LlmAxis::Load, llmNumber(knobs.load, 6));
    add(LlmAxis::Replicas, QString::number(knobs.replicas));
    add(LlmAxis::TensorParallel, QString::number(knobs.tensorParallel));
    add(LlmAxis::PowerCapW, llmNumber(knobs.powerCapW, 6));
    add(LlmAxis::GpuMemoryUtilization, llmNumber(knobs.gpuMemoryUtilization, 6));
    return parts.join(QStringLiteral(", "));
}

QString llmCellDescription(const analysis::LlmRegionSpec& spec, const analysis::LlmRegionCell& cell)
{
    QStringList lines = {llmKnobsText(spec, cell.knobs)};
    QString verdict = QObject::tr("Verdict: %1").arg(llmCellCategory(cell));
    if (!cell.pending && cell.status == LlmCellStatus::Feasible &&
        cell.binding != LlmConstraint::None)
        verdict += QObject::tr(" (meets %1 first)").arg(llmConstraintTitle(cell.binding));
    if (!cell.pending && !cell.confident)
        verdict += QObject::tr(", not confident");
    lines << verdict;
    lines << QObject::tr("Evidence: %1")
                 .arg(QString::fromStdString(analysis::llmCellEvidence(spec, cell)));
    if (cell.pending)
        return lines.join(QLatin1Char('\n'));
    for (const auto& check : cell.checks)
        lines << QStringLiteral("• ") + llmCheckText(check);
    const auto& m = cell.metrics;
    if (cell.status != LlmCellStatus::Refused) {
        lines << QObject::tr("Output %1")
                     .arg(llmEstimateText(m.outputTokensPerS, QObject::tr("tokens/s")));
        lines << QObject::tr("TTFT p99 %1, TPOT p99 %2")
                     .arg(llmEstimateText(m.ttftP99Ms, QStringLiteral("ms")),
                          llmEstimateText(m.tpotP99Ms, QStringLiteral("ms")));
        lines << QObject::tr("Peak KV-cache use %1")
                     .arg(llmNumber(m.peakKvUse.value * 100.0, 3) + QStringLiteral("%"));
    }
    if (!cell.note.empty())
        lines << QString::fromStdString(cell.note);
    return lines.join(QLatin1Char('\n'));
}

} // namespace bs::widgets
