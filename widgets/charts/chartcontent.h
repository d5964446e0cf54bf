#pragma once

#include "charts/seriesdata.h"

#include <QColor>
#include <QList>
#include <QStringList>

namespace bs::widgets {

enum class SeriesStyle
{
    Line,    ///< Measured curve: line with point markers.
    Dashed,  ///< Model prediction or secondary percentile.
    Scatter, ///< Unordered points (Pareto clouds, residuals).
    Step,    ///< Empirical CDFs.
};

struct SeriesSpec
{
    SeriesData data;
    SeriesStyle style = SeriesStyle::Line;
    QColor colour; ///< Invalid: the theme picks.
    /// Secondary series (p50 under a p99, CI bounds) stay out of the legend so the legend of
    /// a small chart stays readable; they are still in the table and the tooltips.
    bool inLegend = true;
    /// A point that must stand out (the recommended operating point): a scatter marker twice
    /// the size, with a dark outline, as the report's figures draw it.
    bool emphasised = false;
    /// Optional, parallel to data.points: more about a point for its tooltip (both sides of a
    /// delta, its interval). Empty: the tooltip shows the point's x and y only.
    QStringList pointNotes;
    /// Shown when hovering its legend entry: what the series is (how a band was computed).
    QString toolTip;
};

/// The side of a limit line where the limit is met (y below an SLA line, x right of a demand
/// line): shaded in the feasible colour, as the region charts and the report draw it.
enum class AcceptableSide
{
    None,  ///< A marker only (idle power, a throttle temperature): nothing shaded.
    Below, ///< Values at or below the line meet the limit (horizontal: y; vertical: x).
    Above, ///< Values at or above the line meet it.
};

/// A horizontal (constant y) or vertical (constant x) limit line: SLA, power cap, throttle.
struct ReferenceLine
{
    QString label;
    double value = 0.0;
    Qt::Orientation orientation = Qt::Horizontal; ///< Horizontal: y = value.
    QColor colour = QColor(200, 40, 40);
    /// Shown when hovering its legend entry: how the value was found ("idle power = ...").
    QString toolTip = {};
    AcceptableSide acceptable = AcceptableSide::None;
    /// Legend name of the shaded side ("meets SLA p99"); shown only when `acceptable` is set.
    QString acceptableLabel = {};
};

/// Everything one chart shows, in display units, built by pure functions from core results.
struct ChartContent
{
    QString title;
    QString xTitle; ///< With unit: "Batch size (items)".
    QString yTitle;
    QString xUnit; ///< For tooltips: "items".
    QString yUnit;
    bool logX = false;
    bool logY = false;
    double logXBase = 10.0; ///< Widened to base², base⁴ when the labels would not fit.
    /// A linear y axis turns logarithmic when the plotted values span 100× or more (one curve
    /// far off-scale would flatten the others and the SLA line); the y title then says so.
    bool autoLogY = false;
    /// Most ticks on a linear x axis; lowered when the chart is too narrow for their labels.
    int xMaxTicks = 7;
    bool yIncludesZero = false;
    /// Extra room above and below the data, as a fraction of its y range (linear axes only), so
    /// a line at the edge of the data (a delta chart's zero line) is not drawn on the frame.
    double yMarginFraction = 0.0;
    QList<SeriesSpec> series;
    QList<ReferenceLine> references;
    /// Shown in the plot area when there is nothing to draw ("No sweep loaded").
    QString emptyText;
};

/// Role colours used consistently across views.
QColor baselineColour();
QColor candidateColour();
QColor neutralColour(int index);

} // namespace bs::widgets
