#include "workbench/answertext.h"

#include "sim/estimate.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace bs::widgets {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("bs::widgets::AnswerText", text);
}

QString ms(double seconds)
{
    return QLocale().toString(seconds * 1e3, 'g', 4);
}

QString runText(const sim::Result& r)
{
    const QLocale locale;
    QString text = tr("%1 × %2 requests")
                       .arg(r.scenario.replications)
                       .arg(locale.toString(qulonglong(r.scenario.requests)));
    const auto& c = r.coverage;
    if (c.timeScale.seconds > 0.0)
        text += tr(", %1 %2 each")
                    .arg(locale.toString(c.cyclesPerReplication, 'g', 3),
                         QString::fromStdString(c.timeScale.unit));
    return text;
}

} // namespace

QString p99AnswerText(const sim::Result& r)
{
    const auto& p99 = r.latency.p99;
    QString text = tr("p99 %1 ms").arg(ms(p99.value));
    if (std::isfinite(p99.ciLow))
        text += tr(" [%1, %2]").arg(ms(p99.ciLow), ms(p99.ciHigh));
    text += tr(" from %1").arg(runText(r));
    if (!r.coverage.sufficient)
        text += tr(" — not confident: too short for the traffic");
    return text;
}

QString slaVerdictText(const sim::Result& r, double slaP99Ms)
{
    const double p99Ms = r.latency.p99.value * 1e3;
    const double margin = slaP99Ms - p99Ms;
    const QLocale locale;
    QString text;
    switch (sim::judgeUpperLimit(r.latency.p99, slaP99Ms / 1e3)) {
    case sim::LimitVerdict::Met:
        text = tr("met, %1 ms to spare").arg(locale.toString(margin, 'g', 3));
        break;
    case sim::LimitVerdict::Missed:
        text = tr("MISSED by %1 ms").arg(locale.toString(-margin, 'g', 3));
        break;
    case sim::LimitVerdict::Undecided:
        text = tr("undecided: the SLA lies inside the p99's 95% interval [%1, %2] ms")
                   .arg(ms(r.latency.p99.ciLow), ms(r.latency.p99.ciHigh));
        break;
    case sim::LimitVerdict::Unknown:
        return tr("no p99");
    }
    if (!r.coverage.sufficient)
        text += tr(" (not confident: the run is too short for the traffic)");
    return text;
}

} // namespace bs::widgets
