#pragma once

#include "charts/sweepcharts.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;

namespace bs::widgets {

class ChartPanel;
class ProjectDocument;

/// The sweep page: throughput, latency (p99/p50), energy per inference and power against batch
/// size (or concurrency / offered load) for every loaded sweep, overlaid, baseline and candidate
/// in their role colours, with the model's prediction, the SLA and the power cap when known.
class SweepView : public QWidget
{
    Q_OBJECT
public:
    explicit SweepView(ProjectDocument* document, QWidget* parent = nullptr);

    void setOverlays(QList<SweepOverlay> overlays);
    void setLimits(std::optional<double> slaP99Ms, std::optional<double> powerCapW);
    QList<ChartPanel*> panels() const { return m_panels; }
    SweepChartOptions options() const;
    /// The sweeps currently drawn (for tests and the table export).
    QList<SweepInput> sweeps() const;

public Q_SLOTS:
    void refresh();

private:
    ProjectDocument* m_document;
    QComboBox* m_xAxis;
    QCheckBox* m_logX;
    QCheckBox* m_logY;
    QLabel* m_caption;
    QList<ChartPanel*> m_panels;
    QList<SweepOverlay> m_overlays;
    std::optional<double> m_slaP99Ms;
    std::optional<double> m_powerCapW;
    bool m_userPickedAxis = false;
};

} // namespace bs::widgets
