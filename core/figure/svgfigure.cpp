// Standalone SVG for a Figure: the one drawing of every report and curve-pack chart, so the
// HTML, Markdown, PDF and PNG outputs show the same thing.
#include "figure/figure.h"
#include "figure/palette.h"
#include "util/htmlescape.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace bs::figure {

namespace {

// Okabe–Ito: distinguishable with the common colour-vision deficiencies and on a projector.
constexpr std::array<const char*, 8> kPalette = {"#0072B2", "#E69F00", "#009E73", "#D55E00",
                                                 "#CC79A7", "#56B4E9", "#F0E442", "#000000"};

/// SVG text is XML: the HTML report's escaping (&, <, >, quotes) is exactly what it needs.
std::string escapeXml(const std::string& text)
{
    return htmlEscape(text);
}

std::string number(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", value);
    return buffer;
}

std::string tickLabel(double value)
{
    char buffer[32];
    const double magnitude = std::fabs(value);
    if (magnitude != 0.0 && (magnitude >= 1e6 || magnitude < 1e-3))
        std::snprintf(buffer, sizeof buffer, "%.3g", value);
    else
        std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

/// One axis: data range → pixel range, linear or log10, with readable ticks.
struct Axis
{
    double low = 0.0;
    double high = 1.0;
    bool log = false;
    double pixelLow = 0.0;
    double pixelHigh = 1.0;

    double transform(double value) const { return log ? std::log10(value) : value; }
    double toPixel(double value) const
    {
        const double t0 = transform(low), t1 = transform(high);
        const double fraction = t1 == t0 ? 0.5 : (transform(value) - t0) / (t1 - t0);
        return pixelLow + fraction * (pixelHigh - pixelLow);
    }
    std::vector<double> ticks() const { return log ? logTicks() : linearTicks(); }

private:
    // Every loop below runs over a counted number of ticks: the range comes from a file, and a
    // floating-point loop over 1e-300..1e300 (or with a step lost to rounding) never ends.
    static constexpr int kMaxTicks = 12;

    std::vector<double> logTicks() const
    {
        std::vector<double> out;
        const double first = std::floor(std::log10(low));
        const double last = std::ceil(std::log10(high));
        if (!std::isfinite(first) || !std::isfinite(last) || last < first)
            return linearTicks();
        // Decades (every n-th when there are many); with fewer than three decades, 2x and 5x
        // ticks too so the axis reads.
        const double decades = last - first;
        const bool sparse = std::log10(high / low) < 2.5;
        const double stride = std::max(1.0, std::ceil(decades / kMaxTicks));
        for (int i = 0; i * stride <= decades; ++i) {
            const double decade = first + i * stride;
            for (const double factor : {1.0, 2.0, 5.0}) {
                if (factor != 1.0 && !sparse)
                    continue;
                const double value = factor * std::pow(10.0, decade);
                if (value >= low * 0.999 && value <= high * 1.001)
                    out.push_back(value);
            }
        }
        if (out.size() >= 2)
            return out;
        return linearTicks();
    }

    std::vector<double> linearTicks() const
    {
        const double span = high - low;
        if (!std::isfinite(span) || !(span > 0.0))
            return {low, high};
        const double rough = span / 5.0;
        const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
        double step = magnitude;
        for (const double factor : {1.0, 2.0, 2.5, 5.0, 10.0}) {
            step = factor * magnitude;
            if (span / step <= 6.0)
                break;
        }
        const double start = std::ceil(low / step) * step;
        if (!std::isfinite(start) || !(step > 0.0))
            return {low, high};
        std::vector<double> out;
        for (int i = 0; i <= kMaxTicks; ++i) {
            const double value = start + i * step;
            if (value > high + step * 1e-9)
                break;
            out.push_back(std::fabs(value) < step * 1e-9 ? 0.0 : value);
        }
        return out;
    }
};

bool usable(double value, bool log)
{
    return std::isfinite(value) && (!log || value > 0.0);
}

/// The data range over series, reference lines and markers, padded so nothing sits on the frame.
std::pair<double, double> dataRange(const Figure& figure, bool xAxis, bool log)
{
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    auto take = [&](double value) {
        if (usable(value, log)) {
            low = std::min(low, value);
            high = std::max(high, value);
        }
    };
    for (const auto& series : figure.series)
        for (const auto& point : series.points)
            take(xAxis ? point.x : point.y);
    for (const auto& line : figure.referenceLines)
        if ((line.orientation == FigureReferenceLine::Orientation::Vertical) == xAxis)
            take(line.value);
    for (const auto& marker : figure.markers)
        take(xAxis ? marker.at.x : marker.at.y);
    if (!std::isfinite(low))
        return log ? std::pair{1.0, 10.0} : std::pair{0.0, 1.0};
    if (log) {
        // Padded in decades, and kept within the doubles: 1e-300..1e300 must not become 0..inf.
        const double lowDecade = std::log10(low);
        const double highDecade = std::log10(high);
        const double pad =
            highDecade - lowDecade < 1e-4 ? std::log10(2.0) : 0.04 * (highDecade - lowDecade);
        const double smallest = std::numeric_limits<double>::min();
        const double largest = std::numeric_limits<double>::max();
        return {std::clamp(std::pow(10.0, lowDecade - pad), smallest, low),
                std::clamp(std::pow(10.0, highDecade + pad), high, largest)};
    }
    if (high - low < 1e-12 * std::max(1.0, std::fabs(high)))
        return {low - 0.5 * std::max(1.0, std::fabs(low)),
                high + 0.5 * std::max(1.0, std::fabs(high))};
    const double pad = 0.04 * (high - low);
    // Quantities that cannot be negative (rates, latencies) keep zero as the floor.
    return {low >= 0.0 && low - pad < 0.0 ? 0.0 : low - pad, high + pad};
}

/// "#rrggbb" and nothing else: a colour from a project file goes into an SVG attribute.
bool isHexColour(const std::string& colour)
{
    return colour.size() == 7 && colour[0] == '#' &&
           std::all_of(colour.begin() + 1, colour.end(),
                       [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

std::string colourOf(const FigureSeries& series, std::size_t position)
{
    if (isHexColour(series.colour))
        return series.colour;
    const std::size_t index =
        series.colourIndex >= 0 ? static_cast<std::size_t>(series.colourIndex) : position;
    return kPalette[index % kPalette.size()];
}

std::string categoryColour(const FigureHeatmap& map, std::size_t category)
{
    if (category < map.categoryColours.size() && isHexColour(map.categoryColours[category]))
        return map.categoryColours[category];
    return kPalette[category % kPalette.size()];
}

struct Frame
{
    double left = 78, top = 44, right = 0, bottom = 0;
};

void writeText(std::ostringstream& svg, double x, double y, const std::string& text,
               const char* anchor, int sizePx, const char* extra = "")
{
    svg << "<text x=\"" << number(x) << "\" y=\"" << number(y) << "\" text-anchor=\"" << anchor
        << "\" font-size=\"" << sizePx << "\"" << extra << ">" << escapeXml(text) << "</text>\n";
}

void writeSeries(std::ostringstream& svg, const FigureSeries& series, std::size_t position,
                 const Axis& x, const Axis& y)
{
    const std::string colour = colourOf(series, position);
    std::vector<FigurePoint> points;
    for (const auto& point : series.points)
        if (usable(point.x, x.log) && usable(point.y, y.log))
            points.push_back(point);
    if (points.empty())
        return;
    if (series.kind == FigureSeriesKind::Scatter) {
        for (const auto& point : points)
            svg << "<circle cx=\"" << number(x.toPixel(point.x)) << "\" cy=\""
                << number(y.toPixel(point.y)) << "\" r=\"3.5\" fill=\"" << colour
                << "\" fill-opacity=\"0.8\"/>\n";
        return;
    }
    svg << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2.2\""
        << (series.dashed ? " stroke-dasharray=\"7 4\"" : "") << " points=\"";
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (series.kind == FigureSeriesKind::Step && i > 0)
            svg << number(x.toPixel(points[i].x)) << "," << number(y.toPixel(points[i - 1].y))
                << " ";
        svg << number(x.toPixel(points[i].x)) << "," << number(y.toPixel(points[i].y)) << " ";
    }
    svg << "\"/>\n";
}

void writeLegend(std::ostringstream& svg, const Figure& figure, const Frame& frame)
{
    double y = frame.top + 8;
    std::size_t position = 0;
    for (const auto& series : figure.series) {
        const std::size_t index = position++;
        if (series.name.empty())
            continue;
        const double x = frame.right + 14;
        svg << "<rect x=\"" << number(x) << "\" y=\"" << number(y)
            << "\" width=\"14\" height=\"4\" fill=\"" << colourOf(series, index) << "\"/>\n";
        writeText(svg, x + 20, y + 6, series.name, "start", 12);
        y += 20;
    }
    for (const auto& line : figure.referenceLines) {
        if (line.shade == FigureReferenceLine::Shade::None || line.shadeLabel.empty())
            continue;
        const double x = frame.right + 14;
        svg << "<rect x=\"" << number(x) << "\" y=\"" << number(y - 3) << "\" width=\"14\" "
            << "height=\"10\" fill=\"" << palette::kFeasible.hex()
            << "\" fill-opacity=\"0.35\"/>\n";
        writeText(svg, x + 20, y + 6, line.shadeLabel, "start", 12);
        y += 20;
    }
}

void writeAxes(std::ostringstream& svg, const Figure& figure, const Frame& frame, const Axis& x,
               const Axis& y, int heightPx)
{
    svg << "<rect x=\"" << number(frame.left) << "\" y=\"" << number(frame.top) << "\" width=\""
        << number(frame.right - frame.left) << "\" height=\"" << number(frame.bottom - frame.top)
        << "\" fill=\"none\" stroke=\"#444\"/>\n";
    for (const double tick : x.ticks()) {
        const double px = x.toPixel(tick);
        svg << "<line x1=\"" << number(px) << "\" y1=\"" << number(frame.top) << "\" x2=\""
            << number(px) << "\" y2=\"" << number(frame.bottom) << "\" stroke=\"#ddd\"/>\n";
        writeText(svg, px, frame.bottom + 18, tickLabel(tick), "middle", 12);
    }
    for (const double tick : y.ticks()) {
        const double py = y.toPixel(tick);
        svg << "<line x1=\"" << number(frame.left) << "\" y1=\"" << number(py) << "\" x2=\""
            << number(frame.right) << "\" y2=\"" << number(py) << "\" stroke=\"#ddd\"/>\n";
        writeText(svg, frame.left - 6, py + 4, tickLabel(tick), "end", 12);
    }
    writeText(svg, (frame.left + frame.right) / 2, heightPx - 10.0, figure.xTitle, "middle", 13);
    const double middle = (frame.top + frame.bottom) / 2;
    writeText(svg, 18, middle, figure.yTitle, "middle", 13,
              (" transform=\"rotate(-90 18 " + number(middle) + ")\"").c_str());
}

/// The acceptable side of each shaded limit, under the data: from the line to the frame.
void writeShades(std::ostringstream& svg, const Figure& figure, const Frame& frame, const Axis& x,
                 const Axis& y)
{
    for (const auto& line : figure.referenceLines) {
        const bool horizontal = line.orientation == FigureReferenceLine::Orientation::Horizontal;
        if (line.shade == FigureReferenceLine::Shade::None ||
            !usable(line.value, horizontal ? y.log : x.log))
            continue;
        const bool below = line.shade == FigureReferenceLine::Shade::Below;
        double left = frame.left, right = frame.right, top = frame.top, bottom = frame.bottom;
        if (horizontal)
            (below ? top : bottom) = std::clamp(y.toPixel(line.value), frame.top, frame.bottom);
        else
            (below ? right : left) = std::clamp(x.toPixel(line.value), frame.left, frame.right);
        svg << "<rect x=\"" << number(left) << "\" y=\"" << number(top) << "\" width=\""
            << number(right - left) << "\" height=\"" << number(bottom - top) << "\" fill=\""
            << palette::kFeasible.hex() << "\" fill-opacity=\"0.16\"/>\n";
    }
}

void writeReferenceLines(std::ostringstream& svg, const Figure& figure, const Frame& frame,
                         const Axis& x, const Axis& y)
{
    for (const auto& line : figure.referenceLines) {
        const bool horizontal = line.orientation == FigureReferenceLine::Orientation::Horizontal;
        if (!usable(line.value, horizontal ? y.log : x.log))
            continue;
        if (horizontal) {
            const double py = y.toPixel(line.value);
            svg << "<line x1=\"" << number(frame.left) << "\" y1=\"" << number(py) << "\" x2=\""
                << number(frame.right) << "\" y2=\"" << number(py)
                << "\" stroke=\"#B00020\" stroke-width=\"1.6\" stroke-dasharray=\"6 4\"/>\n";
            writeText(svg, frame.right - 4, py - 5, line.label, "end", 12, " fill=\"#B00020\"");
        } else {
            const double px = x.toPixel(line.value);
            svg << "<line x1=\"" << number(px) << "\" y1=\"" << number(frame.top) << "\" x2=\""
                << number(px) << "\" y2=\"" << number(frame.bottom)
                << "\" stroke=\"#B00020\" stroke-width=\"1.6\" stroke-dasharray=\"6 4\"/>\n";
            writeText(svg, px + 4, frame.top + 14, line.label, "start", 12, " fill=\"#B00020\"");
        }
    }
}

void writeMarkers(std::ostringstream& svg, const Figure& figure, const Frame& frame, const Axis& x,
                  const Axis& y)
{
    for (const auto& marker : figure.markers) {
        if (!usable(marker.at.x, x.log) || !usable(marker.at.y, y.log))
            continue;
        const double px = x.toPixel(marker.at.x), py = y.toPixel(marker.at.y);
        // Larger than any data point and outlined, in the GUI's "recommended" colour.
        constexpr double kHalfPx = 12.0;
        svg << "<path d=\"M" << number(px) << "," << number(py - kHalfPx) << " L"
            << number(px + kHalfPx) << "," << number(py) << " L" << number(px) << ","
            << number(py + kHalfPx) << " L" << number(px - kHalfPx) << "," << number(py)
            << " Z\" fill=\"" << palette::kRecommended.hex() << "\" stroke=\""
            << palette::kRecommendedOutline.hex() << "\" stroke-width=\"2.5\"/>\n";
        // Labels of points in the right half go to their left, so they stay inside the frame.
        const bool rightHalf = px > (frame.left + frame.right) / 2;
        writeText(svg, rightHalf ? px - 12 : px + 12, py - 10, marker.label,
                  rightHalf ? "end" : "start", 12, " font-weight=\"bold\"");
    }
}

void writeHeatmap(std::ostringstream& svg, const Figure& figure, const Frame& frame, int heightPx)
{
    const auto& map = *figure.heatmap;
    const std::size_t columns = map.columnLabels.size(), rows = map.rowLabels.size();
    if (columns == 0 || rows == 0) {
        writeText(svg, (frame.left + frame.right) / 2, (frame.top + frame.bottom) / 2, "no data",
                  "middle", 14);
        return;
    }
    const double cellWidth = (frame.right - frame.left) / static_cast<double>(columns);
    const double cellHeight = (frame.bottom - frame.top) / static_cast<double>(rows);
    for (std::size_t row = 0; row < rows; ++row) {
        for (std::size_t column = 0; column < columns; ++column) {
            const std::size_t index = row * columns + column;
            const int category = index < map.categories.size() ? map.categories[index] : -1;
            const double px = frame.left + static_cast<double>(column) * cellWidth;
            const double py = frame.bottom - static_cast<double>(row + 1) * cellHeight;
            const std::string fill = category < 0
                                         ? std::string("#f2f2f2")
                                         : categoryColour(map, static_cast<std::size_t>(category));
            svg << "<rect x=\"" << number(px) << "\" y=\"" << number(py) << "\" width=\""
                << number(cellWidth) << "\" height=\"" << number(cellHeight) << "\" fill=\"" << fill
                << "\" fill-opacity=\"0.55\" stroke=\"#fff\"/>\n";
            if (index < map.cellTexts.size() && !map.cellTexts[index].empty())
                writeText(svg, px + cellWidth / 2, py + cellHeight / 2 + 4, map.cellTexts[index],
                          "middle", 11);
            if (map.highlightedCell && map.highlightedCell->first == static_cast<int>(column) &&
                map.highlightedCell->second == static_cast<int>(row))
                svg << "<rect x=\"" << number(px + 1.5) << "\" y=\"" << number(py + 1.5)
                    << "\" width=\"" << number(cellWidth - 3) << "\" height=\""
                    << number(cellHeight - 3)
                    << "\" fill=\"none\" stroke=\"#000\" stroke-width=\"3\"/>\n";
        }
    }
    for (std::size_t column = 0; column < columns; ++column)
        writeText(svg, frame.left + (static_cast<double>(column) + 0.5) * cellWidth,
                  frame.bottom + 18, map.columnLabels[column], "middle", 12);
    for (std::size_t row = 0; row < rows; ++row)
        writeText(svg, frame.left - 6,
                  frame.bottom - (static_cast<double>(row) + 0.5) * cellHeight + 4,
                  map.rowLabels[row], "end", 12);
    writeText(svg, (frame.left + frame.right) / 2, heightPx - 10.0, figure.xTitle, "middle", 13);
    const double middle = (frame.top + frame.bottom) / 2;
    writeText(svg, 18, middle, figure.yTitle, "middle", 13,
              (" transform=\"rotate(-90 18 " + number(middle) + ")\"").c_str());
    double legendY = frame.top + 8;
    for (std::size_t category = 0; category < map.categoryNames.size(); ++category) {
        svg << "<rect x=\"" << number(frame.right + 14) << "\" y=\"" << number(legendY)
            << "\" width=\"14\" height=\"14\" fill=\"" << categoryColour(map, category)
            << "\" fill-opacity=\"0.55\"/>\n";
        writeText(svg, frame.right + 34, legendY + 11, map.categoryNames[category], "start", 12);
        legendY += 20;
    }
}

bool hasLegend(const Figure& figure)
{
    if (figure.heatmap)
        return !figure.heatmap->categoryNames.empty();
    return std::any_of(figure.series.begin(), figure.series.end(),
                       [](const FigureSeries& series) { return !series.name.empty(); });
}

} // namespace

std::string renderFigureSvg(const Figure& figure, int widthPx, int heightPx)
{
    widthPx = std::max(widthPx, 240);
    heightPx = std::max(heightPx, 160);
    Frame frame;
    frame.right = widthPx - (hasLegend(figure) ? 190.0 : 20.0);
    frame.bottom = heightPx - 48.0;

    std::ostringstream svg;
    svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << widthPx << "\" height=\""
        << heightPx << "\" viewBox=\"0 0 " << widthPx << " " << heightPx
        << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
    writeText(svg, widthPx / 2.0, 24, figure.title, "middle", 15, " font-weight=\"bold\"");

    if (figure.heatmap) {
        writeHeatmap(svg, figure, frame, heightPx);
    } else {
        const auto [xLow, xHigh] = dataRange(figure, true, figure.xLog);
        const auto [yLow, yHigh] = dataRange(figure, false, figure.yLog);
        const Axis x{xLow, xHigh, figure.xLog, frame.left, frame.right};
        const Axis y{yLow, yHigh, figure.yLog, frame.bottom, frame.top};
        writeAxes(svg, figure, frame, x, y, heightPx);
        const bool empty =
            std::all_of(figure.series.begin(), figure.series.end(),
                        [](const FigureSeries& series) { return series.points.empty(); });
        if (empty)
            writeText(svg, (frame.left + frame.right) / 2, (frame.top + frame.bottom) / 2,
                      "no data", "middle", 14, " fill=\"#777\"");
        writeShades(svg, figure, frame, x, y);
        svg << "<g clip-path=\"none\">\n";
        for (std::size_t i = 0; i < figure.series.size(); ++i)
            writeSeries(svg, figure.series[i], i, x, y);
        svg << "</g>\n";
        writeReferenceLines(svg, figure, frame, x, y);
        writeMarkers(svg, figure, frame, x, y);
        writeLegend(svg, figure, frame);
    }
    svg << "</svg>\n";
    return svg.str();
}

nlohmann::json toJson(const Figure& figure)
{
    nlohmann::json series = nlohmann::json::array();
    for (const auto& one : figure.series) {
        nlohmann::json points = nlohmann::json::array();
        for (const auto& point : one.points)
            points.push_back({point.x, point.y});
        const char* kind = one.kind == FigureSeriesKind::Line      ? "line"
                           : one.kind == FigureSeriesKind::Scatter ? "scatter"
                                                                   : "step";
        series.push_back({{"name", one.name},
                          {"kind", kind},
                          {"points", points},
                          {"colour_index", one.colourIndex},
                          {"dashed", one.dashed}});
        if (!one.colour.empty())
            series.back()["colour"] = one.colour;
    }
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& line : figure.referenceLines) {
        lines.push_back(
            {{"orientation", line.orientation == FigureReferenceLine::Orientation::Horizontal
                                 ? "horizontal"
                                 : "vertical"},
             {"value", line.value},
             {"label", line.label}});
        if (line.shade != FigureReferenceLine::Shade::None) {
            lines.back()["shade"] =
                line.shade == FigureReferenceLine::Shade::Below ? "below" : "above";
            lines.back()["shade_label"] = line.shadeLabel;
        }
    }
    nlohmann::json out = {{"title", figure.title},    {"x_title", figure.xTitle},
                          {"y_title", figure.yTitle}, {"x_log", figure.xLog},
                          {"y_log", figure.yLog},     {"series", series},
                          {"reference_lines", lines}, {"caption", figure.caption}};
    if (figure.heatmap) {
        const auto& map = *figure.heatmap;
        out["heatmap"] = {{"columns", map.columnLabels},
                          {"rows", map.rowLabels},
                          {"categories", map.categoryNames},
                          {"cells", map.categories},
                          {"cell_texts", map.cellTexts}};
        if (!map.categoryColours.empty())
            out["heatmap"]["category_colours"] = map.categoryColours;
        if (map.highlightedCell)
            out["heatmap"]["highlighted_cell"] = {map.highlightedCell->first,
                                                  map.highlightedCell->second};
    }
    nlohmann::json markers = nlohmann::json::array();
    for (const auto& marker : figure.markers)
        markers.push_back({{"x", marker.at.x}, {"y", marker.at.y}, {"label", marker.label}});
    out["markers"] = markers;
    return out;
}

namespace {

/// Strict reading helpers: a wrong type is an error naming the key, never a thrown exception.
struct FigureReader
{
    std::string where;
    std::optional<Error> error;

    void fail(const std::string& key, const std::string& what)
    {
        if (!error)
            error = makeError(ErrorCode::Format, where + "." + key + ": " + what);
    }
    std::string text(const nlohmann::json& object, const char* key)
    {
        if (!object.contains(key))
            return {};
        if (!object[key].is_string()) {
            fail(key, "must be text");
            return {};
        }
        return object[key].get<std::string>();
    }
    double number(const nlohmann::json& value, const std::string& key)
    {
        if (value.is_null()) // NaN is written as null
            return std::numeric_limits<double>::quiet_NaN();
        if (!value.is_number()) {
            fail(key, "must be a number");
            return 0.0;
        }
        return value.get<double>();
    }
    /// A whole number in [-1e6, 1e6]: colour and cell indices, cast to int (a cast of 1e308
    /// would be undefined).
    int index(const nlohmann::json& value, const std::string& key)
    {
        const double v = number(value, key);
        if (!(v == std::floor(v) && std::fabs(v) <= 1e6)) {
            fail(key, "must be a whole number between -1000000 and 1000000");
            return 0;
        }
        return int(v);
    }
    bool flag(const nlohmann::json& object, const char* key)
    {
        if (!object.contains(key))
            return false;
        if (!object[key].is_boolean()) {
            fail(key, "must be true or false");
            return false;
        }
        return object[key].get<bool>();
    }
    const nlohmann::json* array(const nlohmann::json& object, const char* key)
    {
        if (!object.contains(key))
            return nullptr;
        if (!object[key].is_array()) {
            fail(key, "must be a list");
            return nullptr;
        }
        return &object[key];
    }
    std::vector<std::string> texts(const nlohmann::json& object, const char* key)
    {
        std::vector<std::string> out;
        if (const auto* list = array(object, key))
            for (const auto& item : *list) {
                if (!item.is_string()) {
                    fail(key, "must hold text");
                    break;
                }
                out.push_back(item.get<std::string>());
            }
        return out;
    }
};

FigureSeries readSeries(FigureReader& reader, const nlohmann::json& json, const std::string& key)
{
    FigureSeries series;
    if (!json.is_object()) {
        reader.fail(key, "must be an object");
        return series;
    }
    series.name = reader.text(json, "name");
    const std::string kind = reader.text(json, "kind");
    series.kind = kind == "scatter" ? FigureSeriesKind::Scatter
                  : kind == "step"  ? FigureSeriesKind::Step
                                    : FigureSeriesKind::Line;
    if (kind != "line" && kind != "scatter" && kind != "step")
        reader.fail(key + ".kind", "must be line, scatter or step");
    if (json.contains("colour_index"))
        series.colourIndex = reader.index(json["colour_index"], key + ".colour_index");
    series.dashed = reader.flag(json, "dashed");
    if (json.contains("colour")) {
        series.colour = reader.text(json, "colour");
        if (!isHexColour(series.colour))
            reader.fail(key + ".colour", "must be \"#rrggbb\"");
    }
    if (const auto* points = reader.array(json, "points"))
        for (std::size_t i = 0; i < points->size(); ++i) {
            const auto& point = (*points)[i];
            const std::string at = key + ".points[" + std::to_string(i) + "]";
            if (!point.is_array() || point.size() != 2) {
                reader.fail(at, "must be [x, y]");
                break;
            }
            series.points.push_back({reader.number(point[0], at), reader.number(point[1], at)});
        }
    return series;
}

} // namespace

Expected<Figure> figureFromJson(const nlohmann::json& json, const std::string& where)
{
    FigureReader reader{where, std::nullopt};
    Figure figure;
    if (!json.is_object())
        return makeError(ErrorCode::Format, where + ": must be an object");
    figure.title = reader.text(json, "title");
    figure.xTitle = reader.text(json, "x_title");
    figure.yTitle = reader.text(json, "y_title");
    figure.xLog = reader.flag(json, "x_log");
    figure.yLog = reader.flag(json, "y_log");
    figure.caption = reader.text(json, "caption");
    if (const auto* series = reader.array(json, "series"))
        for (std::size_t i = 0; i < series->size(); ++i)
            figure.series.push_back(
                readSeries(reader, (*series)[i], "series[" + std::to_string(i) + "]"));
    if (const auto* lines = reader.array(json, "reference_lines"))
        for (std::size_t i = 0; i < lines->size(); ++i) {
            const auto& line = (*lines)[i];
            const std::string at = "reference_lines[" + std::to_string(i) + "]";
            if (!line.is_object() || !line.contains("value")) {
                reader.fail(at, "must be {orientation, value, label}");
                break;
            }
            const std::string orientation = reader.text(line, "orientation");
            FigureReferenceLine read{
                orientation == "vertical" ? FigureReferenceLine::Orientation::Vertical
                                          : FigureReferenceLine::Orientation::Horizontal,
                reader.number(line["value"], at + ".value"), reader.text(line, "label")};
            const std::string shade = reader.text(line, "shade");
            if (shade == "below" || shade == "above") {
                read.shade = shade == "below" ? FigureReferenceLine::Shade::Below
                                              : FigureReferenceLine::Shade::Above;
                read.shadeLabel = reader.text(line, "shade_label");
            } else if (!shade.empty()) {
                reader.fail(at + ".shade", "must be \"below\" or \"above\"");
            }
            figure.referenceLines.push_back(std::move(read));
        }
    if (const auto* markers = reader.array(json, "markers"))
        for (std::size_t i = 0; i < markers->size(); ++i) {
            const auto& marker = (*markers)[i];
            const std::string at = "markers[" + std::to_string(i) + "]";
            if (!marker.is_object() || !marker.contains("x") || !marker.contains("y")) {
                reader.fail(at, "must be {x, y, label}");
                break;
            }
            figure.markers.push_back(
                {{reader.number(marker["x"], at + ".x"), reader.number(marker["y"], at + ".y")},
                 reader.text(marker, "label")});
        }
    if (json.contains("heatmap")) {
        const auto& map = json["heatmap"];
        FigureHeatmap heatmap;
        if (!map.is_object()) {
            reader.fail("heatmap", "must be an object");
        } else {
            heatmap.columnLabels = reader.texts(map, "columns");
            heatmap.rowLabels = reader.texts(map, "rows");
            heatmap.categoryNames = reader.texts(map, "categories");
            heatmap.cellTexts = reader.texts(map, "cell_texts");
            if (map.contains("category_colours")) {
                heatmap.categoryColours = reader.texts(map, "category_colours");
                if (!std::ranges::all_of(heatmap.categoryColours, isHexColour))
                    reader.fail("heatmap.category_colours", "must be \"#rrggbb\" each");
            }
            if (const auto* cells = reader.array(map, "cells"))
                for (const auto& cell : *cells)
                    heatmap.categories.push_back(reader.index(cell, "heatmap.cells"));
            if (map.contains("highlighted_cell")) {
                const auto& cell = map["highlighted_cell"];
                if (cell.is_array() && cell.size() == 2)
                    heatmap.highlightedCell =
                        std::pair{reader.index(cell[0], "heatmap.highlighted_cell"),
                                  reader.index(cell[1], "heatmap.highlighted_cell")};
                else
                    reader.fail("heatmap.highlighted_cell", "must be [column, row]");
            }
        }
        figure.heatmap = std::move(heatmap);
    }
    if (reader.error)
        return *reader.error;
    return figure;
}

} // namespace bs::figure
