#include "charts/llmreplaycharts.h"

#include "charts/chartparts.h"
#include "util/decimate.h"

#include <QObject>

#include <algorithm>
#include <functional>
#include <limits>

namespace bs::widgets {

namespace {

/// A step series stays drawable: at most about this many points per curve (min/max per
/// column keeps its peaks), whatever the number of engine steps.
constexpr std::size_t kStepColumns = 1200;

analysis::Distribution describe(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return analysis::describeSorted(values);
}

ChartContent emptyWhenNoReplay(ChartContent content, const llmsim::RunReplay* replay,
                               const QString& why)
{
    if (!replay)
        content.emptyText = why;
    return content;
}

using StepValue = std::function<double(const llmsim::StepRecord&)>;

/// One value of every engine step against the step's start, decimated for drawing.
QList<QPointF> overSteps(const llmsim::RunReplay& replay, const StepValue& value)
{
    const auto& steps = replay.result.steps;
    std::vector<double> x, y;
    x.reserve(steps.size());
    y.reserve(steps.size());
    for (const auto& step : steps) {
        x.push_back(step.startS);
        y.push_back(value(step));
    }
    QList<QPointF> points;
    if (x.empty())
        return points;
    for (const XYPoint& point : decimateMinMax(x, y, kStepColumns))
        points.append({point.x, point.y});
    return points;
}

ChartContent stepChart(const QString& title, const QString& yTitle, const QString& yUnit)
{
    ChartContent content;
    content.title = title;
    content.xTitle = QObject::tr("Simulated time (s)");
    content.xUnit = QStringLiteral("s");
    content.yTitle = yTitle;
    content.yUnit = yUnit;
    content.yIncludesZero = true;
    return content;
}

void widenRange(const SeriesSpec& spec, double& lowMs, double& highMs)
{
    for (const QPointF& point : spec.data.points)
        if (point.x() > 0.0) {
            lowMs = std::min(lowMs, point.x());
            highMs = std::max(highMs, point.x());
        }
}

/// An empty CDF chart over latencies in milliseconds, saying `why` until series arrive.
ChartContent cdfChart(const QString& title, const QString& xTitle, const QString& yTitle,
                      const QString& why)
{
    ChartContent content;
    content.title = title;
    content.xTitle = xTitle;
    content.yTitle = yTitle;
    content.xUnit = QStringLiteral("ms");
    content.emptyText = why;
    return content;
}

/// Log x when the drawn latencies span a decade or more (TPOT of tens of ms beside TTFT of
/// seconds would squeeze TPOT against zero).
void logXWhenWide(ChartContent& content, double lowMs, double highMs)
{
    constexpr double kDecade = 10.0;
    content.logX = highMs >= kDecade * lowMs;
}

/// The simulated gaps' CDF as a step series, in milliseconds.
SeriesSpec simulatedItlSeries(const llmsim::LlmResult& result, const QColor& colour)
{
    std::vector<double> valuesS, probability;
    result.itlGaps.cdf(valuesS, probability);
    SeriesSpec spec;
    spec.data.name = QObject::tr("ITL simulated");
    spec.style = SeriesStyle::Dashed;
    spec.colour = colour;
    spec.toolTip = QObject::tr("Every gap between two tokens of a simulated request");
    for (std::size_t i = 0; i < valuesS.size(); ++i)
        spec.data.points.append({valuesS[i] * kMsPerS, probability[i]});
    return spec;
}

} // namespace

analysis::Distribution simulatedTtft(const llmsim::RunReplay& replay)
{
    std::vector<double> values;
    for (const auto& request : replay.result.requests)
        values.push_back(request.ttftS);
    return describe(std::move(values));
}

analysis::Distribution simulatedTpot(const llmsim::RunReplay& replay)
{
    std::vector<double> values;
    for (const auto& request : replay.result.requests)
        if (request.outputTokens > 1)
            values.push_back(request.tpotS);
    return describe(std::move(values));
}

ChartContent llmReplayCdfChart(const analysis::LlmRunAnalysis& measured,
                               const llmsim::RunReplay* replay, const QString& why)
{
    ChartContent content =
        cdfChart(QObject::tr("TTFT and TPOT: measured vs simulated"), QObject::tr("Latency (ms)"),
                 QObject::tr("Fraction of requests ≤ x"), why);
    if (!replay)
        return content;
    const analysis::Distribution simulated[] = {simulatedTtft(*replay), simulatedTpot(*replay)};
    const analysis::Distribution* measuredOf[] = {&measured.ttft, &measured.tpot};
    const QString names[] = {QStringLiteral("TTFT"), QStringLiteral("TPOT")};
    double lowMs = std::numeric_limits<double>::infinity(), highMs = 0.0;
    for (int i = 0; i < 2; ++i) {
        const QColor colour = neutralColour(i);
        if (measuredOf[i]->count > 0) {
            SeriesSpec spec =
                cdfSeriesMs(QObject::tr("%1 measured").arg(names[i]), *measuredOf[i], colour);
            spec.toolTip = QObject::tr("From the run's per-request records");
            widenRange(spec, lowMs, highMs);
            content.series.append(spec);
        }
        if (simulated[i].count > 0) {
            SeriesSpec spec =
                cdfSeriesMs(QObject::tr("%1 simulated").arg(names[i]), simulated[i], colour);
            spec.style = SeriesStyle::Dashed;
            spec.toolTip = QObject::tr("The run's requests replayed in the simulator");
            widenRange(spec, lowMs, highMs);
            content.series.append(spec);
        }
    }
    logXWhenWide(content, lowMs, highMs);
    return withSeriesAxisTitles(content);
}

ChartContent llmItlCdfChart(const analysis::LlmRunAnalysis& measured,
                            const llmsim::RunReplay* replay, const QString& why)
{
    ChartContent content = cdfChart(QObject::tr("Inter-token latency: measured vs simulated"),
                                    QObject::tr("Gap between two tokens (ms)"),
                                    QObject::tr("Fraction of gaps ≤ x"), why);
    if (!replay)
        return content;
    const QColor colour = neutralColour(2);
    double lowMs = std::numeric_limits<double>::infinity(), highMs = 0.0;
    if (measured.itl.count > 0) {
        SeriesSpec spec = cdfSeriesMs(QObject::tr("ITL measured"), measured.itl, colour);
        spec.toolTip = QObject::tr("Every gap between two tokens the run recorded");
        widenRange(spec, lowMs, highMs);
        content.series.append(spec);
    }
    SeriesSpec simulated = simulatedItlSeries(replay->result, colour);
    if (!simulated.data.points.isEmpty()) {
        widenRange(simulated, lowMs, highMs);
        content.series.append(simulated);
    }
    content.emptyText = QObject::tr("No request produced a second token");
    logXWhenWide(content, lowMs, highMs);
    return withSeriesAxisTitles(content);
}

ChartContent llmReplayQueueChart(const llmsim::RunReplay* replay, const QString& why)
{
    ChartContent content =
        emptyWhenNoReplay(stepChart(QObject::tr("Simulated engine: running and waiting"),
                                    QObject::tr("Requests"), QObject::tr("requests")),
                          replay, why);
    if (!replay)
        return content;
    content.series.append(lineSeries(
        QObject::tr("Running"),
        overSteps(*replay, [](const llmsim::StepRecord& s) { return double(s.running); }),
        neutralColour(0), SeriesStyle::Step));
    content.series.append(lineSeries(
        QObject::tr("Waiting"),
        overSteps(*replay, [](const llmsim::StepRecord& s) { return double(s.waiting); }),
        neutralColour(1), SeriesStyle::Step));
    content.emptyText = QObject::tr("The replay ran no engine step");
    return withSeriesAxisTitles(content);
}

ChartContent llmReplayPreemptionChart(const llmsim::RunReplay* replay, const QString& why)
{
    ChartContent content =
        emptyWhenNoReplay(stepChart(QObject::tr("Simulated preemptions (KV cache full)"),
                                    QObject::tr("Preemptions so far"), QObject::tr("preemptions")),
                          replay, why);
    if (!replay)
        return content;
    double preemptions = 0.0;
    content.series.append(lineSeries(QObject::tr("Preemptions so far"),
                                     overSteps(*replay,
                                               [&preemptions](const llmsim::StepRecord& s) {
                                                   return preemptions += s.preempted;
                                               }),
                                     neutralColour(3), SeriesStyle::Step));
    content.emptyText = QObject::tr("The replay ran no engine step");
    return withSeriesAxisTitles(content);
}

ChartContent llmReplayKvChart(const llmsim::RunReplay* replay, const QString& why)
{
    ChartContent content =
        emptyWhenNoReplay(stepChart(QObject::tr("Simulated KV cache use"),
                                    QObject::tr("KV blocks in use (%)"), QStringLiteral("%")),
                          replay, why);
    if (!replay)
        return content;
    const double blocks = double(replay->scenario.engine.numGpuBlocks);
    content.series.append(lineSeries(QObject::tr("KV use"),
                                     overSteps(*replay,
                                               [blocks](const llmsim::StepRecord& s) {
                                                   return 100.0 * double(s.kvBlocksUsed) / blocks;
                                               }),
                                     neutralColour(2), SeriesStyle::Step));
    content.emptyText = QObject::tr("The replay ran no engine step");
    return withSeriesAxisTitles(content);
}

} // namespace bs::widgets
