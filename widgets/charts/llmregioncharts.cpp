#include "charts/llmregioncharts.h"

#include "analysis/regionpalette.h"
#include "charts/chartparts.h"
#include "charts/llmregioncelltext.h"

#include <QObject>

#include <algorithm>
#include <cmath>

namespace bs::widgets {

using analysis::LlmAxis;
using analysis::LlmCellStatus;

namespace {

QColor qColour(figure::Rgb rgb)
{
    return QColor(rgb.red, rgb.green, rgb.blue);
}

const QColor kLimitColour(200, 40, 40);
/// A token budget axis spanning this factor or more is drawn in powers of two.
constexpr double kLogBudgetSpan = 4.0;
/// TTFT p99 spanning this factor or more is drawn on a logarithmic axis.
constexpr double kLogTtftSpan = 10.0;

SeriesSpec scatter(const QString& name, const QColor& colour, bool emphasised = false)
{
    SeriesSpec spec;
    spec.data.name = name;
    spec.style = SeriesStyle::Scatter;
    spec.colour = colour;
    spec.emphasised = emphasised;
    return spec;
}

void addPoint(SeriesSpec& series, const QPointF& point, const QString& note)
{
    series.data.points.append(point);
    series.pointNotes.append(note);
}

/// The load axis in words for a y title: rates are requests/s, multipliers scale the scenario's.
QString loadTitle(const analysis::LlmRegionSpec& spec)
{
    return spec.rateMultipliers.empty() ? QObject::tr("Highest rate met (req/s)")
                                        : QObject::tr("Highest rate multiplier met (×)");
}

bool inSlice(const analysis::LlmCellKnobs& knobs, const analysis::LlmRegionSpec& spec,
             const LlmRegionSlice& slice)
{
    const auto cell = analysis::llmCellAt(spec, analysis::llmCellIndex(spec, slice)).knobs;
    const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
    return knobs.replicas == cell.replicas && knobs.tensorParallel == cell.tensorParallel &&
           same(knobs.powerCapW, cell.powerCapW) &&
           same(knobs.gpuMemoryUtilization, cell.gpuMemoryUtilization);
}

/// "replicas 2, tensor_parallel 1" for the axes a capacity chart holds at the slice (present
/// ones only): its lines are those configurations'.
QString fixedAxesText(const analysis::LlmRegionResult& result, const LlmRegionSlice& slice)
{
    if (result.cells.empty())
        return {};
    const auto& spec = result.spec;
    const auto knobs = analysis::llmCellAt(spec, analysis::llmCellIndex(spec, slice)).knobs;
    QStringList parts;
    const auto add = [&](LlmAxis axis, const QString& value) {
        if (analysis::hasLlmAxis(spec, axis))
            parts << QString::fromLatin1(analysis::llmAxisName(spec, axis)) + QLatin1Char(' ') +
                         value;
    };
    add(LlmAxis::Replicas, QString::number(knobs.replicas));
    add(LlmAxis::TensorParallel, QString::number(knobs.tensorParallel));
    add(LlmAxis::PowerCapW, llmNumber(knobs.powerCapW, 6));
    add(LlmAxis::GpuMemoryUtilization, llmNumber(knobs.gpuMemoryUtilization, 6));
    return parts.join(QStringLiteral(", "));
}

QString capacityNote(const analysis::LlmRegionResult& result, const analysis::LlmCapacity& c)
{
    QString note =
        QObject::tr("max_num_seqs %1, %2 %3: ")
            .arg(c.knobs.maxNumSeqs)
            .arg(QString::fromLatin1(analysis::llmTokenBudgetKnob(result.spec.scenario.engine)))
            .arg(c.knobs.maxNumBatchedTokens);
    note += c.capacityCell ? QObject::tr("%1 met").arg(llmNumber(c.knobs.load, 6))
                           : QObject::tr("fails even the lowest load");
    if (c.firstFailingCell)
        note += QObject::tr("; fails at %1 (%2)")
                    .arg(llmNumber(result.cells[*c.firstFailingCell].knobs.load, 6),
                         llmConstraintTitle(c.failingBinding));
    if (!c.note.empty())
        note += QStringLiteral("; ") + QString::fromStdString(c.note);
    return note;
}

/// Lines with the same capacities would hide each other: one line names them all
/// ("max_num_seqs 1, 16"). Empty lines are dropped.
std::vector<SeriesSpec> mergeEqualLines(std::vector<SeriesSpec> lines)
{
    std::vector<SeriesSpec> merged;
    for (auto& line : lines) {
        if (line.data.points.isEmpty())
            continue;
        const auto same = std::find_if(merged.begin(), merged.end(), [&](const SeriesSpec& m) {
            return m.data.points == line.data.points;
        });
        if (same == merged.end()) {
            merged.push_back(std::move(line));
            continue;
        }
        same->data.name += QStringLiteral(", ") + line.data.name.section(QLatin1Char(' '), -1);
        for (qsizetype i = 0; i < same->pointNotes.size(); ++i)
            same->pointNotes[i] += QStringLiteral("; ") + line.pointNotes.value(i);
    }
    return merged;
}

} // namespace

LlmRegionSlice defaultLlmSlice(const analysis::LlmRegionResult& result)
{
    if (const auto* cell = result.recommended())
        return cell->at;
    return {};
}

ChartContent llmCapacityChart(const analysis::LlmRegionResult& result, const LlmRegionSlice& slice)
{
    const auto& spec = result.spec;
    ChartContent content;
    content.title = QObject::tr("Capacity per configuration");
    if (const QString at = fixedAxesText(result, slice); !at.isEmpty())
        content.title += QObject::tr(" at %1").arg(at);
    content.xTitle =
        QObject::tr("%1 (tokens per step)")
            .arg(QString::fromLatin1(analysis::llmTokenBudgetKnob(spec.scenario.engine)));
    content.xUnit = QObject::tr("tokens");
    content.yTitle = loadTitle(spec);
    content.yUnit = spec.rateMultipliers.empty() ? QObject::tr("req/s") : QStringLiteral("×");
    content.yIncludesZero = true;
    content.emptyText = result.cells.empty() || result.capacity.empty()
                            ? QObject::tr("Capacity curves follow once every cell is computed")
                            : QString();
    const auto budgets =
        std::minmax_element(spec.maxNumBatchedTokens.begin(), spec.maxNumBatchedTokens.end());
    content.logX = budgets.first != budgets.second &&
                   double(*budgets.second) >= kLogBudgetSpan * double(*budgets.first);
    content.logXBase = 2.0;
    std::vector<SeriesSpec> lines(spec.maxNumSeqs.size());
    for (std::size_t s = 0; s < lines.size(); ++s) {
        lines[s].data.name = QObject::tr("max_num_seqs %1").arg(spec.maxNumSeqs[s]);
        lines[s].colour = neutralColour(int(s));
    }
    const auto& loads = spec.rateMultipliers.empty() ? spec.ratesPerS : spec.rateMultipliers;
    const double lowestLoad =
        loads.empty() ? std::nan("") : *std::min_element(loads.begin(), loads.end());
    SeriesSpec failing = scatter(QObject::tr("fails even the lowest load (%1 %2), drawn at 0")
                                     .arg(llmNumber(lowestLoad, 6), content.yUnit),
                                 kLimitColour, true);
    SeriesSpec nonMonotone = scatter(QObject::tr("non-monotone: met again above a failure"),
                                     qColour(figure::palette::kRecommended), true);
    for (const auto& c : result.capacity) {
        if (!inSlice(c.knobs, spec, slice))
            continue;
        const QString note = capacityNote(result, c);
        const double x = c.knobs.maxNumBatchedTokens;
        if (!c.capacityCell) {
            addPoint(failing, {x, 0.0}, note);
            continue;
        }
        const auto seqs =
            std::find(spec.maxNumSeqs.begin(), spec.maxNumSeqs.end(), c.knobs.maxNumSeqs) -
            spec.maxNumSeqs.begin();
        addPoint(lines[std::size_t(seqs)], {x, c.knobs.load}, note);
        if (c.nonMonotone)
            addPoint(nonMonotone, {x, c.knobs.load}, note);
    }
    // A capacity at the highest load means "at least this": the grid ends there.
    if (!loads.empty())
        content.references.append(
            {QObject::tr("highest load on the grid (%1 %2): capacity at least")
                 .arg(llmNumber(*std::max_element(loads.begin(), loads.end()), 6), content.yUnit),
             *std::max_element(loads.begin(), loads.end()), Qt::Horizontal, QColor(110, 110, 110)});
    for (const auto& line : mergeEqualLines(std::move(lines)))
        content.series.append(line);
    for (auto* extra : {&failing, &nonMonotone})
        if (!extra->data.points.isEmpty())
            content.series.append(*extra);
    return withSeriesAxisTitles(content);
}

ChartContent llmTokensTtftChart(const analysis::LlmRegionResult& result)
{
    ChartContent content;
    content.title = QObject::tr("Output tokens/s against TTFT p99");
    content.xTitle = QObject::tr("Output tokens/s (all replicas)");
    content.xUnit = QObject::tr("tokens/s");
    content.yTitle = QObject::tr("TTFT p99 (ms)");
    content.yUnit = QStringLiteral("ms");
    content.emptyText = QObject::tr("No judged cell to draw yet");
    SeriesSpec feasible = scatter(QObject::tr("feasible"), qColour(figure::palette::kFeasible));
    SeriesSpec infeasible = scatter(QObject::tr("infeasible"), qColour(figure::palette::kUnstable));
    // Drawn first and larger: a Pareto-optimal cell shows as a dark ring around its verdict.
    SeriesSpec pareto =
        scatter(QObject::tr("Pareto-optimal"), qColour(figure::palette::kParetoFront), true);
    SeriesSpec recommended =
        scatter(QObject::tr("recommended"), qColour(figure::palette::kRecommended), true);
    for (const auto& cell : result.cells) {
        const QPointF point{cell.metrics.outputTokensPerS.value, cell.metrics.ttftP99Ms.value};
        if (cell.pending || cell.status == LlmCellStatus::Refused || !std::isfinite(point.x()) ||
            !std::isfinite(point.y()))
            continue;
        QString note =
            llmKnobsText(result.spec, cell.knobs) + QStringLiteral(": ") + llmCellCategory(cell);
        if (!cell.confident)
            note += QObject::tr(" (not confident)");
        addPoint(cell.status == LlmCellStatus::Feasible ? feasible : infeasible, point, note);
        if (cell.pareto)
            addPoint(pareto, point, note);
        if (result.recommended() == &cell)
            addPoint(recommended, point, note);
    }
    // A queue that grows all run puts TTFT p99 far above the feasible cells: a logarithmic
    // axis keeps the cells near the limit apart.
    double lowMs = INFINITY, highMs = 0.0;
    for (const auto* series : {&feasible, &infeasible})
        for (const QPointF& point : series->data.points)
            if (point.y() > 0.0) {
                lowMs = std::min(lowMs, point.y());
                highMs = std::max(highMs, point.y());
            }
    content.logY = highMs >= kLogTtftSpan * lowMs;
    for (const auto* series : {&pareto, &feasible, &infeasible, &recommended})
        if (!series->data.points.isEmpty())
            content.series.append(*series);
    content.references.append(
        {QObject::tr("TTFT p99 limit %1 ms").arg(llmNumber(result.spec.limits.ttftP99Ms)),
         result.spec.limits.ttftP99Ms,
         Qt::Horizontal,
         kLimitColour,
         {},
         AcceptableSide::Below,
         QObject::tr("meets the TTFT limit")});
    return withSeriesAxisTitles(content);
}

} // namespace bs::widgets
