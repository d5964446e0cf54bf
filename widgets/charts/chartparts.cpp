#include "charts/chartparts.h"

namespace bs::widgets {

SeriesSpec cdfSeriesMs(const QString& name, const analysis::Distribution& distribution,
                       const QColor& colour)
{
    SeriesSpec spec;
    spec.data.name = name;
    spec.style = SeriesStyle::Step;
    spec.colour = colour;
    for (std::size_t i = 0; i < distribution.cdfValue.size(); ++i)
        spec.data.points.append(
            {distribution.cdfValue[i] * kMsPerS, distribution.cdfProbability[i]});
    return spec;
}

SeriesSpec lineSeries(const QString& name, QList<QPointF> points, const QColor& colour,
                      SeriesStyle style, bool inLegend)
{
    SeriesSpec spec;
    spec.data.name = name;
    spec.data.points = std::move(points);
    spec.colour = colour;
    spec.style = style;
    spec.inLegend = inLegend;
    return spec;
}

ChartContent withSeriesAxisTitles(ChartContent content)
{
    for (auto& series : content.series) {
        series.data.xTitle = content.xTitle;
        series.data.yTitle = content.yTitle;
    }
    return content;
}

} // namespace bs::widgets
