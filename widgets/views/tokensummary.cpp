#include "views/tokensummary.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace bs::widgets {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("TokenSummary", text);
}

QString count(double value)
{
    return QLocale().toString(value, 'f', 0);
}

double percentile(const analysis::Distribution& tokens, double probability)
{
    const auto* estimate = tokens.at(probability);
    return estimate ? estimate->value : std::nan("");
}

/// Token counts are whole numbers, and so is their total: mean · count rounds it back.
double total(const analysis::Distribution& tokens)
{
    return std::round(tokens.mean * double(tokens.count));
}

QStringList perRequestRow(const QString& metric, const analysis::Distribution& tokens)
{
    return {metric,
            tr("mean %1 · p50 %2 · p99 %3 · max %4")
                .arg(QLocale().toString(tokens.mean, 'f', 1), count(percentile(tokens, 0.5)),
                     count(percentile(tokens, 0.99)), count(tokens.max)),
            tr("total %1 over %2 requests")
                .arg(count(total(tokens)), QLocale().toString(qulonglong(tokens.count)))};
}

} // namespace

QList<QStringList> tokenSummaryRows(const analysis::RequestAnalysis& analysis)
{
    QList<QStringList> rows;
    const auto& in = analysis.inputTokens;
    const auto& out = analysis.outputTokens;
    if (in.count > 0)
        rows.append(perRequestRow(tr("Input tokens per request"), in));
    if (out.count > 0)
        rows.append(perRequestRow(tr("Output tokens per request"), out));
    if (rows.isEmpty() || !(analysis.spanS > 0.0))
        return rows;
    const QString inRate = in.count > 0 ? count(total(in) / analysis.spanS) : tr("—");
    const QString outRate = out.count > 0 ? count(total(out) / analysis.spanS) : tr("—");
    rows.append({tr("Token rate (input / output)"), tr("%1 / %2 tokens/s").arg(inRate, outRate),
                 tr("totals over the %1 s span").arg(QLocale().toString(analysis.spanS, 'g', 4))});
    return rows;
}

} // namespace bs::widgets
