// The figures of the batch policy curve pack (curvefigures.h), as figure::Figure data.
#include "analysis/curvefigures.h"

#include "analysis/pareto.h"
#include "analysis/regionpalette.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

namespace bs::analysis {

namespace {

using figure::Figure;
using figure::FigureHeatmap;
using figure::FigureMarker;
using figure::FigurePoint;
using figure::FigureReferenceLine;
using figure::FigureSeries;
using figure::FigureSeriesKind;

std::string text(double v, int digits = 4)
{
    std::ostringstream out;
    out.precision(digits);
    out << v;
    return out.str();
}

/// A stable, simulated cell with throughput and p99 (what the scatter plots can place).
bool plotted(const RegionCell& c)
{
    return (c.status == CellStatus::Feasible || c.status == CellStatus::Infeasible) &&
           c.metrics.stable && std::isfinite(c.metrics.throughputPerS.value) &&
           std::isfinite(c.metrics.p99S.value);
}

std::vector<std::size_t> policyAxes(const RegionSpec& spec)
{
    std::vector<std::size_t> out;
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
        if (!spec.axes[a].isRate())
            out.push_back(a);
    }
    return out;
}

std::optional<std::size_t> rateAxis(const RegionSpec& spec)
{
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
        if (spec.axes[a].isRate())
            return a;
    }
    return std::nullopt;
}

/// Row-major cell number (the last axis varies fastest), as RegionGrid numbers cells.
std::size_t cellNumber(const RegionSpec& spec, const std::vector<std::size_t>& axisIndex)
{
    std::size_t cell = 0;
    for (std::size_t a = 0; a < spec.axes.size(); ++a)
        cell = cell * spec.axes[a].size() + axisIndex[a];
    return cell;
}

const RegionCell* recommendedCell(const RegionResult& r)
{
    return r.recommendation ? r.cell(r.recommendation->cell) : nullptr;
}

/// The values the 2-D plots fix on the axes they do not show: the recommended cell's.
std::vector<std::size_t> sliceIndex(const RegionResult& r)
{
    if (const RegionCell* c = recommendedCell(r))
        return c->axisIndex;
    return std::vector<std::size_t>(r.spec.axes.size(), 0);
}

/// "max batch 16", "delay 0.5 ms", "3 servers", "int8", "cap 70 W", "rate 300 req/s".
std::string valueText(const RegionAxis& axis, std::size_t i)
{
    const std::string v = axis.label(i);
    switch (axis.kind) {
    case RegionAxisKind::MaxBatch:
        return "max batch " + v;
    case RegionAxisKind::MaxQueueDelayMs:
        return "delay " + v + " ms";
    case RegionAxisKind::RatePerS:
        return "rate " + v + " req/s";
    case RegionAxisKind::RateMultiplier:
        return "rate x" + v;
    case RegionAxisKind::Servers:
        return v + " server(s)";
    case RegionAxisKind::Precision:
        return v;
    case RegionAxisKind::PowerCapW:
        return "cap " + v + " W";
    }
    return v;
}

/// "max batch 16, rate 300 req/s" for the axes not in `shown`.
std::string sliceText(const RegionSpec& spec, const std::vector<std::size_t>& slice,
                      const std::vector<std::size_t>& shown)
{
    std::string out;
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
        if (std::find(shown.begin(), shown.end(), a) != shown.end())
            continue;
        out += (out.empty() ? "" : ", ") + valueText(spec.axes[a], slice[a]);
    }
    return out;
}

std::string cellText(const RegionSpec& spec, const RegionCell& c)
{
    std::string out;
    for (std::size_t a = 0; a < spec.axes.size() && a < c.axisIndex.size(); ++a)
        out += (out.empty() ? "" : ", ") + valueText(spec.axes[a], c.axisIndex[a]);
    return out;
}

/// The heatmap category of a cell: "feasible", "infeasible: <constraint>", "unstable", "error".
std::string category(const RegionCell& c)
{
    switch (c.status) {
    case CellStatus::Feasible:
        return "feasible";
    case CellStatus::Infeasible:
        return std::string("infeasible: ") + constraintName(c.binding);
    case CellStatus::Unstable:
        return "unstable (rho >= 1)";
    case CellStatus::Error:
        return "error";
    }
    return "error";
}

const std::vector<std::string>& categoryOrder()
{
    static const std::vector<std::string> order = {"feasible",
                                                   "infeasible: p99",
                                                   "infeasible: throughput",
                                                   "infeasible: power",
                                                   "infeasible: temperature",
                                                   "infeasible: energy",
                                                   "unstable (rho >= 1)",
                                                   "error"};
    return order;
}

/// The p99 in ms, "~" when a short run decided it (far from every limit), "?" when the verdict
/// is not settled (or still pending in a preview).
std::string heatmapText(const RegionCell& c)
{
    if (!plotted(c))
        return {};
    return text(c.metrics.p99S.value * 1000.0, 3) + (c.method == CellMethod::ShortRun ? "~" : "") +
           (c.confident && !c.pending ? "" : "?");
}

Figure heatmapFigure(const RegionResult& r)
{
    const RegionSpec& spec = r.spec;
    std::vector<std::size_t> shown = policyAxes(spec);
    if (const auto rate = rateAxis(spec))
        shown.push_back(*rate);
    shown.resize(std::min<std::size_t>(shown.size(), 2));
    const std::size_t columns = shown.size() > 0 ? spec.axes[shown[0]].size() : 1;
    const std::size_t rows = shown.size() > 1 ? spec.axes[shown[1]].size() : 1;
    const auto slice = sliceIndex(r);
    FigureHeatmap h;
    for (std::size_t i = 0; i < columns; ++i)
        h.columnLabels.push_back(shown.size() > 0 ? spec.axes[shown[0]].label(i) : "");
    for (std::size_t i = 0; i < rows; ++i)
        h.rowLabels.push_back(shown.size() > 1 ? spec.axes[shown[1]].label(i) : "");
    std::vector<std::string> names(rows * columns);
    std::map<std::string, std::string> colourOfName;
    h.cellTexts.assign(rows * columns, {});
    const RegionCell* recommended = recommendedCell(r);
    for (std::size_t row = 0; row < rows; ++row) {
        for (std::size_t column = 0; column < columns; ++column) {
            auto index = slice;
            if (shown.size() > 0)
                index[shown[0]] = column;
            if (shown.size() > 1)
                index[shown[1]] = row;
            const RegionCell* c = r.cell(cellNumber(spec, index));
            if (!c)
                continue; // not in this shard
            names[row * columns + column] = category(*c);
            colourOfName[category(*c)] = regionCellColour(*c).hex();
            h.cellTexts[row * columns + column] = heatmapText(*c);
            if (c == recommended)
                h.highlightedCell = std::make_pair(int(column), int(row));
        }
    }
    for (const auto& name : categoryOrder()) {
        if (std::find(names.begin(), names.end(), name) != names.end()) {
            h.categoryNames.push_back(name);
            h.categoryColours.push_back(colourOfName[name]);
        }
    }
    for (const auto& name : names) {
        const auto it = std::find(h.categoryNames.begin(), h.categoryNames.end(), name);
        h.categories.push_back(it == h.categoryNames.end() ? -1
                                                           : int(it - h.categoryNames.begin()));
    }
    Figure f;
    f.title = "Feasible operating region";
    f.xTitle = shown.size() > 0 ? axisTitle(spec.axes[shown[0]].kind) : "";
    f.yTitle = shown.size() > 1 ? axisTitle(spec.axes[shown[1]].kind) : "";
    f.heatmap = std::move(h);
    const std::string fixed = sliceText(spec, slice, shown);
    f.caption =
        "Colour: feasible, or the constraint a cell fails first; number: p99 latency in "
        "ms (~ = decided by a short run, far from every limit; ? = not confident); outlined: "
        "the recommended point (confirmed by a full run)" +
        (fixed.empty() ? std::string(".") : "; at " + fixed + ".");
    return f;
}

using CellValue = std::function<double(const RegionCell&)>;

/// The cells on the Pareto front of throughput (up) against `value` (down), by throughput.
FigureSeries frontLine(const RegionResult& r, const CellValue& value, const std::string& name)
{
    std::vector<const RegionCell*> cells;
    std::vector<std::vector<double>> points;
    for (const auto& c : r.cells) {
        if (!plotted(c) || !std::isfinite(value(c)))
            continue;
        cells.push_back(&c);
        points.push_back({-c.metrics.throughputPerS.value, value(c)});
    }
    FigureSeries line{
        name, FigureSeriesKind::Line, {}, -1, false, figure::palette::kParetoFront.hex()};
    for (std::size_t i : paretoFront(points))
        line.points.push_back({cells[i]->metrics.throughputPerS.value, value(*cells[i])});
    std::sort(line.points.begin(), line.points.end(),
              [](const FigurePoint& a, const FigurePoint& b) {
                  return a.x < b.x || (a.x == b.x && a.y < b.y);
              });
    return line;
}

/// Feasible and infeasible cells as two scatter series, the front, the recommendation.
void scatterAgainstThroughput(const RegionResult& r, const CellValue& value,
                              const std::string& frontName, Figure& f)
{
    // One series per verdict ("feasible", "infeasible: p99", ...), in the GUI's colours.
    std::map<std::string, FigureSeries> byCategory;
    double lowest = INFINITY;
    double highest = 0.0;
    for (const auto& c : r.cells) {
        if (!plotted(c) || !std::isfinite(value(c)))
            continue;
        const FigurePoint p{c.metrics.throughputPerS.value, value(c)};
        auto& series = byCategory[category(c)];
        series = FigureSeries{category(c), FigureSeriesKind::Scatter, std::move(series.points), -1,
                              false,       regionCellColour(c).hex()};
        series.points.push_back(p);
        lowest = std::min(lowest, p.y);
        highest = std::max(highest, p.y);
    }
    f.series.clear();
    for (const auto& name : categoryOrder())
        if (const auto it = byCategory.find(name); it != byCategory.end())
            f.series.push_back(it->second);
    f.series.push_back(frontLine(r, value, frontName));
    // Latencies near saturation reach far above the rest: a log axis keeps both readable.
    f.yLog = lowest > 0.0 && highest / lowest > 30.0;
    if (const auto& min = r.spec.constraints.minThroughputPerS)
        f.referenceLines.push_back({FigureReferenceLine::Orientation::Vertical, *min,
                                    "demand " + text(*min) + " req/s",
                                    FigureReferenceLine::Shade::Above, "meets demand"});
    const RegionCell* c = recommendedCell(r);
    if (c && plotted(*c) && std::isfinite(value(*c)))
        f.markers.push_back(
            {{c->metrics.throughputPerS.value, value(*c)}, "recommended: " + cellText(r.spec, *c)});
}

Figure throughputP99Figure(const RegionResult& r)
{
    Figure f;
    f.title = "Throughput against p99 latency";
    f.xTitle = "throughput (req/s)";
    f.yTitle = "p99 latency (ms)";
    scatterAgainstThroughput(
        r, [](const RegionCell& c) { return c.metrics.p99S.value * 1000.0; },
        "Pareto front (throughput, p99)", f);
    const double slaMs = r.spec.constraints.slaP99S * 1000.0;
    f.referenceLines.push_back({FigureReferenceLine::Orientation::Horizontal, slaMs,
                                "SLA p99 " + text(slaMs) + " ms", FigureReferenceLine::Shade::Below,
                                "meets SLA p99"});
    f.caption = "Every stable operating point of the grid; the line joins those no other point "
                "beats on both throughput and p99; feasible points lie in the shaded band below "
                "the SLA line.";
    return f;
}

Figure energyFigure(const RegionResult& r)
{
    Figure f;
    f.title = "Energy per inference against throughput";
    f.xTitle = "throughput (req/s)";
    f.yTitle = "energy per inference (mJ)";
    scatterAgainstThroughput(
        r, [](const RegionCell& c) { return c.metrics.energyPerInferenceJ.value * 1000.0; },
        "Pareto front (throughput, energy)", f);
    if (const auto& budget = r.spec.constraints.maxEnergyPerInferenceJ)
        f.referenceLines.push_back({FigureReferenceLine::Orientation::Horizontal, *budget * 1000.0,
                                    "budget " + text(*budget * 1000.0) + " mJ",
                                    FigureReferenceLine::Shade::Below, "within energy budget"});
    const bool any = std::any_of(f.series.begin(), f.series.end(),
                                 [](const FigureSeries& s) { return !s.points.empty(); });
    f.caption = any ? "Every stable operating point; the line joins those no other point beats "
                      "on both throughput and energy per inference."
                    : "No energy figures: the scenario has no power information (add \"power\" "
                      "or use the accelerator service model).";
    return f;
}

/// The x position of value i of a capacity plot's axis: its number, or its index (precision).
double axisPosition(const RegionAxis& axis, std::size_t i)
{
    return axis.kind == RegionAxisKind::Precision ? double(i) : axis.values[i];
}

Figure capacityFigure(const RegionResult& r)
{
    const RegionSpec& spec = r.spec;
    const auto policies = policyAxes(spec);
    // Plain indices with a "none" value (GCC 12 warns falsely about optionals here).
    constexpr std::size_t kNone = SIZE_MAX;
    const std::size_t xAxis = policies.empty() ? kNone : policies[0];
    const std::size_t lineAxis = policies.size() > 1 ? policies[1] : kNone;
    const auto slice = sliceIndex(r);
    std::map<std::size_t, FigureSeries> lines;
    FigureSeries limit{"stability limit (rho = 1)", FigureSeriesKind::Line, {}, -1, true};
    for (const auto& p : r.capacity) {
        bool inSlice = true;
        for (std::size_t k = 2; k < policies.size(); ++k)
            inSlice = inSlice && p.axisIndex[policies[k]] == slice[policies[k]];
        if (!inSlice)
            continue;
        const double x = xAxis != kNone ? axisPosition(spec.axes[xAxis], p.axisIndex[xAxis]) : 0.0;
        const std::size_t key = lineAxis != kNone ? p.axisIndex[lineAxis] : 0;
        auto& line = lines[key];
        line.name =
            lineAxis != kNone ? valueText(spec.axes[lineAxis], key) : "max sustainable rate";
        line.points.push_back({x, p.maxRatePerS});
        if (std::isfinite(p.stabilityLimitPerS))
            limit.points.push_back({x, p.stabilityLimitPerS});
    }
    Figure f;
    f.title = "Capacity: maximum sustainable arrival rate";
    f.xTitle = xAxis != kNone ? axisTitle(spec.axes[xAxis].kind) : "policy";
    if (xAxis != kNone && spec.axes[xAxis].kind == RegionAxisKind::Precision) {
        f.xTitle = "precision (";
        for (std::size_t i = 0; i < spec.axes[xAxis].size(); ++i)
            f.xTitle += (i ? ", " : "") + std::to_string(i) + " = " + spec.axes[xAxis].label(i);
        f.xTitle += ")";
    }
    f.yTitle = "max rate meeting the limits (req/s)";
    const auto byX = [](const FigurePoint& a, const FigurePoint& b) { return a.x < b.x; };
    for (auto& [key, line] : lines) {
        std::sort(line.points.begin(), line.points.end(), byX);
        f.series.push_back(std::move(line));
    }
    if (f.series.size() == 1 && !limit.points.empty()) {
        std::sort(limit.points.begin(), limit.points.end(), byX);
        f.series.push_back(std::move(limit));
    }
    if (xAxis != kNone && spec.axes[xAxis].kind == RegionAxisKind::MaxBatch) {
        const auto& v = spec.axes[xAxis].values;
        f.xLog =
            *std::max_element(v.begin(), v.end()) >= 8.0 * *std::min_element(v.begin(), v.end());
    }
    if (const auto& min = spec.constraints.minThroughputPerS)
        f.referenceLines.push_back({FigureReferenceLine::Orientation::Horizontal, *min,
                                    "demand " + text(*min) + " req/s"});
    std::vector<std::size_t> shown;
    for (std::size_t a = 0; a < spec.axes.size(); ++a) {
        if (a == xAxis || a == lineAxis || spec.axes[a].isRate())
            shown.push_back(a);
    }
    const std::string fixed = sliceText(spec, slice, shown);
    f.caption = r.capacity.empty()
                    ? "No capacity curves: the capacity search was disabled or has not run."
                    : "Per policy, the highest arrival rate at which it meets every limit but the "
                      "demand (p99 SLA, power, temperature, energy), found by bisection on the "
                      "rate" +
                          (fixed.empty() ? std::string(".") : "; at " + fixed + ".");
    return f;
}

} // namespace

std::vector<NamedFigure> curvePackFigures(const RegionResult& result)
{
    return {{"region-heatmap", heatmapFigure(result)},
            {"throughput-p99", throughputP99Figure(result)},
            {"energy-throughput", energyFigure(result)},
            {"capacity", capacityFigure(result)}};
}

} // namespace bs::analysis
