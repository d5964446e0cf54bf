#include "charts/validationcharts.h"

#include <QObject>

#include <functional>
#include <map>

namespace bs::widgets {

namespace {

using RowValue = std::function<double(const analysis::PerfAnalyzerRowCheck&)>;

ChartContent baseContent(const QString& title, const QString& yTitle, const QString& yUnit)
{
    ChartContent content;
    content.title = title;
    content.xTitle = QObject::tr("Concurrency (requests in flight)");
    content.yTitle = yTitle;
    content.xUnit = QObject::tr("in flight");
    content.yUnit = yUnit;
    content.logX = true;
    content.logXBase = 2.0;
    content.yIncludesZero = true;
    content.emptyText = QObject::tr("No prediction yet.");
    return content;
}

/// The rows of each run (series label) in their order.
std::map<std::string, std::vector<const analysis::PerfAnalyzerRowCheck*>>
rowsBySeries(const analysis::PerfAnalyzerValidation& validation)
{
    std::map<std::string, std::vector<const analysis::PerfAnalyzerRowCheck*>> out;
    for (const auto& row : validation.rows)
        out[row.series].push_back(&row);
    return out;
}

/// One measured and one predicted line per run for `what` ("p99"), in the run's colour.
void addPair(ChartContent& content, const analysis::PerfAnalyzerValidation& validation,
             const QString& what, const RowValue& measured, const RowValue& predicted,
             int colourOffset)
{
    int index = colourOffset;
    for (const auto& [series, rows] : rowsBySeries(validation)) {
        const QString run =
            series.empty() ? QString() : QString::fromStdString(series) + QLatin1Char(' ');
        SeriesSpec m, p;
        m.data.name = QObject::tr("%1%2 measured").arg(run, what);
        p.data.name = QObject::tr("%1%2 predicted").arg(run, what);
        m.style = SeriesStyle::Line;
        p.style = SeriesStyle::Dashed;
        m.colour = p.colour = neutralColour(index++);
        for (const auto* row : rows) {
            m.data.points.append(QPointF(row->concurrency, measured(*row)));
            p.data.points.append(QPointF(row->concurrency, predicted(*row)));
            const auto r = row->residuals();
            p.pointNotes << QObject::tr("batch %1; error %2% (throughput), %3% (p50), %4% (p99)")
                                .arg(row->batchItems)
                                .arg(r.throughput * 100.0, 0, 'f', 1)
                                .arg(r.p50 * 100.0, 0, 'f', 1)
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
    ChartContent content =
        baseContent(QObject::tr("Throughput: measured and predicted"),
                    QObject::tr("Throughput (inferences/s)"), QObject::tr("inf/s"));
    addPair(
        content, validation, QObject::tr("throughput"),
        [](const auto& row) { return row.measuredItemsPerS; },
        [](const auto& row) { return row.predictedItemsPerS; }, 0);
    return content;
}

ChartContent validationLatencyChart(const analysis::PerfAnalyzerValidation& validation)
{
    ChartContent content = baseContent(QObject::tr("Latency: measured and predicted"),
                                       QObject::tr("Latency (ms)"), QObject::tr("ms"));
    content.autoLogY = true;
    addPair(
        content, validation, QObject::tr("p50"),
        [](const auto& row) { return row.measuredP50S * 1e3; },
        [](const auto& row) { return row.predictedP50S * 1e3; }, 0);
    addPair(
        content, validation, QObject::tr("p99"),
        [](const auto& row) { return row.measuredP99S * 1e3; },
        [](const auto& row) { return row.predictedP99S * 1e3; }, 3);
    return content;
}

} // namespace bs::widgets
