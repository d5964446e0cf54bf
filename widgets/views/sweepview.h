#pragma once

#include "charts/sweepdeltacharts.h"

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
/// Its Δ display shows candidate − baseline instead (throughput, p99, p50, energy per inference;
/// absolute or relative), matched point by point by core (playbook::sweepDeltas).
class SweepView : public QWidget
{
    Q_OBJECT
public:
    enum class Display
    {
        Overlay, ///< Every sweep's own values, overlaid.
        Delta,   ///< Candidate − baseline per matched point.
    };

    explicit SweepView(ProjectDocument* document, QWidget* parent = nullptr);

    void setOverlays(QList<SweepOverlay> overlays);
    void setLimits(std::optional<double> slaP99Ms, std::optional<double> powerCapW);
    /// The Region tab's recommended point, or nothing with the reason shown instead (not
    /// computed yet, out of date, no feasible cell). HTML; a link asks for the Region tab.
    void setRecommendation(std::optional<SweepRecommendation> recommendation,
                           const QString& whyNoneHtml = {});
    std::optional<SweepRecommendation> recommendation() const { return m_recommendation; }
    QLabel* recommendationNote() const { return m_recommendationNote; }
    QList<ChartPanel*> panels() const { return m_panels; }
    SweepChartOptions options() const;
    /// The sweeps currently drawn (for tests and the table export).
    QList<SweepInput> sweeps() const;

    Display display() const;
    void setDisplay(Display display);
    DeltaScale deltaScale() const;
    void setDeltaScale(DeltaScale scale);
    /// The baseline and candidate sweeps matched point by point; empty without both roles set.
    std::optional<SweepDeltaInput> deltaInput() const;
    /// The inline message of the Δ display (why there is nothing to compare).
    QLabel* deltaMessage() const { return m_deltaMessage; }
    QLabel* caption() const { return m_caption; }

public Q_SLOTS:
    void refresh();

Q_SIGNALS:
    /// The user followed the link to the Region tab (where the recommendation is computed).
    void regionRequested();

private:
    void refreshOverlay(const SweepChartOptions& options);
    void refreshDelta(const SweepChartOptions& options);
    QString missingPairText() const;
    QString recommendationNoteHtml(SweepXAxis xAxis) const;

    ProjectDocument* m_document;
    QComboBox* m_display;
    QComboBox* m_deltaScale;
    QLabel* m_deltaScaleLabel;
    QComboBox* m_xAxis;
    QCheckBox* m_logX;
    QCheckBox* m_logY;
    QLabel* m_deltaMessage;
    QLabel* m_caption;
    QLabel* m_recommendationNote;
    QStringList m_overlayCaption;
    QList<ChartPanel*> m_panels;
    QList<SweepOverlay> m_overlays;
    std::optional<double> m_slaP99Ms;
    std::optional<double> m_powerCapW;
    std::optional<SweepRecommendation> m_recommendation;
    QString m_whyNoRecommendation;
    bool m_userPickedAxis = false;
};

} // namespace bs::widgets
