#include "views/simulationview.h"

#include "charts/chartpanel.h"
#include "panels/columnfitter.h"
#include "workbench/answertext.h"
#include "workbench/workbenchoverlays.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLocale>
#include <QTableWidget>

#include <cmath>

namespace bs::widgets {

QString formatMs(double seconds)
{
    return QLocale().toString(seconds * 1e3, 'g', 4) + QStringLiteral(" ms");
}

QString formatEstimate(const sim::Estimate& estimate, double scale, int precision)
{
    if (!std::isfinite(estimate.ciLow))
        return {};
    return QStringLiteral("[%1, %2]")
        .arg(QLocale().toString(estimate.ciLow * scale, 'g', precision),
             QLocale().toString(estimate.ciHigh * scale, 'g', precision));
}

SimulationView::SimulationView(QWidget* parent)
    : QWidget(parent)
    , m_summary(new QTableWidget(0, 3, this))
{
    m_summary->setHorizontalHeaderLabels({tr("Metric"), tr("Value"), tr("95% CI")});
    m_summary->verticalHeader()->hide();
    m_summary->setEditTriggers(QAbstractItemView::NoEditTriggers);
    ColumnFitter::attach(m_summary);
    auto* grid = new QGridLayout(this);
    grid->addWidget(m_summary, 0, 0);
    for (int i = 0; i < 5; ++i) {
        auto* panel = new ChartPanel(this);
        m_panels.append(panel);
        const int cell = i + 1;
        grid->addWidget(panel, cell / 3, cell % 3);
    }
    setOutputs({}, std::nullopt);
}

void SimulationView::addRow(const QString& metric, const QString& value, const QString& ci)
{
    const int row = m_summary->rowCount();
    m_summary->insertRow(row);
    m_summary->setItem(row, 0, new QTableWidgetItem(metric));
    m_summary->setItem(row, 1, new QTableWidgetItem(value));
    m_summary->setItem(row, 2, new QTableWidgetItem(ci));
}

QString SimulationView::summaryText()
{
    drawPending();
    QStringList lines;
    for (int row = 0; row < m_summary->rowCount(); ++row) {
        QString line = m_summary->item(row, 0)->text() + QStringLiteral(": ") +
                       m_summary->item(row, 1)->text();
        if (!m_summary->item(row, 2)->text().isEmpty())
            line += QStringLiteral(" ") + m_summary->item(row, 2)->text();
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

void SimulationView::setOutputs(const WorkbenchOutputs& outputs, std::optional<double> slaP99Ms)
{
    // Drawn when on screen: a slider drag redraws only the page the user looks at.
    m_pending = std::make_shared<const WorkbenchOutputs>(outputs);
    m_pendingSla = slaP99Ms;
    if (isVisible())
        drawPending();
}

void SimulationView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    drawPending();
}

void SimulationView::drawPending()
{
    if (!m_pending)
        return;
    const auto pending = std::move(m_pending);
    draw(*pending, m_pendingSla);
}

void SimulationView::draw(const WorkbenchOutputs& outputs, std::optional<double> slaP99Ms)
{
    m_summary->setRowCount(0);
    const QLocale locale;
    if (outputs.simulationError) {
        addRow(tr("Scenario"), QString::fromStdString(outputs.simulationError->toString()));
    } else if (!outputs.current) {
        addRow(tr("Scenario"), tr("not simulated yet"));
    } else {
        const sim::Result& r = *outputs.current;
        const auto& st = r.stability;
        addRow(tr("Stability"), st.stable
                                    ? tr("stable")
                                    : tr("UNSTABLE: %1").arg(QString::fromStdString(st.reason)));
        addRow(tr("Offered load"), locale.toString(st.offeredRatePerS, 'f', 1) + tr(" req/s"));
        addRow(tr("Capacity"), locale.toString(st.capacityRatePerS, 'f', 1) + tr(" req/s"));
        addRow(tr("Utilisation ρ"), locale.toString(st.rho, 'f', 3));
        if (st.stable) {
            addRow(tr("Throughput"), locale.toString(r.throughputPerS.value, 'f', 1) + tr(" req/s"),
                   formatEstimate(r.throughputPerS, 1.0, 5));
            addRow(tr("Latency p50"), formatMs(r.latency.p50.value),
                   formatEstimate(r.latency.p50, 1e3));
            addRow(tr("Latency p99"), formatMs(r.latency.p99.value),
                   formatEstimate(r.latency.p99, 1e3));
            addRow(tr("Latency p99.9"), formatMs(r.latency.p999.value),
                   formatEstimate(r.latency.p999, 1e3));
            addRow(tr("Queue wait p99"), formatMs(r.queueWait.p99.value),
                   formatEstimate(r.queueWait.p99, 1e3));
            addRow(tr("Mean batch"), locale.toString(r.meanBatchSize.value, 'f', 2),
                   formatEstimate(r.meanBatchSize, 1.0));
            if (r.energyPerRequestJ)
                addRow(tr("Energy per request"),
                       locale.toString(r.energyPerRequestJ->value * 1e3, 'g', 4) + tr(" mJ"),
                       formatEstimate(*r.energyPerRequestJ, 1e3));
            if (r.meanPowerW)
                addRow(tr("Mean power"), locale.toString(r.meanPowerW->value, 'f', 1) + tr(" W"),
                       formatEstimate(*r.meanPowerW, 1.0, 4));
            if (slaP99Ms)
                addRow(tr("SLA p99 %1 ms").arg(locale.toString(*slaP99Ms, 'g', 4)),
                       slaVerdictText(r, *slaP99Ms));
        }
        addRow(tr("Runs"), tr("%1 replications × %2 requests")
                               .arg(r.seeds.size())
                               .arg(locale.toString(qulonglong(r.scenario.requests))));
        if (r.coverage.timeScale.seconds > 0.0)
            addRow(tr("Run length"),
                   tr("%1 %2 per replication (needs %3)")
                       .arg(locale.toString(r.coverage.cyclesPerReplication, 'g', 3),
                            QString::fromStdString(r.coverage.timeScale.unit),
                            locale.toString(r.coverage.timeScale.requiredCycles, 'g', 3)),
                   r.coverage.sufficient ? QString() : tr("not confident: too short"));
        addRow(tr("Percentiles"), QString::fromStdString(r.latencyMethod));
        for (const auto& warning : r.warnings)
            addRow(tr("Warning"), QString::fromStdString(warning));
        addRow(tr("Computed in"), locale.toString(outputs.elapsedS * 1e3, 'f', 0) + tr(" ms"));
    }
    if (outputs.modelError)
        addRow(tr("Model"), QString::fromStdString(outputs.modelError->toString()));

    const sim::Result empty;
    const sim::Result& r = outputs.current ? *outputs.current : empty;
    const QList<ChartContent> charts = {
        policyCurveChart(outputs, slaP99Ms), simulatedLatencyHistogram(r, slaP99Ms),
        simulatedLatencyOverTime(r, slaP99Ms), simulatedQueueOverTime(r), simulatedBatchSizes(r)};
    // An empty chart says why it is empty (unstable, error, not run) where the user looks.
    // The policy curve is its own set of runs: with the scenario stable, it says itself why
    // none of its points is.
    const QString emptyText = simulationEmptyText(outputs);
    const bool stable = outputs.current && outputs.current->stability.stable;
    for (qsizetype i = 0; i < charts.size() && i < m_panels.size(); ++i) {
        ChartContent chart = charts[i];
        if (i > 0 || !stable)
            chart.emptyText = emptyText;
        m_panels[i]->setContent(chart);
    }
}

} // namespace bs::widgets
