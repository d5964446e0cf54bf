#include "views/llmruntables.h"

#include "views/summarytable.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace bs::widgets {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("LlmRunTables", text);
}

const QString& noRecords()
{
    static const QString text = tr("no per-request records in this file");
    return text;
}

QString count(std::uint64_t value)
{
    return QLocale().toString(qulonglong(value));
}

QString withUnit(double value, const QString& unit)
{
    return numberText(value) + QLatin1Char(' ') + unit;
}

struct LatencyMetric
{
    const char* key; ///< As in LlmRun::metrics.
    const char* name;
    const analysis::Distribution analysis::LlmRunAnalysis::*distribution;
};

constexpr LatencyMetric kLatencyMetrics[] = {
    {"ttft", "TTFT", &analysis::LlmRunAnalysis::ttft},
    {"tpot", "TPOT", &analysis::LlmRunAnalysis::tpot},
    {"itl", "ITL", &analysis::LlmRunAnalysis::itl},
    {"e2e", "E2E", &analysis::LlmRunAnalysis::e2e},
};

/// The tool's own figure for a percentile (its median for p50), in seconds.
std::optional<double> reportedS(const data::LlmRun& run, const char* key, double probability)
{
    const auto metric = run.metrics.find(key);
    if (metric == run.metrics.end())
        return std::nullopt;
    const QString name = QLocale::c().toString(probability * 100.0, 'g', 4);
    if (const auto found = metric->second.percentileS.find(name.toStdString());
        found != metric->second.percentileS.end())
        return found->second;
    if (probability == 0.5)
        return metric->second.medianS;
    return std::nullopt;
}

/// Why a run with records has no value of a metric.
QString noSamples(const analysis::LlmRunAnalysis& analysis, const char* name)
{
    if (analysis.failed == analysis.requests)
        return tr("every request of this run failed");
    return tr("the per-request records hold no %1").arg(QString::fromLatin1(name));
}

LlmTableRow percentileRow(const data::LlmRun& run, const analysis::LlmRunAnalysis& analysis,
                          const LatencyMetric& metric, double probability)
{
    LlmTableRow row;
    const QString label = QStringLiteral("%1 p%2").arg(QString::fromLatin1(metric.name),
                                                       QLocale().toString(probability * 100.0));
    const auto& distribution = analysis.*metric.distribution;
    const auto* estimate = distribution.count > 0 ? distribution.at(probability) : nullptr;
    QString computed, interval;
    if (analysis.requests == 0) {
        computed = noRecords();
    } else if (!estimate) {
        computed = noSamples(analysis, metric.name);
    } else {
        computed = msText(estimate->value);
        interval = intervalMsText(*estimate);
        row.computedMs = estimate->value * 1e3;
    }
    const auto reported = reportedS(run, metric.key, probability);
    row.cells = {label, computed, interval, reported ? msText(*reported) : tr("not in the file")};
    return row;
}

LlmTableRow figure(const QString& name, const QString& value, const QString& source = {})
{
    return {{name, value, source}, std::nullopt};
}

/// Where a run's totals and rates come from: the tool's summary, or (request logs) the reader's
/// totals over the run's duration.
QString fromTheFile()
{
    return tr("stated in the file");
}

LlmTableRow reportedFigure(const QString& name, const std::optional<double>& value,
                           const QString& unit)
{
    return value ? figure(name, withUnit(*value, unit), fromTheFile())
                 : figure(name, tr("not reported in this file"));
}

LlmTableRow requestsRow(const analysis::LlmRunAnalysis& analysis)
{
    if (analysis.requests == 0)
        return figure(tr("Requests"), noRecords());
    return figure(tr("Requests"), count(analysis.requests), tr("per-request records"));
}

LlmTableRow failedRow(const analysis::LlmRunAnalysis& analysis)
{
    if (analysis.requests == 0)
        return figure(tr("Failed requests"), tr("unknown: %1").arg(noRecords()));
    const double share = 100.0 * double(analysis.failed) / double(analysis.requests);
    return figure(tr("Failed requests"),
                  QStringLiteral("%1 (%2 %)").arg(count(analysis.failed), numberText(share, 3)),
                  tr("records the tool marked failed"));
}

QString slaText(const analysis::LlmSla& sla)
{
    QStringList limits;
    if (sla.ttftS)
        limits << tr("TTFT ≤ %1").arg(msText(*sla.ttftS));
    if (sla.tpotS)
        limits << tr("TPOT ≤ %1").arg(msText(*sla.tpotS));
    return limits.join(tr(" and "));
}

LlmTableRow goodputRow(const analysis::LlmRunAnalysis& analysis, const analysis::LlmSla& sla)
{
    const QString name = tr("Goodput");
    if (analysis.requests == 0)
        return figure(name, noRecords());
    if (sla.empty())
        return figure(name, tr("not judged: enter a TTFT or TPOT limit above"));
    if (!analysis.goodput)
        return figure(name, tr("not judged: no successful request with a TTFT, or neither a "
                               "duration nor arrival times to divide by"));
    const auto& g = *analysis.goodput;
    const double share = 100.0 * double(g.good) / double(g.judged);
    return figure(
        name,
        tr("%1 req/s — %2 of %3 requests (%4 %)")
            .arg(numberText(g.perS), count(g.good), count(g.judged), numberText(share, 3)),
        tr("successful requests meeting %1, over %2 s").arg(slaText(sla), numberText(g.durationS)));
}

QList<LlmTableRow> inFlightRows(const data::LlmRun& run, const analysis::LlmRunAnalysis& analysis)
{
    const auto& f = analysis.inFlight;
    const QString little = tr("Mean in flight (Little's law)");
    const QString engine = tr("Mean in flight (engine series)");
    QList<LlmTableRow> rows;
    if (f.fromRequests && f.windowS)
        rows << figure(
            little, withUnit(*f.fromRequests, tr("requests")),
            tr("sum of E2E ÷ %1 s from first arrival to last token").arg(numberText(*f.windowS)));
    else
        rows << figure(little, analysis.requests == 0
                                   ? noRecords()
                                   : tr("the per-request records have no arrival times"));
    if (f.fromEngineSeries) {
        QString source = tr("mean of running + waiting over %1 engine samples")
                             .arg(count(run.engineSeries.size()));
        if (f.relativeDifference)
            source += tr("; %1%2 % against Little's law")
                          .arg(*f.relativeDifference > 0.0 ? QStringLiteral("+") : QString())
                          .arg(QLocale().toString(*f.relativeDifference * 100.0, 'f', 1));
        rows << figure(engine,
                       tr("%1 requests (%2 running)")
                           .arg(numberText(*f.fromEngineSeries),
                                numberText(f.runningFromEngineSeries.value_or(std::nan("")))),
                       source);
    } else {
        rows << figure(engine, tr("no engine series in this file (the server's periodic log of "
                                  "running and waiting requests)"));
    }
    return rows;
}

QList<LlmTableRow> telemetryEnergyRows(const data::LlmRun& run,
                                       const analysis::LlmRunAnalysis& analysis)
{
    const QString perToken = tr("Energy per output token");
    const QString perRequest = tr("Energy per request");
    if (!analysis.energy) {
        const QString why = run.gpus.empty()
                                ? tr("no GPU telemetry in this file")
                                : tr("the GPU telemetry has no mean power of a serving GPU, or "
                                     "the file no token or request rate to divide by");
        return {figure(perToken, why)};
    }
    const auto& e = *analysis.energy;
    QStringList gpus;
    for (const auto& gpu : e.servingGpus)
        gpus << QString::fromStdString(gpu);
    const QString source = tr("mean power %1 W of GPU %2 ÷ the tool's %3 rate")
                               .arg(numberText(e.servingPowerW), gpus.join(QStringLiteral(", ")));
    QList<LlmTableRow> rows;
    rows << (e.perOutputTokenJ ? figure(perToken, withUnit(*e.perOutputTokenJ, tr("J/token")),
                                        source.arg(tr("output token")))
                               : figure(perToken, tr("the file has no output token rate")));
    if (e.perRequestJ)
        rows << figure(perRequest, withUnit(*e.perRequestJ, tr("J/request")),
                       source.arg(tr("request")));
    return rows;
}

/// Energy charged from the power log chosen on the Power page (analysis::llmLoggedEnergy, the
/// playbook's figure when the run has no telemetry), with its band, or why the log cannot
/// charge this run.
QList<LlmTableRow> loggedEnergyRows(const analysis::LlmRunAnalysis& analysis)
{
    const QString perToken = tr("Energy per output token, power log");
    if (!analysis.loggedEnergy) {
        if (analysis.loggedEnergyReason.empty())
            return {figure(perToken, tr("no power log chosen on the Power page"))};
        return {figure(perToken,
                       tr("none: %1").arg(QString::fromStdString(analysis.loggedEnergyReason)),
                       QString::fromStdString(analysis.powerLog))};
    }
    const auto& e = *analysis.loggedEnergy;
    const auto source = [&](const QString& dividedBy) {
        return tr("%1: %2 W on %3 device(s) integrated over the run's %4 s ÷ its %5; band from "
                  "the lower and higher neighbouring readings (fewest in the window: %6 a "
                  "device)")
            .arg(QString::fromStdString(analysis.powerLog), numberText(e.meanPowerW),
                 QString::number(e.devices), numberText(e.windowS), dividedBy,
                 QString::number(e.fewestReadings));
    };
    QList<LlmTableRow> rows;
    rows << figure(perToken,
                   tr("%1 [%2, %3]")
                       .arg(withUnit(e.perOutputTokenJ, tr("J/token")),
                            numberText(e.perOutputTokenLowJ), numberText(e.perOutputTokenHighJ)),
                   source(tr("output tokens")));
    if (e.perRequestJ)
        rows << figure(tr("Energy per request, power log"),
                       withUnit(*e.perRequestJ, tr("J/request")), source(tr("completed requests")));
    return rows;
}

QList<LlmTableRow> energyRows(const data::LlmRun& run, const analysis::LlmRunAnalysis& analysis)
{
    return telemetryEnergyRows(run, analysis) + loggedEnergyRows(analysis);
}

} // namespace

QList<LlmTableRow> llmPercentileRows(const data::LlmRun& run,
                                     const analysis::LlmRunAnalysis& analysis)
{
    QList<LlmTableRow> rows;
    for (const auto& metric : kLatencyMetrics)
        for (const double probability : {0.50, 0.90, 0.99})
            rows << percentileRow(run, analysis, metric, probability);
    return rows;
}

QList<LlmTableRow> llmFigureRows(const data::LlmRun& run, const analysis::LlmRunAnalysis& analysis,
                                 const analysis::LlmSla& sla)
{
    QList<LlmTableRow> rows{requestsRow(analysis), failedRow(analysis)};
    rows << (run.completed
                 ? figure(tr("Completed"), count(std::uint64_t(*run.completed)), fromTheFile())
                 : figure(tr("Completed"), tr("not reported in this file")));
    rows << reportedFigure(tr("Duration"), run.durationS, QStringLiteral("s"));
    rows << reportedFigure(tr("Request throughput"), run.requestsPerS, tr("req/s"));
    rows << reportedFigure(tr("Output token throughput"), analysis.outputTokensPerS,
                           tr("tokens/s"));
    rows << reportedFigure(tr("Prompt token throughput"), analysis.promptTokensPerS,
                           tr("tokens/s"));
    rows << reportedFigure(tr("Total token throughput"), run.totalTokensPerS, tr("tokens/s"));
    rows << goodputRow(analysis, sla);
    if (run.goodputPerS)
        rows << figure(tr("Goodput as the tool reported"), withUnit(*run.goodputPerS, tr("req/s")),
                       tr("under the SLA the tool was given when it ran"));
    rows << inFlightRows(run, analysis);
    rows << energyRows(run, analysis);
    return rows;
}

} // namespace bs::widgets
