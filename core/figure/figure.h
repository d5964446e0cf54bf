#pragma once

#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bs::figure {

/// A chart as plain data, so core can describe every plot of a report or a curve pack without
/// Qt: renderFigureSvg turns it into standalone SVG (HTML inlines it, Markdown links it, the
/// PDF writer and the PNG export paint that SVG as vectors).
struct FigurePoint
{
    double x = 0.0;
    double y = 0.0;

    friend bool operator==(const FigurePoint&, const FigurePoint&) = default;
};

enum class FigureSeriesKind
{
    Line,    ///< Points joined in order.
    Scatter, ///< Points only.
    Step,    ///< Horizontal then vertical segments (CDFs, histograms as outlines).
};

struct FigureSeries
{
    std::string name;
    FigureSeriesKind kind = FigureSeriesKind::Line;
    std::vector<FigurePoint> points;
    /// Index into the colour-blind-safe palette; -1 = by position among the series.
    int colourIndex = -1;
    bool dashed = false;
    /// "#rrggbb" for a series whose colour has a meaning (feasible, Pareto front): wins over
    /// colourIndex, so the report draws it as the GUI does (analysis/regionpalette.h).
    std::string colour = {};

    friend bool operator==(const FigureSeries&, const FigureSeries&) = default;
};

/// A horizontal or vertical reference line (SLA, power cap, demand) with a label.
struct FigureReferenceLine
{
    enum class Orientation
    {
        Horizontal,
        Vertical,
    };
    /// The side where the limit is met, shaded in the feasible colour (palette.h).
    enum class Shade
    {
        None,
        Below, ///< y (horizontal line) or x (vertical) at or below the value meets it.
        Above,
    };
    Orientation orientation = Orientation::Horizontal;
    double value = 0.0;
    std::string label;
    Shade shade = Shade::None;
    std::string shadeLabel = {}; ///< Legend name of the shaded side ("meets SLA p99").

    friend bool operator==(const FigureReferenceLine&, const FigureReferenceLine&) = default;
};

/// A labelled point drawn on top (the recommended operating point).
struct FigureMarker
{
    FigurePoint at;
    std::string label;

    friend bool operator==(const FigureMarker&, const FigureMarker&) = default;
};

/// A categorical grid (feasible-region heatmap): cell (column, row) has a category index into
/// `categoryNames` and an optional text shown inside it.
struct FigureHeatmap
{
    std::vector<std::string> columnLabels; ///< x axis, left to right.
    std::vector<std::string> rowLabels;    ///< y axis, bottom to top.
    std::vector<std::string> categoryNames;
    /// categories[row * columns + column]; -1 = no data.
    std::vector<int> categories;
    std::vector<std::string> cellTexts;                 ///< Same indexing; may be empty.
    std::optional<std::pair<int, int>> highlightedCell; ///< (column, row) of the recommendation.
    /// "#rrggbb" per category name (same order); empty: the default palette by index.
    std::vector<std::string> categoryColours = {};

    friend bool operator==(const FigureHeatmap&, const FigureHeatmap&) = default;
};

struct Figure
{
    std::string title;
    std::string xTitle; ///< With unit: "throughput (inferences/s)".
    std::string yTitle;
    bool xLog = false;
    bool yLog = false;
    std::vector<FigureSeries> series;
    std::vector<FigureReferenceLine> referenceLines;
    std::vector<FigureMarker> markers;
    std::optional<FigureHeatmap> heatmap; ///< When set, the figure is a heatmap; series ignored.
    std::string caption;                  ///< One sentence under the plot saying what it shows.

    friend bool operator==(const Figure&, const Figure&) = default;
};

/// A standalone SVG document (width × height in px) of `figure`: axes with nice ticks, legend,
/// reference lines, markers, heatmap. All text is XML-escaped. Empty data draws the axes and a
/// "no data" note rather than failing.
std::string renderFigureSvg(const Figure& figure, int widthPx = 800, int heightPx = 480);

nlohmann::json toJson(const Figure& figure);
/// Reads what toJson wrote (figures attached to the memo as evidence travel in the project
/// file); errors name the key under `where`.
Expected<Figure> figureFromJson(const nlohmann::json& json, const std::string& where);

} // namespace bs::figure
