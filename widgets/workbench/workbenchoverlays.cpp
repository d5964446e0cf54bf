#include "workbench/workbenchoverlays.h"

#include <QLocale>
#include <QObject>

#include <algorithm>
#include <cmath>

namespace bs::widgets {

namespace {

SeriesSpec spec(const QString& name, const ChartContent& content, QList<QPointF> points,
                SeriesStyle style, QColor colour = {})
{
    SeriesSpec s;
    s.data = {name, content.xTitle, content.yTitle, std::move(points)};
    s.style = style;
    s.colour = colour;
    return s;
}

ChartContent base(const QString& title, const QString& x, const QString& y, const QString& xUnit,
                  const QString& yUnit)
{
    ChartContent content;
    content.title = title;
    content.xTitle = x;
    content.yTitle = y;
    content.xUnit = xUnit;
    content.yUnit = yUnit;
    content.emptyText =
        QObject::tr("No simulation yet: set the traffic and policy in the Model dock.");
    return content;
}

void addSla(ChartContent& content, std::optional<double> slaP99Ms, Qt::Orientation orientation)
{
    if (slaP99Ms)
        content.references.append(
            {QObject::tr("SLA p99"), *slaP99Ms, orientation, QColor(200, 40, 40)});
}

} // namespace

QString simulationEmptyText(const WorkbenchOutputs& outputs)
{
    if (outputs.simulationError)
        return QObject::tr("Nothing simulated: the scenario has an error — %1")
            .arg(QString::fromStdString(outputs.simulationError->toString()));
    if (!outputs.current)
        return QObject::tr("No simulation yet: set the traffic and policy in the Model dock.");
    const sim::Stability& st = outputs.current->stability;
    if (st.stable)
        return QObject::tr("The simulation completed no requests to draw.");
    const QLocale locale;
    if (std::isfinite(st.rho) && st.rho >= 1.0)
        return QObject::tr("Unstable: ρ = %1 ≥ 1 — the offered load of %2 req/s exceeds the "
                           "capacity of %3 req/s, so the queue grows without bound. Lower the "
                           "arrival rate or add servers in the Model dock.")
            .arg(locale.toString(st.rho, 'f', 2), locale.toString(st.offeredRatePerS, 'f', 0),
                 locale.toString(st.capacityRatePerS, 'f', 0));
    return QObject::tr("Unstable: %1. Lower the arrival rate, add servers or change the batching "
                       "policy in the Model dock.")
        .arg(QString::fromStdString(st.reason));
}

QList<SweepOverlay> workbenchOverlays(const WorkbenchOutputs& outputs, const QString& trafficLabel)
{
    QList<SweepOverlay> overlays;
    if (!outputs.predictions.empty()) {
        SweepOverlay model;
        model.name = QObject::tr("Model");
        model.description =
            QString::fromStdString(outputs.modelLabel) +
            (outputs.predictionsAtSweepLoad
                 ? QObject::tr(" — at the sweep's offered load per batch (throughput, power and "
                               "energy as the sweep measured them); latency chart shows its batch "
                               "service time")
                 : QObject::tr(" — at saturation; latency chart shows its batch service time"));
        for (const auto& p : outputs.predictions) {
            const double b = p.batch;
            model.throughputPerS.append(QPointF(b, p.throughputPerS));
            model.latencyP99Ms.append(QPointF(b, p.serviceS * 1e3));
            model.energyPerInferenceMj.append(QPointF(b, p.energyPerInferenceJ * 1e3));
            model.powerW.append(QPointF(b, p.powerW));
        }
        overlays.append(model);
    }
    SweepOverlay simulated;
    simulated.name = QObject::tr("Simulated");
    simulated.description =
        QObject::tr("Simulated: the scenario at %1 re-run for each max batch (x = max batch; "
                    "p99 on the latency chart)")
            .arg(trafficLabel);
    for (const auto& point : outputs.curve) {
        if (!point.stable)
            continue;
        const double b = point.maxBatch;
        simulated.throughputPerS.append(QPointF(b, point.throughputPerS));
        simulated.latencyP99Ms.append(QPointF(b, point.latencyP99S * 1e3));
        if (point.energyPerRequestJ)
            simulated.energyPerInferenceMj.append(QPointF(b, *point.energyPerRequestJ * 1e3));
        if (point.meanPowerW)
            simulated.powerW.append(QPointF(b, *point.meanPowerW));
    }
    if (!simulated.throughputPerS.isEmpty())
        overlays.append(simulated);
    return overlays;
}

ChartContent simulatedLatencyHistogram(const sim::Result& result, std::optional<double> slaP99Ms)
{
    ChartContent content =
        base(QObject::tr("Latency distribution"), QObject::tr("Latency (ms)"),
             QObject::tr("Share of requests (%)"), QObject::tr("ms"), QObject::tr("%"));
    content.logX = true;
    const auto& edges = result.latency.histogramEdgesS;
    const auto& counts = result.latency.histogramCounts;
    double total = 0;
    for (auto c : counts)
        total += double(c);
    QList<QPointF> points;
    for (std::size_t i = 0; i + 1 < edges.size() && i < counts.size() && total > 0; ++i) {
        if (edges[i] <= 0)
            continue;
        // A bucket drawn as a step at its geometric centre.
        const double centreMs = std::sqrt(edges[i] * edges[i + 1]) * 1e3;
        points.append(QPointF(centreMs, 100.0 * double(counts[i]) / total));
    }
    content.series.append(
        spec(QObject::tr("Simulated"), content, points, SeriesStyle::Step, neutralColour(0)));
    addSla(content, slaP99Ms, Qt::Vertical);
    return content;
}

ChartContent simulatedLatencyOverTime(const sim::Result& result, std::optional<double> slaP99Ms)
{
    ChartContent content =
        base(QObject::tr("Latency over time (replication 0)"), QObject::tr("Time (s)"),
             QObject::tr("Latency (ms)"), QObject::tr("s"), QObject::tr("ms"));
    content.yIncludesZero = true;
    const auto& ts = result.timeSeries;
    QList<QPointF> p50, p90, p99;
    for (std::size_t i = 0; i < ts.startS.size(); ++i) {
        if (ts.requests[i] == 0)
            continue;
        const double t = ts.startS[i] + ts.windowS / 2;
        p50.append(QPointF(t, ts.latencyP50S[i] * 1e3));
        p90.append(QPointF(t, ts.latencyP90S[i] * 1e3));
        p99.append(QPointF(t, ts.latencyP99S[i] * 1e3));
    }
    content.series.append(
        spec(QObject::tr("p99"), content, p99, SeriesStyle::Line, neutralColour(5)));
    content.series.append(
        spec(QObject::tr("p90"), content, p90, SeriesStyle::Dashed, neutralColour(1)));
    content.series.back().inLegend = false;
    content.series.append(
        spec(QObject::tr("p50"), content, p50, SeriesStyle::Dashed, neutralColour(0)));
    addSla(content, slaP99Ms, Qt::Horizontal);
    return content;
}

ChartContent simulatedQueueOverTime(const sim::Result& result)
{
    ChartContent content =
        base(QObject::tr("Queue depth and batch size over time"), QObject::tr("Time (s)"),
             QObject::tr("Requests"), QObject::tr("s"), QObject::tr("requests"));
    content.yIncludesZero = true;
    const auto& ts = result.timeSeries;
    QList<QPointF> depth, batch;
    for (std::size_t i = 0; i < ts.startS.size(); ++i) {
        if (ts.batches[i] == 0)
            continue;
        const double t = ts.startS[i] + ts.windowS / 2;
        depth.append(QPointF(t, ts.queueDepthMean[i]));
        batch.append(QPointF(t, ts.meanBatch[i]));
    }
    content.series.append(
        spec(QObject::tr("Mean queue depth"), content, depth, SeriesStyle::Line, neutralColour(2)));
    content.series.append(spec(QObject::tr("Mean batch size"), content, batch, SeriesStyle::Dashed,
                               neutralColour(3)));
    return content;
}

ChartContent simulatedBatchSizes(const sim::Result& result)
{
    ChartContent content =
        base(QObject::tr("Batch sizes formed"), QObject::tr("Batch size (items)"),
             QObject::tr("Share of batches (%)"), QObject::tr("items"), QObject::tr("%"));
    content.yIncludesZero = true;
    double total = 0;
    for (auto c : result.batchSizeCounts)
        total += double(c);
    QList<QPointF> points;
    for (std::size_t b = 1; b < result.batchSizeCounts.size() && total > 0; ++b) {
        if (result.batchSizeCounts[b] > 0)
            points.append(QPointF(double(b), 100.0 * double(result.batchSizeCounts[b]) / total));
    }
    content.series.append(
        spec(QObject::tr("Simulated"), content, points, SeriesStyle::Scatter, neutralColour(0)));
    return content;
}

ChartContent policyCurveChart(const WorkbenchOutputs& outputs, std::optional<double> slaP99Ms)
{
    ChartContent content = base(QObject::tr("p99 latency against max batch (with 95% CI)"),
                                QObject::tr("Max batch (items)"), QObject::tr("Latency p99 (ms)"),
                                QObject::tr("items"), QObject::tr("ms"));
    content.logX = true;
    content.logXBase = 2.0;
    content.yIncludesZero = true;
    QList<QPointF> p99, low, high, p50;
    for (const auto& point : outputs.curve) {
        if (!point.stable)
            continue;
        const double b = point.maxBatch;
        p99.append(QPointF(b, point.latencyP99S * 1e3));
        p50.append(QPointF(b, point.latencyP50S * 1e3));
        if (std::isfinite(point.latencyP99LowS)) {
            low.append(QPointF(b, point.latencyP99LowS * 1e3));
            high.append(QPointF(b, point.latencyP99HighS * 1e3));
        }
    }
    if (const auto unstable = std::ranges::find_if(
            outputs.curve, [](const PolicyCurvePoint& point) { return !point.stable; });
        p99.isEmpty() && unstable != outputs.curve.end())
        content.emptyText = QObject::tr("No max batch of the policy curve is stable: %1")
                                .arg(QString::fromStdString(unstable->reason));
    content.series.append(
        spec(QObject::tr("p99"), content, p99, SeriesStyle::Line, neutralColour(5)));
    content.series.append(
        spec(QObject::tr("p99 CI low"), content, low, SeriesStyle::Dashed, neutralColour(6)));
    content.series.append(
        spec(QObject::tr("p99 CI high"), content, high, SeriesStyle::Dashed, neutralColour(6)));
    content.series.append(
        spec(QObject::tr("p50"), content, p50, SeriesStyle::Dashed, neutralColour(0)));
    content.series[1].inLegend = false;
    content.series[2].inLegend = false;
    addSla(content, slaP99Ms, Qt::Horizontal);
    return content;
}

} // namespace bs::widgets
