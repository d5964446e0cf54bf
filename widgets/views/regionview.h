#pragma once

#include "analysis/regionresult.h"

#include <QWidget>

#include <nlohmann/json.hpp>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;

namespace bs::widgets {

class ChartPanel;
class JobRunner;
class ModelPanel;
class ProjectDocument;
class RegionHeatmap;
class RegionHeatmapPanel;

/// The region page: the feasible operating region of the Model dock's scenario over a grid of
/// max batch × max queue delay (× offered rate), under the project's SLA, power limit and
/// demand. Computes in the background (lane "region"): the coarse preview is drawn as soon as it
/// exists, refined cells replace it; any change of an input cancels the running job (and, while
/// the page is hidden, the computation waits until it is shown). Shows the
/// heatmap (binding constraint by colour, margins, recommended cell), p99 and energy against
/// throughput with the Pareto front, and the capacity curves. Clicking a cell loads its policy
/// into the Model dock (one undo step). The grid and limits live in the project's `region`
/// section.
class RegionView : public QWidget
{
    Q_OBJECT
public:
    RegionView(ProjectDocument* document, JobRunner* jobs, ModelPanel* model,
               QWidget* parent = nullptr);

    std::shared_ptr<const analysis::RegionResult> result() const { return m_result; }
    RegionHeatmap* heatmap() const;
    RegionHeatmapPanel* heatmapPanel() const { return m_heatmapPanel; }
    QList<ChartPanel*> panels() const { return m_panels; }
    QLabel* recommendationLabel() const { return m_recommendation; }
    /// The spec the next computation uses, or the reason it cannot be built.
    Expected<analysis::RegionSpec> currentSpec() const;
    /// Starts a computation now (otherwise it starts shortly after any input changes).
    void compute();
    /// Loads a cell's policy (and rate) into the project's scenario and model, as one undo step.
    void loadCell(std::size_t cellIndex);

protected:
    void showEvent(QShowEvent* event) override;

Q_SIGNALS:
    /// A preview (complete = false) or the final result (complete = true) is on screen.
    void resultShown(bool complete);
    /// An input changed: the result on screen (and its recommendation) no longer answers for
    /// the current scenario and limits until the next complete result.
    void resultInvalidated();

private:
    void readInputsFromProject();
    void writeInputsToProject();
    void scheduleCompute();
    void showResult(std::shared_ptr<const analysis::RegionResult> result, bool complete);
    void redrawHeatmap();
    QString recommendationText(const analysis::RegionResult& result) const;

    ProjectDocument* m_document;
    JobRunner* m_jobs;
    ModelPanel* m_model;
    QLineEdit* m_maxBatches;
    QLineEdit* m_delays;
    QLineEdit* m_rates;
    QComboBox* m_objective;
    QCheckBox* m_robust;
    QComboBox* m_rateSlice;
    QLabel* m_limits;
    QLabel* m_recommendation;
    RegionHeatmapPanel* m_heatmapPanel;
    QList<ChartPanel*> m_panels;
    QTimer* m_debounce;
    std::shared_ptr<const analysis::RegionResult> m_result;
    quint64 m_generation = 0;
    bool m_loading = false;
    bool m_stale = true; ///< Inputs changed while hidden: compute when shown.
};

/// Parses "1, 2, 4" into numbers; errors name the field and the bad item.
Expected<std::vector<double>> parseValueList(const QString& text, const QString& field);

} // namespace bs::widgets
