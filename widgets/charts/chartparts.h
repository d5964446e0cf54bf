#pragma once

#include "analysis/distribution.h"
#include "charts/chartcontent.h"

namespace bs::widgets {

/// Pieces the chart builders share (trace charts, LLM serving charts), so a CDF or a measured
/// line looks and lists the same on every page.

inline constexpr double kMsPerS = 1000.0;

/// An empirical CDF in milliseconds (the distribution's decimated CDF, values in seconds), drawn
/// as steps.
SeriesSpec cdfSeriesMs(const QString& name, const analysis::Distribution& distribution,
                       const QColor& colour);
/// A named series of points with a colour and a style.
SeriesSpec lineSeries(const QString& name, QList<QPointF> points, const QColor& colour,
                      SeriesStyle style = SeriesStyle::Line, bool inLegend = true);
/// The content with each series' axis titles filled from the chart's (the table view and the
/// CSV export name the columns with them).
ChartContent withSeriesAxisTitles(ChartContent content);

} // namespace bs::widgets
