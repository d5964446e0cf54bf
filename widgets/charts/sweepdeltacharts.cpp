#include "charts/sweepdeltacharts.h"

#include <QLocale>
#include <QObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace bs::widgets {

namespace {

using playbook::Delta;
using playbook::SweepPointDelta;

/// How one metric is named and scaled for display.
struct MetricInfo
{
    QString title;    ///< Chart title.
    QString quantity; ///< Axis title before the unit, and caption wording.
    QString unit;     ///< Display unit of the absolute change.
    double scale;     ///< Core unit → display unit.
    Delta SweepPointDelta::*member;
};

MetricInfo infoOf(SweepDeltaMetric metric)
{
    switch (metric) {
    case SweepDeltaMetric::Throughput:
        return {QObject::tr("Δ Throughput (candidate − baseline)"), QObject::tr("Δ throughput"),
                QObject::tr("inferences/s"), 1.0, &SweepPointDelta::throughputPerS};
    case SweepDeltaMetric::LatencyP99:
        return {QObject::tr("Δ Latency p99 (candidate − baseline)"), QObject::tr("Δ p99 latency"),
                QObject::tr("ms"), 1e3, &SweepPointDelta::latencyP99S};
    case SweepDeltaMetric::LatencyP50:
        return {QObject::tr("Δ Latency p50 (candidate − baseline)"), QObject::tr("Δ p50 latency"),
                QObject::tr("ms"), 1e3, &SweepPointDelta::latencyP50S};
    case SweepDeltaMetric::EnergyPerInference:
        return {QObject::tr("Δ Energy per inference (candidate − baseline)"),
                QObject::tr("Δ energy per inference"), QObject::tr("mJ"), 1e3,
                &SweepPointDelta::energyPerInferenceJ};
    }
    return {};
}

/// The metric's name without the Δ, for caption sentences ("p99 latency").
QString plainName(SweepDeltaMetric metric)
{
    switch (metric) {
    case SweepDeltaMetric::Throughput:
        return QObject::tr("throughput");
    case SweepDeltaMetric::LatencyP99:
        return QObject::tr("p99 latency");
    case SweepDeltaMetric::LatencyP50:
        return QObject::tr("p50 latency");
    case SweepDeltaMetric::EnergyPerInference:
        return QObject::tr("energy per inference");
    }
    return {};
}

constexpr SweepDeltaMetric kMetrics[] = {SweepDeltaMetric::Throughput, SweepDeltaMetric::LatencyP99,
                                         SweepDeltaMetric::LatencyP50,
                                         SweepDeltaMetric::EnergyPerInference};

QString number(double value)
{
    return QLocale().toString(value, 'g', 6);
}

QString signedNumber(double value)
{
    return (value > 0 ? QStringLiteral("+") : QString()) + number(value);
}

QString signedPercent(double fraction)
{
    const double percent = fraction * 100.0;
    return (percent > 0 ? QStringLiteral("+") : QString()) + QLocale().toString(percent, 'f', 2) +
           QStringLiteral(" %");
}

QString pointLabel(const SweepPointDelta& point)
{
    return QString::fromStdString(playbook::sweepPointLabel(point.batch, point.concurrency));
}

/// The tooltip note of one point: both sides, the change both ways, its interval, significance.
QString noteOf(const SweepPointDelta& point, const Delta& d, const MetricInfo& info)
{
    const QString unit = QLatin1Char(' ') + info.unit;
    QStringList lines;
    lines << pointLabel(point);
    lines << QObject::tr("baseline %1 → candidate %2")
                 .arg(number(d.baseline * info.scale) + unit,
                      number(d.candidate * info.scale) + unit);
    const QString relative = std::isfinite(d.relative)
                                 ? signedPercent(d.relative)
                                 : QObject::tr("relative change undefined: baseline is 0");
    lines << QObject::tr("Δ %1 (%2)").arg(signedNumber(d.delta * info.scale) + unit, relative);
    if (d.intervalKnown)
        lines << QObject::tr("95% interval of Δ: %1 to %2")
                     .arg(signedNumber(d.ciLow * info.scale),
                          signedNumber(d.ciHigh * info.scale) + unit);
    lines << (d.significant ? QObject::tr("significant by the playbook's rule")
                            : QObject::tr("not significant by the playbook's rule"));
    return lines.join(QLatin1Char('\n'));
}

double xOf(const SweepPointDelta& point, SweepXAxis axis)
{
    return axis == SweepXAxis::Concurrency ? point.concurrency.value_or(0.0) : double(point.batch);
}

/// The value of the other key, which splits points into series ("concurrency 4", "batch 8").
std::optional<double> groupOf(const SweepPointDelta& point, SweepXAxis axis)
{
    if (axis == SweepXAxis::Concurrency)
        return double(point.batch);
    return point.concurrency;
}

QString groupName(const std::optional<double>& group, SweepXAxis axis)
{
    if (!group)
        return QObject::tr("no concurrency");
    return axis == SweepXAxis::Concurrency ? QObject::tr("batch %1").arg(number(*group))
                                           : QObject::tr("concurrency %1").arg(number(*group));
}

/// Labels of up to six points, then how many more.
QString pointList(const QStringList& labels)
{
    constexpr qsizetype kShown = 6;
    QString text = labels.mid(0, kShown).join(QStringLiteral("; "));
    if (labels.size() > kShown)
        text += QObject::tr(" and %1 more").arg(labels.size() - kShown);
    return text;
}

} // namespace

SweepXAxis sweepDeltaXAxis(const playbook::SweepDeltas& deltas, SweepXAxis requested)
{
    if (!deltas.matchedOnConcurrency)
        return SweepXAxis::BatchSize;
    if (requested == SweepXAxis::Concurrency)
        return SweepXAxis::Concurrency;
    const bool batchVaries = std::ranges::any_of(deltas.points, [&](const SweepPointDelta& p) {
        return p.batch != deltas.points.front().batch;
    });
    return batchVaries ? SweepXAxis::BatchSize : SweepXAxis::Concurrency;
}

ChartContent sweepDeltaChart(const SweepDeltaInput& input, SweepDeltaMetric metric,
                             DeltaScale scale, SweepXAxis xAxis, bool logX)
{
    const MetricInfo info = infoOf(metric);
    const bool relative = scale == DeltaScale::Relative;
    ChartContent content;
    content.title = info.title;
    content.xTitle = xAxis == SweepXAxis::Concurrency
                         ? QObject::tr("Concurrency (requests in flight)")
                         : QObject::tr("Batch size (items)");
    content.xUnit =
        xAxis == SweepXAxis::Concurrency ? QObject::tr("in flight") : QObject::tr("items");
    content.yUnit = relative ? QStringLiteral("%") : info.unit;
    content.yTitle = QStringLiteral("%1 (%2)").arg(info.quantity, content.yUnit);
    content.logX = logX;
    content.logXBase = xAxis == SweepXAxis::BatchSize ? 2.0 : 10.0;
    content.yIncludesZero = true;
    content.yMarginFraction = 0.04;
    content.emptyText = QObject::tr("No matched point has %1 on both sides%2.")
                            .arg(plainName(metric),
                                 relative ? QObject::tr(" with a non-zero baseline") : QString());
    content.references.append(
        {QObject::tr("No change"), 0.0, Qt::Horizontal, QColor(0x7f, 0x7f, 0x7f)});

    std::map<std::optional<double>, SeriesSpec> groups;
    for (const SweepPointDelta& point : input.deltas.points) {
        const Delta& d = point.*info.member;
        const double y = relative ? d.relative * 100.0 : d.delta * info.scale;
        if (xAxis == SweepXAxis::Concurrency && !point.concurrency)
            continue; // no place on a concurrency axis; sweepDeltaNotes names it
        const double x = xOf(point, xAxis);
        if (!std::isfinite(y) || (logX && x <= 0))
            continue;
        SeriesSpec& spec = groups[groupOf(point, xAxis)];
        spec.data.points.append(QPointF(x, y));
        spec.pointNotes.append(noteOf(point, d, info));
    }
    int index = 0;
    for (auto& [group, spec] : groups) {
        spec.data.name = groups.size() == 1
                             ? QObject::tr("%1 − %2").arg(input.candidateName, input.baselineName)
                             : groupName(group, xAxis);
        spec.data.xTitle = content.xTitle;
        spec.data.yTitle = content.yTitle;
        spec.colour = index == 0 ? candidateColour() : neutralColour(index + 1);
        // Sorted by x so the line runs left to right; notes move with their points.
        QList<qsizetype> order(spec.data.points.size());
        std::iota(order.begin(), order.end(), 0);
        std::ranges::stable_sort(order, [&](qsizetype a, qsizetype b) {
            return spec.data.points[a].x() < spec.data.points[b].x();
        });
        QList<QPointF> points;
        QStringList notes;
        for (qsizetype i : order) {
            points.append(spec.data.points[i]);
            notes.append(spec.pointNotes[i]);
        }
        spec.data.points = std::move(points);
        spec.pointNotes = std::move(notes);
        content.series.append(std::move(spec));
        ++index;
    }
    return content;
}

QStringList sweepDeltaNotes(const SweepDeltaInput& input)
{
    const playbook::SweepDeltas& deltas = input.deltas;
    QStringList lines;
    lines << QObject::tr("Δ = candidate “%1” − baseline “%2”, matched by %3: %n point(s).", nullptr,
                         int(deltas.points.size()))
                 .arg(input.candidateName, input.baselineName,
                      deltas.matchedOnConcurrency ? QObject::tr("batch size and concurrency")
                                                  : QObject::tr("batch size"));
    if (!deltas.unmatched.empty()) {
        QStringList texts;
        for (const auto& u : deltas.unmatched)
            texts << QString::fromStdString(u.text);
        lines << QObject::tr("Not compared (%n row(s)): %1.", nullptr, int(texts.size()))
                     .arg(pointList(texts));
    }
    QStringList withoutConcurrency;
    for (const SweepPointDelta& point : deltas.points) {
        if (!point.concurrency)
            withoutConcurrency << pointLabel(point);
    }
    if (deltas.matchedOnConcurrency && !withoutConcurrency.isEmpty())
        lines << QObject::tr("No concurrency at %1: left out when plotted against concurrency.")
                     .arg(pointList(withoutConcurrency));
    for (SweepDeltaMetric metric : kMetrics) {
        const MetricInfo info = infoOf(metric);
        QStringList oneSided, undefinedRelative;
        for (const SweepPointDelta& point : deltas.points) {
            const Delta& d = point.*info.member;
            if (std::isfinite(d.baseline) != std::isfinite(d.candidate))
                oneSided << pointLabel(point);
            else if (std::isfinite(d.delta) && !std::isfinite(d.relative))
                undefinedRelative << pointLabel(point);
        }
        if (!oneSided.isEmpty())
            lines << QObject::tr("%1 measured on one side only at %2: no Δ there.")
                         .arg(plainName(metric), pointList(oneSided));
        if (!undefinedRelative.isEmpty())
            lines << QObject::tr("Relative Δ %1 undefined at %2: the baseline is 0 (only the "
                                 "absolute Δ is drawn).")
                         .arg(plainName(metric), pointList(undefinedRelative));
    }
    return lines;
}

} // namespace bs::widgets
