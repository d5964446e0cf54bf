#include "charts/tracecharts.h"

#include "charts/chartparts.h"
#include "models/displaytext.h"

#include <QObject>

#include <algorithm>
#include <cmath>

namespace bs::widgets {

namespace {

/// Adds a "p99 12.3 ms [12.1, 12.6]" line: the estimate, its 95% interval in the label (one
/// legend entry per percentile keeps a small chart's legend readable).
void addPercentileLines(ChartContent& content, const analysis::Distribution& distribution,
                        double probability, const QString& label, const QColor& colour)
{
    const auto* estimate = distribution.at(probability);
    if (!estimate || !std::isfinite(estimate->value))
        return;
    QString text = QStringLiteral("%1 %2 ms").arg(label).arg(estimate->value * kMsPerS, 0, 'g', 4);
    if (std::isfinite(estimate->ciLow) && std::isfinite(estimate->ciHigh))
        text += QStringLiteral(" [%1, %2]")
                    .arg(estimate->ciLow * kMsPerS, 0, 'g', 4)
                    .arg(estimate->ciHigh * kMsPerS, 0, 'g', 4);
    content.references.append({text, estimate->value * kMsPerS, Qt::Vertical, colour});
}

const analysis::WindowPercentiles*
windowPercentile(const std::vector<analysis::WindowPercentiles>& all, double probability)
{
    for (const auto& one : all)
        if (std::fabs(one.probability - probability) < 1e-9)
            return &one;
    return nullptr;
}

/// Window values as points at the window centres (seconds), skipping empty windows.
QList<QPointF> windowPoints(const std::vector<double>& startS, double windowS,
                            const std::vector<double>& values, double scale)
{
    QList<QPointF> points;
    const double origin = startS.empty() ? 0.0 : startS.front();
    for (std::size_t i = 0; i < values.size() && i < startS.size(); ++i)
        if (std::isfinite(values[i]))
            points.append({startS[i] - origin + windowS / 2.0, values[i] * scale});
    return points;
}

} // namespace

ChartContent latencyCdfChart(const analysis::RequestAnalysis& analysis)
{
    ChartContent content;
    content.title = QObject::tr("Latency distribution — %1").arg(displayText(analysis.name));
    content.xTitle = QObject::tr("Latency (ms)");
    content.yTitle = QObject::tr("Fraction of requests ≤ x");
    content.xUnit = QStringLiteral("ms");
    content.logX = true;
    content.emptyText = QObject::tr("The trace has no completion times: no latency to draw");
    if (analysis.latency.count > 0) {
        content.series.append(
            cdfSeriesMs(QObject::tr("Latency"), analysis.latency, neutralColour(0)));
        addPercentileLines(content, analysis.latency, 0.50, QStringLiteral("p50"),
                           neutralColour(2));
        addPercentileLines(content, analysis.latency, 0.99, QStringLiteral("p99"),
                           QColor(200, 40, 40));
    }
    if (analysis.queueWait.count > 0)
        content.series.append(
            cdfSeriesMs(QObject::tr("Queue wait"), analysis.queueWait, neutralColour(1)));
    return withSeriesAxisTitles(content);
}

ChartContent percentilesOverTimeChart(const analysis::RequestAnalysis& analysis,
                                      std::optional<double> slaP99Ms)
{
    const auto& series = analysis.timeSeries;
    ChartContent content;
    content.title =
        QObject::tr("Latency percentiles over time (%1 s windows)").arg(series.windowS, 0, 'g', 3);
    content.xTitle = QObject::tr("Time since first arrival (s)");
    content.yTitle = QObject::tr("Latency (ms)");
    content.xUnit = QStringLiteral("s");
    content.yUnit = QStringLiteral("ms");
    content.yIncludesZero = true;
    content.emptyText = QObject::tr("The trace has no completion times: no latency over time");
    if (const auto* p50 = windowPercentile(series.latency, 0.50))
        content.series.append(lineSeries(
            QStringLiteral("p50"), windowPoints(series.startS, series.windowS, p50->value, kMsPerS),
            neutralColour(2)));
    if (const auto* p99 = windowPercentile(series.latency, 0.99)) {
        content.series.append(lineSeries(
            QStringLiteral("p99"), windowPoints(series.startS, series.windowS, p99->value, kMsPerS),
            QColor(200, 40, 40)));
        content.series.append(
            lineSeries(QObject::tr("p99 95% CI low"),
                       windowPoints(series.startS, series.windowS, p99->ciLow, kMsPerS),
                       QColor(200, 40, 40, 120), SeriesStyle::Dashed, false));
        content.series.append(
            lineSeries(QObject::tr("p99 95% CI high"),
                       windowPoints(series.startS, series.windowS, p99->ciHigh, kMsPerS),
                       QColor(200, 40, 40, 120), SeriesStyle::Dashed, false));
    }
    if (slaP99Ms)
        content.references.append(
            {QObject::tr("SLA p99 %1 ms").arg(*slaP99Ms), *slaP99Ms, Qt::Horizontal});
    return withSeriesAxisTitles(content);
}

ChartContent throughputOverTimeChart(const analysis::RequestAnalysis& analysis)
{
    const auto& series = analysis.timeSeries;
    ChartContent content;
    content.title = QObject::tr("Throughput over time");
    content.xTitle = QObject::tr("Time since first arrival (s)");
    content.yTitle = QObject::tr("Completions (requests/s)");
    content.xUnit = QStringLiteral("s");
    content.yUnit = QStringLiteral("req/s");
    content.yIncludesZero = true;
    content.emptyText = QObject::tr("No completions in the trace");
    content.series.append(lineSeries(
        QObject::tr("Throughput"),
        windowPoints(series.startS, series.windowS, series.throughputPerS, 1.0), neutralColour(0)));
    QList<QPointF> offered;
    for (std::size_t i = 0; i < series.arrivals.size() && i < series.startS.size(); ++i)
        offered.append({series.startS[i] - series.startS.front() + series.windowS / 2.0,
                        series.windowS > 0 ? double(series.arrivals[i]) / series.windowS : 0.0});
    content.series.append(
        lineSeries(QObject::tr("Offered load"), offered, neutralColour(1), SeriesStyle::Dashed));
    if (content.series.front().data.points.isEmpty())
        content.series.removeFirst();
    return withSeriesAxisTitles(content);
}

ChartContent batchSizeHistogramChart(const analysis::RequestAnalysis& analysis)
{
    const auto& batches = analysis.batches;
    ChartContent content;
    content.title = QObject::tr("Batch sizes formed");
    content.xTitle = QObject::tr("Batch size (items)");
    content.yTitle = QObject::tr("Batches");
    content.xUnit = QObject::tr("items");
    content.yIncludesZero = true;
    content.emptyText =
        batches.available
            ? QObject::tr("No batches")
            : QObject::tr("No batch sizes: %1").arg(QString::fromStdString(batches.reason));
    if (!batches.available)
        return content;
    QList<QPointF> points;
    for (std::size_t size = 1; size < batches.batchesBySize.size(); ++size)
        if (batches.batchesBySize[size] > 0)
            points.append({double(size), double(batches.batchesBySize[size])});
    content.series.append(
        lineSeries(QObject::tr("Batches (%1)").arg(QString::fromStdString(batches.source)), points,
                   neutralColour(0), SeriesStyle::Scatter));
    return withSeriesAxisTitles(content);
}

ChartContent kernelBreakdownChart(const analysis::KernelAnalysis& analysis)
{
    ChartContent content;
    content.title =
        QObject::tr("Device time per step by kernel class — %1").arg(displayText(analysis.name));
    content.xTitle = QObject::tr("Step");
    content.yTitle = QObject::tr("Device time (ms)");
    content.yUnit = QStringLiteral("ms");
    content.yIncludesZero = true;
    content.emptyText =
        analysis.deviceActivity ? QObject::tr("No steps") : QString::fromStdString(analysis.note);
    if (!analysis.deviceActivity)
        return content;
    for (std::size_t c = 0; c < analysis::kKernelClassCount; ++c) {
        QList<QPointF> points;
        for (std::size_t step = 0; step < analysis.steps.size(); ++step)
            points.append({double(step + 1), analysis.steps[step].classS[c] * kMsPerS});
        const bool any =
            std::any_of(points.begin(), points.end(), [](const QPointF& p) { return p.y() > 0; });
        if (any)
            content.series.append(lineSeries(
                QString::fromUtf8(analysis::kernelClassName(static_cast<analysis::KernelClass>(c))),
                points, neutralColour(int(c))));
    }
    QList<QPointF> idle;
    for (std::size_t step = 0; step < analysis.steps.size(); ++step)
        idle.append({double(step + 1), analysis.steps[step].idleS * kMsPerS});
    content.series.append(
        lineSeries(QObject::tr("device idle"), idle, QColor(120, 120, 120), SeriesStyle::Dashed));
    return withSeriesAxisTitles(content);
}

namespace {

ChartContent timeline(const analysis::ThermalEvidence& evidence, const QString& title,
                      const QString& yTitle)
{
    ChartContent content;
    content.title = title;
    content.xTitle = QObject::tr("Time since log start (s)");
    content.yTitle = yTitle;
    content.xUnit = QStringLiteral("s");
    content.emptyText =
        evidence.available ? QObject::tr("No readings") : QString::fromStdString(evidence.reason);
    return content;
}

} // namespace

ChartContent powerTimelineChart(const analysis::ThermalEvidence& evidence,
                                std::optional<double> powerCapW)
{
    ChartContent content = timeline(evidence, QObject::tr("Board power"), QObject::tr("Power (W)"));
    content.yUnit = QStringLiteral("W");
    content.yIncludesZero = true;
    if (!evidence.available)
        return content;
    content.series.append(lineSeries(
        QObject::tr("Power"), windowPoints(evidence.startS, evidence.windowS, evidence.powerW, 1.0),
        neutralColour(3)));
    if (std::isfinite(evidence.idlePowerW)) {
        ReferenceLine idle{QObject::tr("idle %1 W").arg(evidence.idlePowerW, 0, 'f', 1),
                           evidence.idlePowerW, Qt::Horizontal, QColor(120, 120, 120)};
        idle.toolTip = QObject::tr("Idle power: %1 of the log.")
                           .arg(QString::fromStdString(evidence.idlePowerRule));
        content.references.append(idle);
    }
    if (powerCapW)
        content.references.append(
            {QObject::tr("cap %1 W").arg(*powerCapW), *powerCapW, Qt::Horizontal});
    return withSeriesAxisTitles(content);
}

namespace {

/// The tooltip (and table) note of one clock drop.
QString dropNote(const analysis::ClockDrop& drop, double originS)
{
    const QString start = QString::number(drop.startS - originS, 'f', 0);
    const QString end = QString::number(drop.endS - originS, 'f', 0);
    const QString when =
        start == end ? QObject::tr("at %1 s").arg(start) : QObject::tr("%1–%2 s").arg(start, end);
    QString note = QObject::tr("clock drop %1% below the sustained clock %2, min %3 MHz, mean %4 W")
                       .arg(drop.dropFraction * 100.0, 0, 'f', 0)
                       .arg(when)
                       .arg(drop.minClockMHz, 0, 'f', 0)
                       .arg(drop.meanPowerW, 0, 'f', 0);
    if (std::isfinite(drop.maxTemperatureC))
        note += QObject::tr(", max %1 °C").arg(drop.maxTemperatureC, 0, 'f', 0);
    return note;
}

/// All clock drops as one marker series ("clock drops (22)"): one legend entry however many
/// drops the log has, a marker at each drop's start and lowest clock, the details in its tooltip.
SeriesSpec clockDropMarkers(const analysis::ThermalEvidence& evidence, double originS)
{
    SeriesSpec markers = lineSeries(QObject::tr("clock drops (%1)").arg(evidence.drops.size()), {},
                                    QColor(200, 40, 40), SeriesStyle::Scatter);
    for (const auto& drop : evidence.drops) {
        markers.data.points.append({drop.startS - originS, drop.minClockMHz});
        markers.pointNotes.append(dropNote(drop, originS));
    }
    return markers;
}

} // namespace

ChartContent smClockChart(const analysis::ThermalEvidence& evidence)
{
    ChartContent content =
        timeline(evidence, QObject::tr("SM clock"), QObject::tr("SM clock (MHz)"));
    content.yUnit = QStringLiteral("MHz");
    content.yIncludesZero = true;
    if (evidence.available && evidence.smClockMHz.empty())
        content.emptyText = QObject::tr("The power log has no SM clock column");
    if (!evidence.available || evidence.smClockMHz.empty())
        return content;
    content.series.append(
        lineSeries(QObject::tr("SM clock"),
                   windowPoints(evidence.startS, evidence.windowS, evidence.smClockMHz, 1.0),
                   neutralColour(0)));
    if (!evidence.drops.empty())
        content.series.append(
            clockDropMarkers(evidence, evidence.startS.empty() ? 0.0 : evidence.startS.front()));
    if (std::isfinite(evidence.sustainedClockMHz))
        content.references.append(
            {QObject::tr("sustained %1 MHz").arg(evidence.sustainedClockMHz, 0, 'f', 0),
             evidence.sustainedClockMHz, Qt::Horizontal, QColor(120, 120, 120)});
    return withSeriesAxisTitles(content);
}

ChartContent temperatureChart(const analysis::ThermalEvidence& evidence,
                              const analysis::ThermalModelCheck* model)
{
    ChartContent content = timeline(evidence, QObject::tr("Temperature: log and thermal model"),
                                    QObject::tr("Temperature (°C)"));
    content.yUnit = QStringLiteral("°C");
    if (!evidence.available)
        return content;
    if (evidence.temperatureC.empty()) {
        content.emptyText = QObject::tr("The power log has no temperature column");
        return content;
    }
    const double originS = evidence.startS.empty() ? 0.0 : evidence.startS.front();
    if (!model) {
        content.title = QObject::tr("Temperature (no thermal model to compare with)");
        content.series.append(
            lineSeries(QObject::tr("Logged"),
                       windowPoints(evidence.startS, evidence.windowS, evidence.temperatureC, 1.0),
                       neutralColour(5)));
        return withSeriesAxisTitles(content);
    }
    QList<QPointF> logged, predicted;
    // Every reading of a long log would be more points than pixels: a stride keeps ~2,000.
    const std::size_t stride = std::max<std::size_t>(1, model->timeS.size() / 2000);
    for (std::size_t i = 0; i < model->timeS.size(); i += stride) {
        logged.append({model->timeS[i] - originS, model->loggedC[i]});
        predicted.append({model->timeS[i] - originS, model->predictedC[i]});
    }
    content.series.append(lineSeries(QObject::tr("Logged"), logged, neutralColour(5)));
    content.series.append(lineSeries(QObject::tr("Model (thermal RC)"), predicted, neutralColour(1),
                                     SeriesStyle::Dashed));
    if (std::isfinite(model->model.throttleC))
        content.references.append({QObject::tr("slowdown %1 °C").arg(model->model.throttleC),
                                   model->model.throttleC, Qt::Horizontal,
                                   QColor(200, 40, 40, 160)});
    return withSeriesAxisTitles(content);
}

ChartContent alignedThroughputChart(const analysis::ThermalEvidence& evidence)
{
    ChartContent content = timeline(evidence, QObject::tr("Throughput on the power log's clock"),
                                    QObject::tr("Completions (requests/s)"));
    content.yUnit = QStringLiteral("req/s");
    content.yIncludesZero = true;
    if (evidence.available && evidence.throughputPerS.empty())
        content.emptyText = QObject::tr("No request trace overlaps this power log in time");
    if (!evidence.available || evidence.throughputPerS.empty())
        return content;
    content.series.append(
        lineSeries(QObject::tr("Throughput"),
                   windowPoints(evidence.startS, evidence.windowS, evidence.throughputPerS, 1.0),
                   neutralColour(0)));
    return withSeriesAxisTitles(content);
}

} // namespace bs::widgets
