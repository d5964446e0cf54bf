#include "charts/sweepcharts.h"

#include "figure/palette.h"

#include <QObject>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace bs::widgets {

namespace {

using Metric = std::function<std::optional<double>(const data::SweepPoint&)>;

std::optional<double> xValue(const data::SweepPoint& p, SweepXAxis axis)
{
    switch (axis) {
    case SweepXAxis::BatchSize:
        return double(p.batchSize);
    case SweepXAxis::Concurrency:
        return p.concurrency;
    case SweepXAxis::RequestRate:
        return p.requestRatePerS;
    }
    return std::nullopt;
}

QString xTitle(SweepXAxis axis)
{
    switch (axis) {
    case SweepXAxis::BatchSize:
        return QObject::tr("Batch size (items)");
    case SweepXAxis::Concurrency:
        return QObject::tr("Concurrency (requests in flight)");
    case SweepXAxis::RequestRate:
        return QObject::tr("Offered load (requests/s)");
    }
    return {};
}

QString xUnit(SweepXAxis axis)
{
    switch (axis) {
    case SweepXAxis::BatchSize:
        return QObject::tr("items");
    case SweepXAxis::Concurrency:
        return QObject::tr("in flight");
    case SweepXAxis::RequestRate:
        return QObject::tr("req/s");
    }
    return {};
}

QColor colourFor(const SweepInput& sweep, int index)
{
    if (sweep.role == data::DatasetRole::Baseline)
        return baselineColour();
    if (sweep.role == data::DatasetRole::Candidate)
        return candidateColour();
    return neutralColour(index + 2);
}

/// The rows of one series of a sweep (a perf_analyzer run, a Model Analyzer config).
struct SeriesRows
{
    std::string series; ///< SweepPoint::series; empty for a file with one run.
    std::vector<std::size_t> rows;
};

/// The table's series in the order they first appear, each with its rows in file order.
std::vector<SeriesRows> splitSeries(const data::SweepTable& table)
{
    std::vector<SeriesRows> out;
    std::map<std::string, std::size_t> position;
    for (std::size_t i = 0; i < table.points.size(); ++i) {
        const auto [it, added] = position.try_emplace(table.points[i].series, out.size());
        if (added)
            out.push_back({table.points[i].series, {}});
        out[it->second].rows.push_back(i);
    }
    return out;
}

/// Later series (runs) of a sweep: the sweep's colour, darker for each further run, so a
/// role keeps its hue and the runs stay apart.
QColor seriesColour(const QColor& sweepColour, std::size_t seriesIndex)
{
    return seriesIndex == 0 ? sweepColour : sweepColour.darker(100 + 30 * int(seriesIndex % 5));
}

/// Points of one metric over the given rows, sorted by x; rows without x or without the
/// metric are left out, as are non-positive x on a log axis.
QList<QPointF> metricPoints(const data::SweepTable& table, const std::vector<std::size_t>& rows,
                            const SweepChartOptions& options, const Metric& metric, double scale)
{
    QList<QPointF> points;
    for (std::size_t row : rows) {
        const auto& p = table.points[row];
        const auto x = xValue(p, options.xAxis);
        const auto y = metric(p);
        if (!x || !y || (options.logX && *x <= 0))
            continue;
        points.append(QPointF(*x, *y * scale));
    }
    std::stable_sort(points.begin(), points.end(),
                     [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    return points;
}

ChartContent baseContent(const QString& title, const QString& yTitle, const QString& yUnit,
                         const SweepChartOptions& options)
{
    ChartContent content;
    content.title = title;
    content.xTitle = xTitle(options.xAxis);
    content.yTitle = yTitle;
    content.xUnit = xUnit(options.xAxis);
    content.yUnit = yUnit;
    content.logX = options.logX;
    content.logY = options.logY;
    content.logXBase = options.xAxis == SweepXAxis::BatchSize ? 2.0 : 10.0;
    content.yIncludesZero = !options.logY;
    content.emptyText = QObject::tr("No sweep with this metric is loaded.\nImport a perf_analyzer, "
                                    "Model Analyzer, MLPerf or CSV sweep (File ▸ Import…).");
    return content;
}

void addMeasured(ChartContent& content, const QList<SweepInput>& sweeps,
                 const SweepChartOptions& options, const Metric& metric, double scale,
                 const QString& suffix, SeriesStyle style, bool inLegend = true)
{
    for (int i = 0; i < sweeps.size(); ++i) {
        if (!sweeps[i].table)
            continue;
        // One line per run (perf_analyzer runs in one file, Model Analyzer configs): joining
        // separate measurements would draw a zig-zag through them.
        const auto groups = splitSeries(*sweeps[i].table);
        for (std::size_t g = 0; g < groups.size(); ++g) {
            QString name = sweeps[i].name;
            if (!groups[g].series.empty())
                name += QStringLiteral(" · ") + QString::fromStdString(groups[g].series);
            if (!suffix.isEmpty())
                name += QLatin1Char(' ') + suffix;
            SeriesSpec spec;
            spec.data.name = name;
            spec.data.xTitle = content.xTitle;
            spec.data.yTitle = content.yTitle;
            spec.data.points =
                metricPoints(*sweeps[i].table, groups[g].rows, options, metric, scale);
            spec.style = style;
            spec.colour = seriesColour(colourFor(sweeps[i], i), g);
            spec.inLegend = inLegend;
            if (!spec.data.points.isEmpty())
                content.series.append(spec);
        }
    }
}

void addOverlays(ChartContent& content, const QList<SweepOverlay>& overlays,
                 QList<QPointF> SweepOverlay::*member, const SweepChartOptions& options)
{
    // Model and simulation overlays are functions of batch size only.
    if (options.xAxis != SweepXAxis::BatchSize)
        return;
    for (int i = 0; i < overlays.size(); ++i) {
        const QList<QPointF>& points = overlays[i].*member;
        if (points.isEmpty())
            continue;
        SeriesSpec spec;
        spec.data.name = overlays[i].name;
        spec.data.xTitle = content.xTitle;
        spec.data.yTitle = content.yTitle;
        spec.data.points = points;
        spec.style = SeriesStyle::Dashed;
        // Overlays take colours no dataset role uses (sky blue, green, purple...).
        static const int kOverlayColours[] = {4, 2, 3, 6};
        spec.colour = neutralColour(kOverlayColours[i % 4]);
        content.series.append(spec);
    }
}

/// The recommended point's x on the chosen axis, or nothing (concurrency is not a policy knob).
std::optional<double> recommendationX(const SweepRecommendation& r, SweepXAxis axis)
{
    switch (axis) {
    case SweepXAxis::BatchSize:
        return r.maxBatch;
    case SweepXAxis::RequestRate:
        return r.offeredRatePerServerPerS;
    case SweepXAxis::Concurrency:
        break;
    }
    return std::nullopt;
}

/// The Region view's recommended operating point as the large outlined marker, the same one the
/// region charts and the report draw; its tooltip names the policy.
void addRecommendation(ChartContent& content, const SweepChartOptions& options,
                       std::optional<double> y)
{
    if (!options.recommendation || !y)
        return;
    const auto x = recommendationX(*options.recommendation, options.xAxis);
    if (!x || (options.logX && *x <= 0))
        return;
    SeriesSpec star;
    star.data.name = QObject::tr("Recommended");
    star.data.xTitle = content.xTitle;
    star.data.yTitle = content.yTitle;
    star.data.points.append(QPointF(*x, *y));
    star.style = SeriesStyle::Scatter;
    const auto colour = figure::palette::kRecommended;
    star.colour = QColor(colour.red, colour.green, colour.blue);
    star.emphasised = true;
    star.pointNotes << sweepRecommendationText(*options.recommendation);
    star.toolTip = QObject::tr("The Region tab's recommended policy at its offered load");
    content.series.append(star);
}

} // namespace

std::optional<double> energyPerInferenceJ(const data::SweepPoint& p)
{
    if (p.energyPerInferenceJ)
        return p.energyPerInferenceJ;
    if (p.powerW && p.throughputPerS && *p.throughputPerS > 0)
        return *p.powerW / *p.throughputPerS;
    return std::nullopt;
}

SweepXAxis suggestedXAxis(const QList<SweepInput>& sweeps)
{
    std::optional<int> firstBatch;
    bool anyConcurrency = false, anyRate = false;
    for (const SweepInput& sweep : sweeps) {
        if (!sweep.table)
            continue;
        for (const auto& p : sweep.table->points) {
            if (firstBatch && *firstBatch != p.batchSize)
                return SweepXAxis::BatchSize;
            firstBatch = p.batchSize;
            anyConcurrency = anyConcurrency || p.concurrency.has_value();
            anyRate = anyRate || p.requestRatePerS.has_value();
        }
    }
    if (anyConcurrency)
        return SweepXAxis::Concurrency;
    if (anyRate)
        return SweepXAxis::RequestRate;
    return SweepXAxis::BatchSize;
}

ChartContent sweepThroughputChart(const QList<SweepInput>& sweeps,
                                  const QList<SweepOverlay>& overlays,
                                  const SweepChartOptions& options)
{
    ChartContent content =
        baseContent(QObject::tr("Throughput"), QObject::tr("Throughput (inferences/s)"),
                    QObject::tr("inf/s"), options);
    addMeasured(
        content, sweeps, options, [](const data::SweepPoint& p) { return p.throughputPerS; }, 1.0,
        {}, SeriesStyle::Line);
    addOverlays(content, overlays, &SweepOverlay::throughputPerS, options);
    if (options.recommendation)
        addRecommendation(content, options, options.recommendation->throughputPerServerPerS);
    return content;
}

ChartContent sweepLatencyChart(const QList<SweepInput>& sweeps, const QList<SweepOverlay>& overlays,
                               const SweepChartOptions& options)
{
    ChartContent content = baseContent(QObject::tr("Latency p99 (solid) and p50 (dashed)"),
                                       QObject::tr("Latency (ms)"), QObject::tr("ms"), options);
    content.autoLogY = !options.logY;
    addMeasured(
        content, sweeps, options, [](const data::SweepPoint& p) { return p.latencyP99S; }, 1e3,
        QObject::tr("p99"), SeriesStyle::Line);
    addMeasured(
        content, sweeps, options, [](const data::SweepPoint& p) { return p.latencyP50S; }, 1e3,
        QObject::tr("p50"), SeriesStyle::Dashed, /*inLegend=*/false);
    addOverlays(content, overlays, &SweepOverlay::latencyP99Ms, options);
    if (options.recommendation)
        addRecommendation(content, options, options.recommendation->p99Ms);
    if (options.slaP99Ms)
        content.references.append({QObject::tr("SLA p99"), *options.slaP99Ms, Qt::Horizontal,
                                   QColor(200, 40, 40),
                                   QObject::tr("Latencies in the shaded band meet the SLA"),
                                   AcceptableSide::Below, QObject::tr("meets SLA p99")});
    return content;
}

ChartContent sweepEnergyChart(const QList<SweepInput>& sweeps, const QList<SweepOverlay>& overlays,
                              const SweepChartOptions& options)
{
    ChartContent content =
        baseContent(QObject::tr("Energy per inference"), QObject::tr("Energy per inference (mJ)"),
                    QObject::tr("mJ"), options);
    addMeasured(content, sweeps, options, &energyPerInferenceJ, 1e3, {}, SeriesStyle::Line);
    addOverlays(content, overlays, &SweepOverlay::energyPerInferenceMj, options);
    if (options.recommendation)
        addRecommendation(content, options, options.recommendation->energyPerInferenceMj);
    return content;
}

ChartContent sweepPowerChart(const QList<SweepInput>& sweeps, const QList<SweepOverlay>& overlays,
                             const SweepChartOptions& options)
{
    ChartContent content = baseContent(QObject::tr("Average power"), QObject::tr("Power (W)"),
                                       QObject::tr("W"), options);
    addMeasured(
        content, sweeps, options, [](const data::SweepPoint& p) { return p.powerW; }, 1.0, {},
        SeriesStyle::Line);
    addOverlays(content, overlays, &SweepOverlay::powerW, options);
    if (options.recommendation)
        addRecommendation(content, options, options.recommendation->powerPerServerW);
    if (options.powerCapW)
        content.references.append(
            {QObject::tr("Power cap"), *options.powerCapW, Qt::Horizontal, QColor(200, 40, 40)});
    return content;
}

} // namespace bs::widgets
