#pragma once

#include "analysis/llmregion.h"
#include "charts/llmregioncharts.h"
#include "charts/llmregionheatmappanel.h"

#include <QPointer>
#include <QWidget>

#include <array>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;

namespace bs::widgets {

class ChartPanel;
class JobRunner;
class MessageBar;
template <typename T>
struct JobOutcome;

/// The LLM server's feasible region in the workbench: which max_num_seqs ×
/// max_num_batched_tokens (× load, replicas, tensor parallel, power cap) meet the TTFT, TPOT
/// and other limits, as analysis::computeLlmRegion judges them. Shows the recommendation with
/// its intervals and headroom and the cell counts, the heatmap at a slice of the other axes
/// (pickers, the recommended cell's values first), the capacity curves (with a load axis) and
/// output tokens/s against TTFT p99. Computes in the background (lane "llmregion", the newest
/// computation wins, Cancel stops it); the coarse pass is drawn as soon as it is judged, its
/// pending cells hatched, and the final result replaces it. Errors (an invalid grid, a missing
/// replay file) are said in the panel.
class LlmRegionPanel : public QWidget
{
    Q_OBJECT
public:
    LlmRegionPanel(JobRunner* jobs, QWidget* parent = nullptr);
    ~LlmRegionPanel() override;

    /// The grid and limits to judge, and where its relative paths (replay file, model config)
    /// resolve. Withdraws any shown result that no longer answers for this spec (says so, with
    /// a Recompute button).
    void setSpec(const analysis::LlmRegionSpec& spec, const QString& baseDirectory);
    /// Runs in a JobRunner lane "llmregion", newest wins, cancellable.
    void compute();
    /// The shown (final) result or null.
    std::shared_ptr<const analysis::LlmRegionResult> result() const { return m_result; }
    /// What is drawn now: the final result, the coarse pass while the rest computes, or null.
    std::shared_ptr<const analysis::LlmRegionResult> shownResult() const { return m_shown; }

    LlmRegionHeatmap* heatmap() const { return m_heatmapPanel->heatmap(); }
    /// The heatmap with its Table, Copy, Export and Attach to memo.
    LlmRegionHeatmapPanel* heatmapPanel() const { return m_heatmapPanel; }
    ChartPanel* capacityPanel() const { return m_capacity; }
    ChartPanel* tokensTtftPanel() const { return m_tokensTtft; }
    /// The chart panels (capacity, tokens against TTFT), for wiring "Attach to memo".
    QList<ChartPanel*> panels() const { return {m_capacity, m_tokensTtft}; }
    /// The recommended cell with its figures, or why there is none.
    QLabel* recommendationLabel() const { return m_recommendation; }
    /// Feasible / infeasible / refused / not confident of all cells.
    QLabel* countsLabel() const { return m_counts; }
    /// What runs now (coarse pass, computing, cancelled).
    QLabel* statusLabel() const { return m_status; }
    /// Errors and the notice that a shown result was withdrawn.
    MessageBar* messageBar() const { return m_message; }
    QPushButton* computeButton() const { return m_computeButton; }
    /// Enabled while a computation runs.
    QPushButton* cancelButton() const { return m_cancelButton; }
    /// The slice pickers of the load, replicas, tensor-parallel, power-cap and GPU memory
    /// utilization axes (null for max_num_seqs and max_num_batched_tokens), hidden when the
    /// grid lacks the axis.
    QComboBox* slicePicker(analysis::LlmAxis axis) const;
    /// The axis indices the heatmap and the capacity curves are drawn at.
    LlmRegionSlice slice() const;

protected:
    bool event(QEvent* event) override;

Q_SIGNALS:
    /// A heatmap cell was clicked (its index in the shown result).
    void cellActivated(std::size_t index);
    /// A final (not preview) result is shown.
    void resultReady();
    /// The recommended cell changed or was withdrawn.
    void recommendationChanged();
    /// The coarse pass is shown with the rest pending.
    void previewShown();

private:
    QWidget* buildSlicePickers();
    void cancel();
    void display(std::shared_ptr<const analysis::LlmRegionResult> shown, bool final);
    void showFinal(JobOutcome<analysis::LlmRegionResult> outcome);
    /// Shows no region, saying why (an error, a withdrawal) in the charts and the message bar.
    void showNothing(const QString& why, bool error);
    void fillSlicePickers(const analysis::LlmRegionResult& shown);
    void redraw();
    void setFinalResult(std::shared_ptr<const analysis::LlmRegionResult> result);

    QPointer<JobRunner> m_jobs; ///< The main window's; may go first when the window closes.
    MessageBar* m_message;
    QLabel* m_status;
    QPushButton* m_computeButton;
    QPushButton* m_cancelButton;
    QLabel* m_recommendation;
    QLabel* m_counts;
    std::array<QComboBox*, analysis::kLlmAxisCount> m_pickers{};
    std::array<QWidget*, analysis::kLlmAxisCount> m_pickerRows{};
    LlmRegionHeatmapPanel* m_heatmapPanel;
    ChartPanel* m_capacity;
    ChartPanel* m_tokensTtft;

    std::optional<analysis::LlmRegionSpec> m_spec;
    QString m_baseDirectory;
    std::shared_ptr<const analysis::LlmRegionResult> m_shown;
    std::shared_ptr<const analysis::LlmRegionResult> m_result;
    quint64 m_generation = 0;
    /// The user picked a slice: a newer result of the same spec keeps it.
    bool m_sliceChosen = false;
};

/// The recommendation line of a result: the cell's knobs, output tokens/s, TTFT p99 and TPOT p99
/// with their 95% intervals, the binding limit and its margin, the load headroom, the evidence;
/// or why none.
QString llmRecommendationText(const analysis::LlmRegionResult& result);
/// "27 cells: 12 feasible, 10 infeasible, 5 refused; 3 not confident".
QString llmCountsText(const analysis::LlmRegionResult& result);

} // namespace bs::widgets
