#include "charts/llmruncharts.h"

#include "charts/chartparts.h"
#include "models/displaytext.h"

#include <QLocale>
#include <QObject>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <tuple>

namespace bs::widgets {

namespace {

QString figure(double value)
{
    return QLocale().toString(value, 'g', 4);
}

const std::string* knob(const data::LlmRun& run, const char* name)
{
    const auto found = run.knobs.find(name);
    return found != run.knobs.end() && !found->second.empty() ? &found->second : nullptr;
}

/// vLLM writes "request_rate": "inf" for an unlimited rate; the reader keeps it as a knob.
bool unlimitedRate(const data::LlmRun& run)
{
    const auto* rate = knob(run, "request_rate");
    return !run.requestRatePerS && rate && *rate == "inf";
}

/// The dataset a run's prompts came from, when the tool names it ("random", "sharegpt"): runs
/// of different datasets are different curves.
QString datasetOf(const data::LlmRun& run)
{
    const auto* name = knob(run, "dataset_name");
    return name ? displayText(*name) : QString();
}

std::optional<double> sweepX(const data::LlmRun& run, LlmSweepAxis axis)
{
    switch (axis) {
    case LlmSweepAxis::RequestRate:
        return run.requestRatePerS;
    case LlmSweepAxis::Concurrency:
        return run.maxConcurrency;
    case LlmSweepAxis::None:
        break;
    }
    return std::nullopt;
}

QString sweepXTitle(LlmSweepAxis axis)
{
    return axis == LlmSweepAxis::Concurrency ? QObject::tr("Concurrency limit (requests)")
                                             : QObject::tr("Request rate (req/s)");
}

/// One curve of a sweep chart: the runs of one dataset, sorted by x, each point's run named in
/// its tooltip.
struct SweepLine
{
    QString dataset;
    QList<QPointF> points;
    QStringList notes;
};

using SweepY = std::function<std::optional<double>(std::size_t run)>;

QList<SweepLine> sweepLines(const LlmRunsResult& result, const SweepY& y)
{
    const auto& runs = result.set->runs;
    const LlmSweepAxis axis = llmSweepAxis(*result.set);
    std::vector<std::tuple<QString, double, double, QString>> points; // dataset, x, y, note
    for (std::size_t i = 0; i < runs.size() && i < result.analyses.size(); ++i) {
        const auto x = sweepX(runs[i], axis);
        const auto value = y(i);
        if (x && value && std::isfinite(*value))
            points.emplace_back(datasetOf(runs[i]), *x, *value, llmRunLabel(runs[i]));
    }
    std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) {
        return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    QList<SweepLine> lines;
    for (const auto& [dataset, x, value, note] : points) {
        if (lines.isEmpty() || lines.back().dataset != dataset)
            lines.append({dataset, {}, {}});
        lines.back().points.append({x, value});
        lines.back().notes.append(note);
    }
    return lines;
}

/// "Output tokens/s" alone, or "Output tokens/s — sharegpt" when the file's runs use several
/// datasets.
QString lineName(const QString& base, const SweepLine& line, qsizetype lineCount)
{
    if (lineCount < 2)
        return base;
    return QStringLiteral("%1 — %2").arg(
        base, line.dataset.isEmpty() ? QObject::tr("no dataset named") : line.dataset);
}

ChartContent sweepContent(const LlmRunsResult& result, const QString& title, const QString& yTitle,
                          const QString& yUnit)
{
    const LlmSweepAxis axis = result.set ? llmSweepAxis(*result.set) : LlmSweepAxis::None;
    ChartContent content;
    content.title = title;
    content.xTitle = sweepXTitle(axis);
    content.yTitle = yTitle;
    content.xUnit =
        axis == LlmSweepAxis::Concurrency ? QObject::tr("requests") : QStringLiteral("req/s");
    content.yUnit = yUnit;
    content.yIncludesZero = true;
    content.emptyText =
        !result.set || result.set->runs.empty()
            ? QObject::tr("No LLM serving runs to sweep over")
            : QObject::tr("No run of this file has a request rate or a concurrency limit, so "
                          "there is no sweep to draw");
    return content;
}

const analysis::Distribution& distributionOf(const analysis::LlmRunAnalysis& run,
                                             LlmSweepLatency metric)
{
    return metric == LlmSweepLatency::Ttft ? run.ttft : run.tpot;
}

std::optional<double> computedP99Ms(const analysis::LlmRunAnalysis& run, LlmSweepLatency metric,
                                    double analysis::PercentileEstimate::*field)
{
    const auto& distribution = distributionOf(run, metric);
    const auto* p99 = distribution.count > 0 ? distribution.at(0.99) : nullptr;
    if (!p99 || !std::isfinite(p99->*field))
        return std::nullopt;
    return p99->*field * kMsPerS;
}

std::optional<double> reportedP99Ms(const analysis::LlmRunAnalysis& run, LlmSweepLatency metric)
{
    const auto found = run.reportedP99S.find(metric == LlmSweepLatency::Ttft ? "ttft" : "tpot");
    if (found == run.reportedP99S.end())
        return std::nullopt;
    return found->second * kMsPerS;
}

void addSweepSeries(ChartContent& content, const QList<SweepLine>& lines, const QString& name,
                    int colourOffset, SeriesStyle style, bool inLegend = true)
{
    for (qsizetype i = 0; i < lines.size(); ++i) {
        SeriesSpec spec = lineSeries(lineName(name, lines[i], lines.size()), lines[i].points,
                                     neutralColour(int(2 * i) + colourOffset), style, inLegend);
        spec.pointNotes = lines[i].notes;
        if (style == SeriesStyle::Dashed) // interval bounds: the curve's colour, lighter
            spec.colour.setAlpha(130);
        content.series.append(spec);
    }
}

ReferenceLine slaLimit(const QString& metric, double limitMs, Qt::Orientation orientation,
                       const QColor& colour)
{
    ReferenceLine line{QObject::tr("%1 SLA %2 ms").arg(metric, figure(limitMs)), limitMs,
                       orientation, colour};
    line.toolTip = QObject::tr("Goodput counts a request only when its %1 is at most %2 ms")
                       .arg(metric, figure(limitMs));
    line.acceptable = AcceptableSide::Below;
    line.acceptableLabel = QObject::tr("meets %1 ≤ %2 ms").arg(metric, figure(limitMs));
    return line;
}

} // namespace

QString llmRunLabel(const data::LlmRun& run)
{
    QStringList parts{run.tool.empty() ? QObject::tr("run") : displayText(run.tool)};
    if (const QString dataset = datasetOf(run); !dataset.isEmpty())
        parts << dataset;
    if (run.requestRatePerS)
        parts << QObject::tr("%1 req/s").arg(figure(*run.requestRatePerS));
    else if (unlimitedRate(run))
        parts << QObject::tr("unlimited rate");
    if (run.maxConcurrency)
        parts << QObject::tr("concurrency %1").arg(figure(*run.maxConcurrency));
    if (const auto* name = knob(run, "test_name"))
        parts << QString::fromStdString(*name);
    else
        parts << QObject::tr("line %1").arg(run.line);
    return parts.join(QStringLiteral(" · "));
}

LlmSweepAxis llmSweepAxis(const data::LlmRunSet& set)
{
    const auto has = [&set](auto member) {
        return std::any_of(set.runs.begin(), set.runs.end(),
                           [member](const data::LlmRun& run) { return (run.*member).has_value(); });
    };
    if (has(&data::LlmRun::requestRatePerS))
        return LlmSweepAxis::RequestRate;
    if (has(&data::LlmRun::maxConcurrency))
        return LlmSweepAxis::Concurrency;
    return LlmSweepAxis::None;
}

ChartContent llmLatencyCdfChart(const analysis::LlmRunAnalysis& run, const QString& runLabel,
                                const analysis::LlmSla& sla)
{
    ChartContent content;
    content.title = runLabel.isEmpty() ? QObject::tr("Latency distributions")
                                       : QObject::tr("Latency distributions — %1").arg(runLabel);
    content.xTitle = QObject::tr("Latency (ms)");
    content.yTitle = QObject::tr("Fraction of requests ≤ x");
    content.xUnit = QStringLiteral("ms");
    content.emptyText =
        run.requests == 0
            ? QObject::tr("This run has no per-request records: only the tool's aggregates "
                          "exist (tables below)")
            : QObject::tr("Every request of this run failed: no latency to draw");
    const std::pair<const char*, const analysis::Distribution*> metrics[] = {
        {"TTFT", &run.ttft}, {"TPOT", &run.tpot}, {"ITL", &run.itl}, {"E2E", &run.e2e}};
    const QStringList definitions = {
        QObject::tr("Time to first token: request sent → first token"),
        QObject::tr("Time per output token: (E2E − TTFT) ÷ (output tokens − 1)"),
        QObject::tr("Inter-token latency: every gap between streamed chunks, pooled"),
        QObject::tr("End to end: request sent → last token")};
    double lowMs = std::numeric_limits<double>::infinity(), highMs = 0.0;
    for (int i = 0; i < 4; ++i) {
        const auto& distribution = *metrics[i].second;
        if (distribution.count == 0)
            continue;
        SeriesSpec spec =
            cdfSeriesMs(QString::fromLatin1(metrics[i].first), distribution, neutralColour(i));
        spec.toolTip = definitions[i];
        content.series.append(spec);
        for (const QPointF& point : spec.data.points)
            if (point.x() > 0.0) {
                lowMs = std::min(lowMs, point.x());
                highMs = std::max(highMs, point.x());
            }
    }
    // Gaps of a few ms and end-to-end times of seconds on one linear axis would squeeze the
    // short metrics against zero.
    constexpr double kDecade = 10.0;
    content.logX = highMs >= kDecade * lowMs;
    if (content.series.isEmpty())
        return content;
    if (sla.ttftS)
        content.references.append(slaLimit(QStringLiteral("TTFT"), *sla.ttftS * kMsPerS,
                                           Qt::Vertical, neutralColour(0).darker(130)));
    if (sla.tpotS)
        content.references.append(slaLimit(QStringLiteral("TPOT"), *sla.tpotS * kMsPerS,
                                           Qt::Vertical, neutralColour(1).darker(130)));
    return withSeriesAxisTitles(content);
}

ChartContent llmSweepThroughputChart(const LlmRunsResult& result)
{
    ChartContent content =
        sweepContent(result, QObject::tr("Rate sweep: output throughput"),
                     QObject::tr("Output throughput (tokens/s)"), QObject::tr("tokens/s"));
    if (!result.set)
        return content;
    const auto lines = sweepLines(
        result, [&result](std::size_t run) { return result.analyses[run].outputTokensPerS; });
    addSweepSeries(content, lines, QObject::tr("Output tokens/s"), 0, SeriesStyle::Line);
    if (content.series.isEmpty() && llmSweepAxis(*result.set) != LlmSweepAxis::None)
        content.emptyText = QObject::tr("No run of this file reports its output token rate");
    return withSeriesAxisTitles(content);
}

ChartContent llmSweepP99Chart(const LlmRunsResult& result, LlmSweepLatency metric)
{
    const QString name =
        metric == LlmSweepLatency::Ttft ? QStringLiteral("TTFT") : QStringLiteral("TPOT");
    ChartContent content = sweepContent(result, QObject::tr("Rate sweep: p99 %1").arg(name),
                                        QObject::tr("p99 %1 (ms)").arg(name), QStringLiteral("ms"));
    content.autoLogY = true;
    if (!result.set)
        return content;
    const auto& analyses = result.analyses;
    const auto computed = [&](double analysis::PercentileEstimate::*field) {
        return sweepLines(result, [&analyses, metric, field](std::size_t run) {
            return computedP99Ms(analyses[run], metric, field);
        });
    };
    addSweepSeries(content, computed(&analysis::PercentileEstimate::value),
                   QObject::tr("p99 from the records"), 0, SeriesStyle::Line);
    addSweepSeries(content, computed(&analysis::PercentileEstimate::ciLow),
                   QObject::tr("95% CI low"), 0, SeriesStyle::Dashed, false);
    addSweepSeries(content, computed(&analysis::PercentileEstimate::ciHigh),
                   QObject::tr("95% CI high"), 0, SeriesStyle::Dashed, false);
    addSweepSeries(content,
                   sweepLines(result,
                              [&analyses, metric](std::size_t run) {
                                  return reportedP99Ms(analyses[run], metric);
                              }),
                   QObject::tr("p99 as the tool reported"), 1, SeriesStyle::Scatter);
    if (content.series.isEmpty() && llmSweepAxis(*result.set) != LlmSweepAxis::None)
        content.emptyText = QObject::tr("No run of this file has a p99 %1: neither per-request "
                                        "records nor the tool's own p99")
                                .arg(name);
    const auto limitS = metric == LlmSweepLatency::Ttft ? result.sla.ttftS : result.sla.tpotS;
    if (limitS && !content.series.isEmpty())
        content.references.append(
            slaLimit(name, *limitS * kMsPerS, Qt::Horizontal, QColor(200, 40, 40)));
    return withSeriesAxisTitles(content);
}

QString llmSweepCaption(const LlmRunsResult& result)
{
    if (!result.set || result.set->runs.empty())
        return {};
    const LlmSweepAxis axis = llmSweepAxis(*result.set);
    if (axis == LlmSweepAxis::None)
        return QObject::tr("No run names a request rate or a concurrency limit: there is no "
                           "rate sweep to draw.");
    const std::size_t runs = result.set->runs.size();
    const QString across =
        runs == 1 ? QObject::tr("The file's one run") : QObject::tr("The file's %1 runs").arg(runs);
    QString caption = axis == LlmSweepAxis::RequestRate
                          ? QObject::tr("%1, x = each run's request rate.").arg(across)
                          : QObject::tr("%1, x = each run's concurrency limit (no run names a "
                                        "request rate).")
                                .arg(across);
    QStringList skipped;
    for (const auto& run : result.set->runs) {
        if (sweepX(run, axis))
            continue;
        const QString why = axis == LlmSweepAxis::Concurrency ? QObject::tr("no concurrency limit")
                            : unlimitedRate(run)              ? QObject::tr("unlimited rate")
                                                              : QObject::tr("no request rate");
        skipped << QStringLiteral("%1 (%2)").arg(llmRunLabel(run), why);
    }
    if (!skipped.isEmpty())
        caption +=
            QLatin1Char(' ') +
            QObject::tr("Left out, having no x: %1.").arg(skipped.join(QStringLiteral("; ")));
    return caption;
}

} // namespace bs::widgets
