#include "charts/chartfigure.h"

namespace bs::widgets {

namespace {

figure::FigureSeriesKind kindOf(SeriesStyle style)
{
    switch (style) {
    case SeriesStyle::Scatter:
        return figure::FigureSeriesKind::Scatter;
    case SeriesStyle::Step:
        return figure::FigureSeriesKind::Step;
    case SeriesStyle::Line:
    case SeriesStyle::Dashed:
        break;
    }
    return figure::FigureSeriesKind::Line;
}

figure::FigureReferenceLine::Shade shadeOf(AcceptableSide side)
{
    switch (side) {
    case AcceptableSide::Below:
        return figure::FigureReferenceLine::Shade::Below;
    case AcceptableSide::Above:
        return figure::FigureReferenceLine::Shade::Above;
    case AcceptableSide::None:
        break;
    }
    return figure::FigureReferenceLine::Shade::None;
}

} // namespace

figure::Figure figureOf(const ChartContent& content)
{
    figure::Figure figure;
    figure.title = content.title.toStdString();
    figure.xTitle = content.xTitle.toStdString();
    figure.yTitle = content.yTitle.toStdString();
    figure.xLog = content.logX;
    figure.yLog = content.logY;
    for (const auto& spec : content.series) {
        // The recommended point is drawn as the report draws it: the large outlined marker.
        if (spec.emphasised) {
            for (const QPointF& point : spec.data.points)
                figure.markers.push_back({{point.x(), point.y()}, spec.data.name.toStdString()});
            continue;
        }
        figure::FigureSeries series;
        // Secondary series (interval bounds) keep their data but stay out of the legend.
        series.name = spec.inLegend ? spec.data.name.toStdString() : std::string();
        series.kind = kindOf(spec.style);
        series.dashed = spec.style == SeriesStyle::Dashed;
        for (const QPointF& point : spec.data.points)
            series.points.push_back({point.x(), point.y()});
        figure.series.push_back(std::move(series));
    }
    for (const auto& line : content.references)
        figure.referenceLines.push_back({line.orientation == Qt::Horizontal
                                             ? figure::FigureReferenceLine::Orientation::Horizontal
                                             : figure::FigureReferenceLine::Orientation::Vertical,
                                         line.value, line.label.toStdString(),
                                         shadeOf(line.acceptable),
                                         line.acceptableLabel.toStdString()});
    return figure;
}

} // namespace bs::widgets
