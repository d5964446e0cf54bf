#include "charts/fitcharts.h"

#include <QObject>

#include <algorithm>
#include <set>

namespace bs::widgets {

namespace {

constexpr double kMsPerS = 1000.0;

ChartContent baseContent(const QString& title, const QString& yTitle, const QString& yUnit)
{
    ChartContent content;
    content.title = title;
    content.xTitle = QObject::tr("Batch size (items)");
    content.yTitle = yTitle;
    content.xUnit = QObject::tr("items");
    content.yUnit = yUnit;
    content.logX = true;
    content.logXBase = 2.0;
    content.emptyText = QObject::tr("No fit yet.");
    return content;
}

SeriesSpec seriesOf(const ChartContent& content, const QString& name, SeriesStyle style,
                    QColor colour)
{
    SeriesSpec spec;
    spec.data.name = name;
    spec.data.xTitle = content.xTitle;
    spec.data.yTitle = content.yTitle;
    spec.style = style;
    spec.colour = colour;
    return spec;
}

} // namespace

std::vector<int> fitCurveBatches(const accel::FitResult& fit)
{
    std::set<int> batches;
    int largest = std::max(fit.fittedMaxBatch, 1);
    for (const auto& point : fit.points) {
        batches.insert(point.batch);
        largest = std::max(largest, point.batch);
    }
    for (int b = 1; b <= 2 * largest && b > 0; b *= 2)
        batches.insert(b);
    return {batches.begin(), batches.end()};
}

ChartContent fitServiceTimeChart(const accel::FitResult& fit)
{
    ChartContent content = baseContent(QObject::tr("Service time: measured and fitted"),
                                       QObject::tr("Service time (ms)"), QObject::tr("ms"));
    content.autoLogY = true;
    SeriesSpec measured =
        seriesOf(content, QObject::tr("Measured"), SeriesStyle::Scatter, baselineColour());
    for (const auto& point : fit.points)
        measured.data.points.append(QPointF(point.batch, point.measuredS * kMsPerS));
    SeriesSpec fitted =
        seriesOf(content, QObject::tr("Fitted model"), SeriesStyle::Dashed, neutralColour(5));
    SeriesSpec low = seriesOf(content, QObject::tr("90% prediction interval"), SeriesStyle::Dashed,
                              neutralColour(6));
    low.toolTip = QObject::tr("Where a new measurement at this batch size would fall 9 times in "
                              "10: the parameters' covariance and the fit's scatter");
    SeriesSpec high = seriesOf(content, QObject::tr("90% prediction interval (upper)"),
                               SeriesStyle::Dashed, neutralColour(6));
    high.inLegend = false;
    for (const int batch : fitCurveBatches(fit)) {
        const auto prediction = accel::predictService(fit, batch, 0.90);
        const QString note = prediction.extrapolated
                                 ? QObject::tr("extrapolated: outside the fitted batch range")
                                 : QString();
        fitted.data.points.append(QPointF(batch, prediction.serviceS * kMsPerS));
        fitted.pointNotes << note;
        if (prediction.hasInterval) {
            low.data.points.append(QPointF(batch, prediction.lowS * kMsPerS));
            high.data.points.append(QPointF(batch, prediction.highS * kMsPerS));
        }
    }
    content.series << measured << fitted;
    if (!low.data.points.isEmpty())
        content.series << low << high;
    if (!fitted.data.points.isEmpty() && fitted.data.points.back().x() > fit.fittedMaxBatch &&
        fit.fittedMaxBatch > 0)
        content.references.append({QObject::tr("fitted up to batch %1").arg(fit.fittedMaxBatch),
                                   double(fit.fittedMaxBatch), Qt::Vertical, QColor(90, 90, 90),
                                   QObject::tr("Right of this line the curve is extrapolated")});
    return content;
}

ChartContent fitResidualChart(const accel::FitResult& fit)
{
    ChartContent content = baseContent(QObject::tr("Residuals: (fitted − measured) / measured"),
                                       QObject::tr("Residual (%)"), QObject::tr("%"));
    content.yMarginFraction = 0.1;
    SeriesSpec time =
        seriesOf(content, QObject::tr("Service time"), SeriesStyle::Line, baselineColour());
    SeriesSpec power = seriesOf(content, QObject::tr("Power"), SeriesStyle::Line, neutralColour(5));
    for (const auto& point : fit.points) {
        time.data.points.append(QPointF(point.batch, point.relativeResidual * 100.0));
        if (point.measuredPowerW && point.fittedPowerW && *point.measuredPowerW > 0)
            power.data.points.append(
                QPointF(point.batch, (*point.fittedPowerW - *point.measuredPowerW) /
                                         *point.measuredPowerW * 100.0));
    }
    content.series << time;
    if (!power.data.points.isEmpty())
        content.series << power;
    content.references.append({QObject::tr("no error"), 0.0, Qt::Horizontal, QColor(90, 90, 90)});
    return content;
}

} // namespace bs::widgets
