#pragma once

#include "workbench/workbenchjob.h"

#include <QWidget>

#include <memory>

class QTableWidget;

namespace bs::widgets {

class ChartPanel;

/// The simulation page: the scenario as set in the Model dock, re-run on every change: a
/// summary with 95% confidence intervals (stability, load, throughput, latency percentiles,
/// batch sizes, utilisation, energy), the p99-vs-max-batch policy curve, the latency
/// distribution, latency and queue depth over time, and the batch sizes formed.
class SimulationView : public QWidget
{
    Q_OBJECT
public:
    explicit SimulationView(QWidget* parent = nullptr);

    void setOutputs(const WorkbenchOutputs& outputs, std::optional<double> slaP99Ms);
    QList<ChartPanel*> panels() const { return m_panels; }
    QTableWidget* summary() const { return m_summary; }
    /// The summary as "metric: value" lines (tests, the memo evidence); draws pending outputs.
    QString summaryText();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void drawPending();
    void draw(const WorkbenchOutputs& outputs, std::optional<double> slaP99Ms);
    void addRow(const QString& metric, const QString& value, const QString& ci = {});

    QTableWidget* m_summary;
    QList<ChartPanel*> m_panels;
    std::shared_ptr<const WorkbenchOutputs> m_pending; ///< Outputs not drawn yet (page hidden).
    std::optional<double> m_pendingSla;
};

/// "12.3 ms" style formatting of a value with a unit.
QString formatMs(double seconds);
QString formatEstimate(const sim::Estimate& estimate, double scale, int precision = 3);

} // namespace bs::widgets
