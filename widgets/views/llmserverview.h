#pragma once

#include "analysis/llmregion.h"
#include "analysis/llmrunanalysis.h"
#include "jobs/joboutcome.h"
#include "llmsim/runreplay.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;

namespace bs::widgets {

class ChartPanel;
class JobRunner;
class LlmRegionPanel;
class ProjectDocument;

/// What one live simulation of the project's LLM server gives the view.
struct LlmServerRun
{
    analysis::LlmOperatingPoint point;
    /// The run as the replay charts draw it (no fitted step: the scenario's own step model).
    std::optional<llmsim::RunReplay> charts;
    /// The same knobs over the loads (analysis::llmLoadSweepSpec), judged as the region does.
    std::shared_ptr<const analysis::LlmRegionResult> loadSweep;
    QString loadSweepError;
    double wallS = 0.0; ///< The operating point's simulation.
};

/// The "LLM server" tab: the project's LLM server (data::Project::llm) at the Model dock's
/// knobs, simulated live in a background lane (the newest edit wins) and judged against the
/// limits exactly as a region cell: feasible or the binding limit, every check with its 95%
/// interval and margin, the evidence. Below: TTFT/TPOT and ITL CDFs (the measured baseline run
/// beside them when the scenario replays it at its own load), running and waiting requests, KV
/// use and preemptions over time; the same knobs over the loads: output tokens/s with the knee (the
/// highest load met) and TTFT/TPOT p99 against the limits; then the feasible region over the
/// project's grid (max_num_seqs x max_num_batched_tokens x load ...) with its capacity curves.
class LlmServerView : public QWidget
{
    Q_OBJECT
public:
    LlmServerView(ProjectDocument* document, JobRunner* jobs, QWidget* parent = nullptr);

    /// The shown simulation (null before the first, or when there is nothing to simulate).
    std::shared_ptr<const LlmServerRun> shownRun() const { return m_run; }
    /// The chart panels in reading order (the operating point's, then over the loads).
    QList<ChartPanel*> chartPanels() const;
    QString headlineText() const;
    QString checksText() const;
    /// The feasible region over the project's grid (computed when a project opens; an edit
    /// withdraws it until Recompute).
    LlmRegionPanel* regionPanel() const { return m_region; }

Q_SIGNALS:
    /// A simulation was shown, or the reason there is none.
    void simulated();

protected:
    void changeEvent(QEvent* event) override;

private:
    void sizeChartsToFont();
    /// Moves the project's operating point to region cell `index` (one undo step).
    void loadRegionCell(std::size_t index);
    /// Re-simulates the operating point; `computeRegion` also computes the region (a project
    /// just opened), else an edit only withdraws a region that no longer answers for it.
    void refresh(bool computeRegion = false);
    void showRun(JobOutcome<LlmServerRun> outcome);
    void showNothing(const QString& why);
    /// Every chart panel from the run (null: none, `why` says why) and the load sweep.
    void showCharts(const llmsim::RunReplay* run, const QString& why,
                    const analysis::LlmRegionResult* loadSweep, const QString& loadSweepWhy);
    /// The run the scenario replays, analysed, when it replays it at its own load (1x, one
    /// replica): only then do measured and simulated answer the same question.
    std::optional<analysis::LlmRunAnalysis>
    comparableMeasurement(const analysis::LlmRegionSpec& spec) const;
    QString baseDirectory() const;

    ProjectDocument* m_document;
    JobRunner* m_jobs;
    QLabel* m_headline;
    QLabel* m_checks;
    QLabel* m_note;
    ChartPanel* m_cdf;
    ChartPanel* m_itl;
    ChartPanel* m_queue;
    ChartPanel* m_kv;
    ChartPanel* m_preemptions;
    ChartPanel* m_loadThroughput;
    ChartPanel* m_loadLatency;
    ChartPanel* m_loadEnergy; ///< Energy per output token over the loads (power in the picture).
    ChartPanel* m_loadPower;
    LlmRegionPanel* m_region;
    QLabel* m_regionTitle;
    std::shared_ptr<const LlmServerRun> m_run;
    std::optional<analysis::LlmRunAnalysis> m_measured;
};

} // namespace bs::widgets
