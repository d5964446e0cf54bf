// The figures of the LLM curve pack (llmregionpack.h: llmRegionFigures).
#include "analysis/llmregionpack.h"
#include "analysis/regionpalette.h"
#include "figure/palette.h"
#include "util/numbertext.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace bs::analysis {

namespace {

using figure::Figure;
using figure::FigureHeatmap;
using figure::FigureMarker;
using figure::FigurePoint;
using figure::FigureReferenceLine;
using figure::FigureSeries;
using figure::FigureSeriesKind;

std::string categoryOf(const LlmRegionCell& c)
{
    if (c.status == LlmCellStatus::Feasible)
        return "feasible";
    if (c.status == LlmCellStatus::Refused)
        return "refused up front";
    return std::string("infeasible: ") + llmConstraintName(c.binding);
}

/// The cell the 2-D plots fix their other axes at: the recommended one, else the first.
std::array<std::size_t, kLlmAxisCount> sliceOf(const LlmRegionResult& r)
{
    if (const LlmRegionCell* c = r.recommended())
        return c->at;
    return {};
}

/// "at tensor_parallel 2, replicas 4" for the axes a plot holds fixed (present ones only).
std::string fixedText(const LlmRegionResult& r, const std::array<std::size_t, kLlmAxisCount>& at,
                      std::initializer_list<LlmAxis> shown)
{
    if (r.cells.empty())
        return {};
    const LlmCellKnobs k = llmCellAt(r.spec, llmCellIndex(r.spec, at)).knobs;
    std::string out;
    const auto add = [&](LlmAxis axis, const std::string& value) {
        if (!hasLlmAxis(r.spec, axis) || std::find(shown.begin(), shown.end(), axis) != shown.end())
            return;
        out += (out.empty() ? "" : ", ") + std::string(llmAxisName(r.spec, axis)) + " " + value;
    };
    add(LlmAxis::TensorParallel, std::to_string(k.tensorParallel));
    add(LlmAxis::PowerCapW, significant(k.powerCapW, 4) + " W");
    add(LlmAxis::Replicas, std::to_string(k.replicas));
    add(LlmAxis::GpuMemoryUtilization, significant(k.gpuMemoryUtilization, 4));
    add(LlmAxis::Load, significant(k.load, 4));
    return out;
}

const LlmRegionCell* cellAt(const LlmRegionResult& r, std::size_t index)
{
    return index < r.cells.size() && r.cells[index].index == index ? &r.cells[index] : nullptr;
}

Figure heatmapFigure(const LlmRegionResult& r)
{
    const LlmRegionSpec& spec = r.spec;
    const auto slice = sliceOf(r);
    FigureHeatmap h;
    for (auto budget : spec.maxNumBatchedTokens)
        h.columnLabels.push_back(std::to_string(budget));
    for (auto seqs : spec.maxNumSeqs)
        h.rowLabels.push_back(std::to_string(seqs));
    const std::size_t columns = h.columnLabels.size(), rows = h.rowLabels.size();
    std::vector<std::string> names(rows * columns);
    std::map<std::string, std::string> colourOfName;
    h.cellTexts.assign(rows * columns, {});
    for (std::size_t row = 0; row < rows; ++row) {
        for (std::size_t column = 0; column < columns; ++column) {
            auto at = slice;
            at[std::size_t(LlmAxis::MaxNumSeqs)] = row;
            at[std::size_t(LlmAxis::MaxNumBatchedTokens)] = column;
            const LlmRegionCell* c = cellAt(r, llmCellIndex(spec, at));
            if (!c)
                continue;
            const std::size_t k = row * columns + column;
            names[k] = categoryOf(*c);
            colourOfName[names[k]] = llmCellColour(*c).hex();
            h.cellTexts[k] = llmCellTtftText(*c);
            if (c == r.recommended())
                h.highlightedCell = std::make_pair(int(column), int(row));
        }
    }
    for (const auto& [name, colour] : colourOfName) {
        h.categoryNames.push_back(name);
        h.categoryColours.push_back(colour);
    }
    for (const auto& name : names) {
        const auto it = std::find(h.categoryNames.begin(), h.categoryNames.end(), name);
        h.categories.push_back(it == h.categoryNames.end() ? -1
                                                           : int(it - h.categoryNames.begin()));
    }
    Figure f;
    f.title = "LLM feasible region";
    f.xTitle = std::string(llmTokenBudgetKnob(r.spec.scenario.engine)) + " (token budget)";
    f.yTitle = "max_num_seqs";
    f.heatmap = std::move(h);
    const std::string fixed =
        fixedText(r, slice, {LlmAxis::MaxNumSeqs, LlmAxis::MaxNumBatchedTokens});
    f.caption = "Colour: feasible, or the limit a cell fails first; number: TTFT p99 in ms (? = "
                "not confident); outlined: the recommended configuration" +
                (fixed.empty() ? std::string(".") : "; at " + fixed + ".");
    return f;
}

Figure capacityFigure(const LlmRegionResult& r)
{
    const LlmRegionSpec& spec = r.spec;
    const auto slice = sliceOf(r);
    Figure f;
    f.title = "Capacity per configuration";
    f.xTitle = std::string(llmTokenBudgetKnob(spec.scenario.engine)) + " (token budget)";
    f.yTitle = std::string("highest ") + llmAxisName(spec, LlmAxis::Load) + " meeting every limit";
    f.xLog = true;
    for (std::size_t s = 0; s < spec.maxNumSeqs.size(); ++s) {
        FigureSeries series;
        series.name = "max_num_seqs " + std::to_string(spec.maxNumSeqs[s]);
        for (std::size_t b = 0; b < spec.maxNumBatchedTokens.size(); ++b) {
            auto at = slice;
            at[std::size_t(LlmAxis::MaxNumSeqs)] = s;
            at[std::size_t(LlmAxis::MaxNumBatchedTokens)] = b;
            at[std::size_t(LlmAxis::Load)] = 0;
            const std::size_t configuration =
                llmCellIndex(spec, at) / llmAxisSize(spec, LlmAxis::Load);
            for (const auto& c : r.capacity) {
                if (c.configuration == configuration && std::isfinite(c.knobs.load))
                    series.points.push_back({double(spec.maxNumBatchedTokens[b]), c.knobs.load});
            }
        }
        std::sort(series.points.begin(), series.points.end(),
                  [](const FigurePoint& a, const FigurePoint& b) { return a.x < b.x; });
        f.series.push_back(std::move(series));
    }
    const std::string fixed =
        fixedText(r, slice, {LlmAxis::MaxNumSeqs, LlmAxis::MaxNumBatchedTokens, LlmAxis::Load});
    f.caption = "The highest load on the grid each configuration meets every limit at (a "
                "configuration that fails even the lowest load has no point)" +
                (fixed.empty() ? std::string(".") : "; at " + fixed + ".");
    return f;
}

/// Feasible and infeasible cells of y against output tokens/s, the Pareto front, the
/// recommendation.
Figure scatterFigure(const LlmRegionResult& r, double (*y)(const LlmCellMetrics&))
{
    Figure f;
    FigureSeries feasible{"feasible", FigureSeriesKind::Scatter,       {}, -1,
                          false,      figure::palette::kFeasible.hex()};
    FigureSeries infeasible{"infeasible", FigureSeriesKind::Scatter,       {}, -1,
                            false,        figure::palette::kUnstable.hex()};
    // Optimal over four objectives, so in this plane the front is a set of points, not a curve.
    FigureSeries front{"Pareto-optimal",
                       FigureSeriesKind::Scatter,
                       {},
                       -1,
                       false,
                       figure::palette::kParetoFront.hex()};
    for (const auto& c : r.cells) {
        const FigurePoint p{c.metrics.outputTokensPerS.value, y(c.metrics)};
        if (c.status == LlmCellStatus::Refused || !std::isfinite(p.x) || !std::isfinite(p.y))
            continue;
        (c.status == LlmCellStatus::Feasible ? feasible : infeasible).points.push_back(p);
        if (c.pareto)
            front.points.push_back(p);
    }
    // A queue that grows all run puts TTFT p99 orders of magnitude above the feasible cells:
    // a log axis keeps both readable.
    double low = INFINITY, high = 0.0;
    for (const auto* series : {&feasible, &infeasible})
        for (const auto& p : series->points)
            if (p.y > 0.0) {
                low = std::min(low, p.y);
                high = std::max(high, p.y);
            }
    f.yLog = high > 100.0 * low;
    f.series = {feasible, infeasible, front};
    if (const LlmRegionCell* c = r.recommended())
        f.markers.push_back({{c->metrics.outputTokensPerS.value, y(c->metrics)}, "recommended"});
    f.xTitle = "output tokens/s (all replicas)";
    return f;
}

} // namespace

std::string llmCellTtftText(const LlmRegionCell& cell)
{
    if (cell.status == LlmCellStatus::Refused || cell.pending)
        return {};
    return significant(cell.metrics.ttftP99Ms.value, 3) + (cell.confident ? "" : "?");
}

std::vector<NamedFigure> llmRegionFigures(const LlmRegionResult& result)
{
    std::vector<NamedFigure> out = {{"llm-region-heatmap", heatmapFigure(result)}};
    if (hasLlmAxis(result.spec, LlmAxis::Load))
        out.push_back({"llm-capacity", capacityFigure(result)});
    Figure ttft = scatterFigure(result, [](const LlmCellMetrics& m) { return m.ttftP99Ms.value; });
    ttft.title = "Output tokens/s against TTFT p99";
    ttft.yTitle = "TTFT p99 (ms)";
    ttft.referenceLines.push_back({FigureReferenceLine::Orientation::Horizontal,
                                   result.spec.limits.ttftP99Ms, "TTFT p99 limit",
                                   FigureReferenceLine::Shade::Below, "meets the TTFT limit"});
    ttft.caption = "Every judged cell; black: Pareto-optimal over output tokens/s, TTFT p99, TPOT "
                   "p99 and energy per token (a point can be optimal for its TPOT or energy).";
    out.push_back({"llm-tokens-ttft", std::move(ttft)});
    const bool power = std::any_of(result.cells.begin(), result.cells.end(), [](const auto& c) {
        return std::isfinite(c.metrics.energyPerOutputTokenJ.value);
    });
    if (power) {
        Figure energy = scatterFigure(
            result, [](const LlmCellMetrics& m) { return m.energyPerOutputTokenJ.value * 1e3; });
        energy.title = "Energy per output token against output tokens/s";
        energy.yTitle = "energy per output token (mJ)";
        if (const auto& budget = result.spec.limits.maxEnergyPerOutputTokenJ)
            energy.referenceLines.push_back(
                {FigureReferenceLine::Orientation::Horizontal, *budget * 1e3, "energy budget",
                 FigureReferenceLine::Shade::Below, "within the energy budget"});
        energy.caption = "Energy of the GPUs (busy steps and idle gaps) per output token.";
        out.push_back({"llm-energy-tokens", std::move(energy)});
    }
    return out;
}

} // namespace bs::analysis
