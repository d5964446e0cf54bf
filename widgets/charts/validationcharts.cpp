#include "charts/validationcharts.h"

#include <QObject>

#include <functional>
#include <map>
#include <set>

namespace bs::widgets {

namespace {

using RowValue = std::function<double(const analysis::PerfAnalyzerRowCheck&)>;

bool byRequestRate(const analysis::PerfAnalyzerValidation& validation)
{
    return !validation.rows.empty() && validation.rows.front().concurrency == 0;
}

/// The row's load on the x axis: its clients, or its request rate for a request-rate sweep.
double loadOf(const analysis::PerfAnalyzerRowCheck& row)
{
    return row.concurrency > 0 ? double(row.concurrency) : row.requestRatePerS;
}

ChartContent baseContent(const analysis::PerfAnalyzerValidation& validation, const QString& title,
                         const QString& yTitle, const QString& yUnit)
{
    ChartContent content;
    content.title = title;
    const bool rate = byRequestRate(validation);
    content.xTitle = rate ? QObject::tr("Request rate (requests/s)")
                          : QObject::tr("Concurrency (requests in flight)");
    content.yTitle = yTitle;
    content.xUnit = rate ? QObject::tr("req/s") : QObject::tr("in flight");
    content.yUnit = yUnit;
    content.logX = true;
    content.logXBase = 2.0;
    content.yIncludesZero = true;
    content.emptyText = QObject::tr("No prediction yet.");
    return content;
}

/// The rows of each curve in their order: one per run (series label), and per batch size
/// where a run measured several (a Model Analyzer configuration at batch 1 and 2).
std::map<std::string, std::vector<const analysis::PerfAnalyzerRowCheck*>>
rowsBySeries(const analysis::PerfAnalyzerValidation& validation)
{
    std::map<std::string, std::set<int>> batches;
    for (const auto& row : validation.rows)
        batches[row.series].insert(row.batchItems);
    std::map<std::string, std::vector<const analysis::PerfAnalyzerRowCheck*>> out;
    for (const auto& row : validation.rows) {
        std::string curve = row.series;
        if (batches[row.series].size() > 1)
            curve += (curve.empty() ? "" : " ") + std::string("b") + std::to_string(row.batchItems);
        out[curve].push_back(&row);
    }
    return out;
}

/// Curves beyond which the legend lists each curve once (its measured line) and the title
/// says which line is which: a Model Analyzer checkpoint has a curve per configuration and
/// batch size, and a legend of every line would leave no room to plot.
constexpr std::size_t kCurvesWithFullLegend = 4;

bool compactLegend(const analysis::PerfAnalyzerValidation& validation)
{
    return rowsBySeries(validation).size() > kCurvesWithFullLegend;
}

/// The chart's title, saying which line is which when the legend does not.
QString titleFor(const QString& title, const analysis::PerfAnalyzerValidation& validation,
                 const QString& more = {})
{
    return compactLegend(validation)
               ? title + QObject::tr(" (solid: measured, dashed: predicted%1)").arg(more)
               : title;
}

/// One measured and one predicted line per curve for `what` ("p99"), in the curve's colour.
/// With a compact legend only the measured line is listed, by the curve's name, and not at
/// all when `listed` is false (a second statistic drawn in the same colours).
void addPair(ChartContent& content, const analysis::PerfAnalyzerValidation& validation,
             const QString& what, const RowValue& measured, const RowValue& predicted,
             int colourOffset, bool listed = true)
{
    const bool compact = compactLegend(validation);
    int index = compact ? 0 : colourOffset;
    for (const auto& [series, rows] : rowsBySeries(validation)) {
        const QString run =
            series.empty() ? QString() : QString::fromStdString(series) + QLatin1Char(' ');
        SeriesSpec m, p;
        m.data.name = compact ? run.trimmed() : QObject::tr("%1%2 measured").arg(run, what);
        p.data.name = QObject::tr("%1%2 predicted").arg(run, what);
        m.inLegend = !compact || listed;
        p.inLegend = !compact;
        m.style = SeriesStyle::Line;
        p.style = SeriesStyle::Dashed;
        m.colour = p.colour = neutralColour(index++);
        for (const auto* row : rows) {
            m.data.points.append(QPointF(loadOf(*row), measured(*row)));
            p.data.points.append(QPointF(loadOf(*row), predicted(*row)));
            const auto r = row->residuals();
            p.pointNotes << QObject::tr("batch %1; error %2% (throughput), %3% (%4), %5% (p99)")
                                .arg(row->batchItems)
                                .arg(r.throughput * 100.0, 0, 'f', 1)
                                .arg(r.central * 100.0, 0, 'f', 1)
                                .arg(QString::fromLatin1(row->centralName()))
                                .arg(r.p99 * 100.0, 0, 'f', 1);
        }
        for (SeriesSpec* spec : {&m, &p}) {
            spec->data.xTitle = content.xTitle;
            spec->data.yTitle = content.yTitle;
        }
        content.series << m << p;
    }
}

} // namespace

ChartContent validationThroughputChart(const analysis::PerfAnalyzerValidation& validation)
{
    ChartContent content = baseContent(
        validation, titleFor(QObject::tr("Throughput: measured and predicted"), validation),
        QObject::tr("Throughput (inferences/s)"), QObject::tr("inf/s"));
    addPair(
        content, validation, QObject::tr("throughput"),
        [](const auto& row) { return row.measuredItemsPerS; },
        [](const auto& row) { return row.predictedItemsPerS; }, 0);
    return content;
}

ChartContent validationLatencyChart(const analysis::PerfAnalyzerValidation& validation)
{
    ChartContent content =
        baseContent(validation,
                    titleFor(QObject::tr("Latency: measured and predicted"), validation,
                             QObject::tr("; the upper line of a colour is p99")),
                    QObject::tr("Latency (ms)"), QObject::tr("ms"));
    content.autoLogY = true;
    const bool mean = !validation.rows.empty() && validation.rows.front().centralIsMean;
    addPair(
        content, validation, mean ? QObject::tr("mean") : QObject::tr("p50"),
        [](const auto& row) { return row.measuredCentralS * 1e3; },
        [](const auto& row) { return row.predictedCentralS * 1e3; }, 0);
    addPair(
        content, validation, QObject::tr("p99"),
        [](const auto& row) { return row.measuredP99S * 1e3; },
        [](const auto& row) { return row.predictedP99S * 1e3; }, 3, false);
    return content;
}

} // namespace bs::widgets
