#include "charts/llmloadcharts.h"

#include "views/summarytable.h"

#include <QObject>

#include <cmath>
#include <optional>
#include <vector>

namespace bs::widgets {

namespace {

using analysis::LlmCellStatus;

QString intervalNote(const sim::Estimate& e, const QString& unit)
{
    if (!std::isfinite(e.ciLow) || !std::isfinite(e.ciHigh))
        return QObject::tr("%1 %2").arg(numberText(e.value), unit);
    return QObject::tr("%1 %2, 95% interval [%3, %4]")
        .arg(numberText(e.value), unit, numberText(e.ciLow), numberText(e.ciHigh));
}

QString statusNote(const analysis::LlmRegionCell& cell)
{
    if (cell.status == LlmCellStatus::Feasible)
        return QObject::tr("meets every limit");
    return QObject::tr("fails %1")
        .arg(QString::fromLatin1(analysis::llmConstraintName(cell.binding)));
}

SeriesSpec seriesOf(const ChartContent& chart, const QString& name, SeriesStyle style,
                    const QColor& colour)
{
    SeriesSpec spec;
    spec.data.name = name;
    spec.data.xTitle = chart.xTitle;
    spec.data.yTitle = chart.yTitle;
    spec.style = style;
    spec.colour = colour;
    return spec;
}

ChartContent emptyChart(const QString& title, const QString& why)
{
    ChartContent chart;
    chart.title = title;
    chart.emptyText = why.isEmpty() ? QObject::tr("Nothing simulated yet") : why;
    return chart;
}

/// Whether any simulated cell has this metric (a power model gives power and energy).
bool anyFinite(const analysis::LlmRegionResult& sweep,
               sim::Estimate analysis::LlmCellMetrics::*metric)
{
    for (const auto& cell : sweep.cells)
        if (cell.status != LlmCellStatus::Refused && std::isfinite((cell.metrics.*metric).value))
            return true;
    return false;
}

/// One metric of the sweep against the load, its intervals and verdicts in the tooltips.
ChartContent loadMetricChart(const analysis::LlmRegionResult* sweep, const QString& why,
                             const QString& title, const QString& yTitle, const QString& unit,
                             sim::Estimate analysis::LlmCellMetrics::*metric)
{
    if (!sweep || sweep->cells.empty())
        return emptyChart(title, why);
    if (!anyFinite(*sweep, metric))
        return emptyChart(title, QObject::tr("No power model: the scenario's step has no "
                                             "accelerator power (a roofline step has one)."));
    ChartContent chart;
    chart.title = title;
    chart.xTitle = llmLoadAxisTitle(sweep->spec);
    chart.yTitle = yTitle;
    chart.yUnit = unit;
    chart.yIncludesZero = true;
    SeriesSpec series =
        seriesOf(chart, QObject::tr("simulated"), SeriesStyle::Line, neutralColour(0));
    for (const auto& cell : sweep->cells) {
        if (cell.status == LlmCellStatus::Refused)
            continue;
        series.data.points << QPointF(cell.knobs.load, (cell.metrics.*metric).value);
        series.pointNotes << intervalNote(cell.metrics.*metric, unit) + QStringLiteral("; ") +
                                 statusNote(cell);
    }
    chart.series << series;
    return chart;
}

ReferenceLine limitLine(const QString& label, double value, const QColor& colour)
{
    ReferenceLine line;
    line.label = label;
    line.value = value;
    line.colour = colour;
    return line;
}

} // namespace

QString llmLoadAxisTitle(const analysis::LlmRegionSpec& spec)
{
    return spec.ratesPerS.empty() ? QObject::tr("Load (× the scenario's rate)")
                                  : QObject::tr("Offered rate (req/s)");
}

ChartContent llmLoadThroughputChart(const analysis::LlmRegionResult* sweep, const QString& why)
{
    const QString title = QObject::tr("Output tokens/s against load, with the knee");
    if (!sweep || sweep->cells.empty())
        return emptyChart(title, why);
    ChartContent chart;
    chart.title = title;
    chart.xTitle = llmLoadAxisTitle(sweep->spec);
    chart.yTitle = QObject::tr("Output tokens/s");
    chart.yUnit = QObject::tr("tokens/s");
    chart.yIncludesZero = true;
    SeriesSpec met = seriesOf(chart, QObject::tr("meets every limit"), SeriesStyle::Scatter,
                              QColor(30, 140, 60));
    SeriesSpec failed =
        seriesOf(chart, QObject::tr("fails a limit"), SeriesStyle::Scatter, QColor(200, 40, 40));
    SeriesSpec curve = seriesOf(chart, QObject::tr("simulated"), SeriesStyle::Line, QColor());
    for (const auto& cell : sweep->cells) {
        if (cell.status == LlmCellStatus::Refused)
            continue;
        const QPointF point(cell.knobs.load, cell.metrics.outputTokensPerS.value);
        const QString note = intervalNote(cell.metrics.outputTokensPerS, chart.yUnit) +
                             QStringLiteral("; ") + statusNote(cell);
        curve.data.points << point;
        curve.pointNotes << note;
        SeriesSpec& side = cell.status == LlmCellStatus::Feasible ? met : failed;
        side.data.points << point;
        side.pointNotes << note;
    }
    chart.series << curve;
    for (SeriesSpec* side : {&met, &failed})
        if (!side->data.points.isEmpty())
            chart.series << *side;
    if (!sweep->capacity.empty()) {
        const auto& capacity = sweep->capacity.front();
        if (capacity.capacityCell) {
            ReferenceLine knee;
            knee.label =
                QObject::tr("knee: highest load met, %1").arg(numberText(capacity.knobs.load));
            knee.value = capacity.knobs.load;
            knee.orientation = Qt::Vertical;
            knee.colour = QColor(90, 90, 90);
            knee.toolTip = QString::fromStdString(capacity.note);
            chart.references << knee;
        }
    }
    return chart;
}

ChartContent llmLoadLatencyChart(const analysis::LlmRegionResult* sweep, const QString& why)
{
    const bool extraLimits =
        sweep && (sweep->spec.limits.maxItlP99Ms || sweep->spec.limits.maxE2eP99Ms);
    const QString title = extraLimits ? QObject::tr("p99 latencies against load")
                                      : QObject::tr("TTFT and TPOT p99 against load");
    if (!sweep || sweep->cells.empty())
        return emptyChart(title, why);
    ChartContent chart;
    chart.title = title;
    chart.xTitle = llmLoadAxisTitle(sweep->spec);
    chart.yTitle = QObject::tr("p99 latency (ms)");
    chart.yUnit = QObject::tr("ms");
    chart.autoLogY = true;
    const auto& limits = sweep->spec.limits;
    // TTFT and TPOT always (they are required limits); ITL and E2E where the user set a limit
    // on them, so every line the cells are judged against has its curve.
    struct Latency
    {
        QString name;
        sim::Estimate analysis::LlmCellMetrics::*metric;
        std::optional<double> limit;
    };
    std::vector<Latency> latencies = {
        {QObject::tr("TTFT p99"), &analysis::LlmCellMetrics::ttftP99Ms, limits.ttftP99Ms},
        {QObject::tr("TPOT p99"), &analysis::LlmCellMetrics::tpotP99Ms, limits.tpotP99Ms}};
    if (limits.maxItlP99Ms)
        latencies.push_back(
            {QObject::tr("ITL p99"), &analysis::LlmCellMetrics::itlP99Ms, limits.maxItlP99Ms});
    if (limits.maxE2eP99Ms)
        latencies.push_back(
            {QObject::tr("E2E p99"), &analysis::LlmCellMetrics::e2eP99Ms, limits.maxE2eP99Ms});
    for (std::size_t i = 0; i < latencies.size(); ++i) {
        const Latency& latency = latencies[i];
        SeriesSpec series = seriesOf(chart, latency.name, SeriesStyle::Line, neutralColour(int(i)));
        for (const auto& cell : sweep->cells) {
            if (cell.status == LlmCellStatus::Refused)
                continue;
            const sim::Estimate& e = cell.metrics.*latency.metric;
            series.data.points << QPointF(cell.knobs.load, e.value);
            series.pointNotes << intervalNote(e, chart.yUnit);
        }
        chart.series << series;
        ReferenceLine line;
        line.label = QObject::tr("%1 limit").arg(latency.name);
        line.value = *latency.limit;
        line.colour = neutralColour(int(i));
        chart.references << line;
    }
    return chart;
}

ChartContent llmLoadEnergyChart(const analysis::LlmRegionResult* sweep, const QString& why)
{
    ChartContent chart =
        loadMetricChart(sweep, why, QObject::tr("Energy per output token against load"),
                        QObject::tr("Energy per output token (J)"), QObject::tr("J"),
                        &analysis::LlmCellMetrics::energyPerOutputTokenJ);
    if (!chart.series.isEmpty() && sweep->spec.limits.maxEnergyPerOutputTokenJ)
        chart.references << limitLine(QObject::tr("energy limit"),
                                      *sweep->spec.limits.maxEnergyPerOutputTokenJ,
                                      QColor(200, 40, 40));
    return chart;
}

ChartContent llmLoadPowerChart(const analysis::LlmRegionResult* sweep, const QString& why)
{
    ChartContent chart = loadMetricChart(sweep, why, QObject::tr("Power per GPU against load"),
                                         QObject::tr("Mean board power per GPU (W)"),
                                         QObject::tr("W"), &analysis::LlmCellMetrics::powerPerGpuW);
    if (chart.series.isEmpty())
        return chart;
    if (const auto& cap = sweep->spec.scenario.step.powerCapW)
        chart.references << limitLine(QObject::tr("power cap %1 W").arg(numberText(*cap)), *cap,
                                      QColor(90, 90, 90));
    // A limit equal to the cap is one line (the cap holds the GPU there), not two labels.
    const auto& limit = sweep->spec.limits.maxPowerPerGpuW;
    if (limit && limit != sweep->spec.scenario.step.powerCapW)
        chart.references << limitLine(QObject::tr("power limit"), *limit, QColor(200, 40, 40));
    return chart;
}

} // namespace bs::widgets
