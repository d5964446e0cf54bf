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
    if (point.baselineLoadPerS && point.candidateLoadPerS)
        lines << QObject::tr("offered load: baseline %1, candidate %2 req/s")
                     .arg(number(*point.baselineLoadPerS), number(*point.candidateLoadPerS));
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

/// What the points were matched on, for the caption.
QString matchedBy(const playbook::SweepDeltas& deltas)
{
    if (deltas.matchedOnConcurrency)
        return deltas.loadsCompared ? QObject::tr("batch size, concurrency and offered load")
                                    : QObject::tr("batch size and concurrency");
    return deltas.loadsCompared ? QObject::tr("batch size and offered load")
                                : QObject::tr("batch size");
}

/// The points left undrawn because the two sides ran them at different offered loads.
QString loadsDifferNote(const playbook::SweepDeltas& deltas)
{
    QStringList differ;
    for (const SweepPointDelta& point : deltas.points) {
        if (point.loadsDiffer)
            differ << QObject::tr("%1 (%2 → %3 req/s)")
                          .arg(pointLabel(point), number(*point.baselineLoadPerS),
                               number(*point.candidateLoadPerS));
    }
    if (differ.isEmpty())
        return {};
    return QObject::tr("Offered load differs at %1: no Δ drawn there, since it would mix the "
                       "change of load with the candidate's change. Measure both at the same "
                       "load to compare them.")
        .arg(pointList(differ));
}

/// One series of deltas (one value of the other key) and its 95% band, before sorting.
struct DeltaGroup
{
    SeriesSpec delta, low, high;
};

/// Sorts a series by x so its line runs left to right (notes move with their points).
void sortByX(SeriesSpec& spec)
{
    QList<qsizetype> order(spec.data.points.size());
    std::iota(order.begin(), order.end(), 0);
    std::ranges::stable_sort(order, [&](qsizetype a, qsizetype b) {
        return spec.data.points[a].x() < spec.data.points[b].x();
    });
    QList<QPointF> points;
    QStringList notes;
    for (qsizetype i : order) {
        points.append(spec.data.points[i]);
        if (i < spec.pointNotes.size())
            notes.append(spec.pointNotes[i]);
    }
    spec.data.points = std::move(points);
    spec.pointNotes = std::move(notes);
}

/// Adds a group's Δ series and, where its points carry intervals, the band's two bounds
/// (dashed, one legend entry; the tooltip says what the band is).
void appendGroup(ChartContent& content, DeltaGroup group, const QString& name, const QColor& colour,
                 bool onlyGroup)
{
    auto place = [&](SeriesSpec& spec, const QString& seriesName, SeriesStyle style,
                     const QColor& seriesColour) {
        spec.data.name = seriesName;
        spec.data.xTitle = content.xTitle;
        spec.data.yTitle = content.yTitle;
        spec.style = style;
        spec.colour = seriesColour;
        sortByX(spec);
    };
    place(group.delta, name, SeriesStyle::Line, colour);
    content.series.append(std::move(group.delta));
    if (group.low.data.points.isEmpty())
        return;
    const QString band = onlyGroup ? QObject::tr("95% interval of Δ")
                                   : QObject::tr("%1: 95% interval of Δ").arg(name);
    QColor bandColour = colour;
    bandColour.setAlpha(150);
    place(group.low, band, SeriesStyle::Dashed, bandColour);
    place(group.high, band + QObject::tr(" (upper)"), SeriesStyle::Dashed, bandColour);
    group.low.toolTip = deltaBandDescription();
    group.high.inLegend = false; // one legend entry for both bounds
    content.series.append(std::move(group.low));
    content.series.append(std::move(group.high));
}

} // namespace

QString deltaBandDescription()
{
    return QObject::tr("Dashed bounds: the 95% interval of each Δ, from each side's own interval "
                       "(exact order-statistic ranks for the percentiles, ±1.96/√N counting for "
                       "throughput and energy; N = the point's sample count) added in "
                       "quadrature.");
}

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

    if (!input.deltas.points.empty() &&
        std::ranges::all_of(input.deltas.points, &SweepPointDelta::loadsDiffer))
        content.emptyText = QObject::tr("Every matched point ran at a different offered load on "
                                        "the two sides: no Δ is drawn (see the notes).");

    std::map<std::optional<double>, DeltaGroup> groups;
    for (const SweepPointDelta& point : input.deltas.points) {
        if (point.loadsDiffer)
            continue; // a Δ across loads is not the candidate's effect; sweepDeltaNotes names it
        const Delta& d = point.*info.member;
        const double toY = relative ? 100.0 / std::fabs(d.baseline) : info.scale;
        const double y = relative ? d.relative * 100.0 : d.delta * info.scale;
        if (xAxis == SweepXAxis::Concurrency && !point.concurrency)
            continue; // no place on a concurrency axis; sweepDeltaNotes names it
        const double x = xOf(point, xAxis);
        if (!std::isfinite(y) || (logX && x <= 0))
            continue;
        DeltaGroup& group = groups[groupOf(point, xAxis)];
        group.delta.data.points.append(QPointF(x, y));
        group.delta.pointNotes.append(noteOf(point, d, info));
        if (d.intervalKnown && std::isfinite(d.ciLow * toY) && std::isfinite(d.ciHigh * toY)) {
            group.low.data.points.append(QPointF(x, d.ciLow * toY));
            group.high.data.points.append(QPointF(x, d.ciHigh * toY));
        }
    }
    int index = 0;
    for (auto& [key, group] : groups) {
        const QString name =
            groups.size() == 1 ? QObject::tr("%1 − %2").arg(input.candidateName, input.baselineName)
                               : groupName(key, xAxis);
        const QColor colour = index == 0 ? candidateColour() : neutralColour(index + 1);
        appendGroup(content, std::move(group), name, colour, groups.size() == 1);
        ++index;
    }
    return content;
}

QStringList sweepDeltaNotes(const SweepDeltaInput& input)
{
    const playbook::SweepDeltas& deltas = input.deltas;
    QStringList lines;
    const auto sameLoad = std::ranges::count_if(
        deltas.points, [](const SweepPointDelta& p) { return !p.loadsDiffer; });
    lines << QObject::tr("Δ = candidate “%1” − baseline “%2”, matched by %3: %n point(s).", nullptr,
                         int(sameLoad))
                 .arg(input.candidateName, input.baselineName, matchedBy(deltas));
    if (const QString differ = loadsDifferNote(deltas); !differ.isEmpty())
        lines << differ;
    const bool anyInterval = std::ranges::any_of(deltas.points, [](const SweepPointDelta& p) {
        return !p.loadsDiffer && p.throughputPerS.intervalKnown;
    });
    lines << (anyInterval ? deltaBandDescription()
                          : QObject::tr("No interval band: the sweeps give no sample counts, so "
                                        "the Δ has no interval."));
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
