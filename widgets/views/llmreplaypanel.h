#pragma once

#include "charts/llmruncharts.h"
#include "llmsim/runreplay.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace bs::widgets {

class ChartPanel;
template <typename T>
struct JobOutcome;
class JobRunner;

/// One replay of a run as the panel ran it: the fit and simulation, the engine the step was
/// fitted through (the run's own knobs), and how long the job took.
struct LlmReplay
{
    llmsim::RunReplay run;
    llmsim::EngineConfig fitEngine;
    double wallS = 0.0;
};

/// The LLM serving page's "Replay in the simulator" part: the chosen run's requests (arrival,
/// prompt and output tokens) replayed through llmsim with a linear step fitted on the run, under
/// engine knobs the user edits (policy, max_num_seqs, max_num_batched_tokens, chunked prefill,
/// KV-cache blocks). Each change re-runs the replay in the background (lane "llm-replay", the
/// previous run cancelled) and redraws TTFT and TPOT measured vs simulated and the simulated
/// engine over time. The fit is kept while the run and the engine it was fitted through stay.
class LlmReplayPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LlmReplayPanel(JobRunner* jobs, QWidget* parent = nullptr);
    ~LlmReplayPanel() override;

    /// Replays run `index` of the analysed file with its own knobs, or says why it cannot.
    void showRun(std::shared_ptr<const LlmRunsResult> runs, std::size_t index);
    /// Shows nothing simulated, saying why.
    void showNothing(const QString& why);

    QList<ChartPanel*> panels() const;
    ChartPanel* cdfPanel() const { return m_cdf; }
    ChartPanel* itlPanel() const { return m_itl; }
    ChartPanel* queuePanel() const { return m_queue; }
    ChartPanel* kvPanel() const { return m_kv; }
    ChartPanel* preemptionPanel() const { return m_preemptions; }
    QComboBox* policyPicker() const { return m_policy; }
    QSpinBox* maxNumSeqsField() const { return m_maxNumSeqs; }
    QSpinBox* maxNumBatchedTokensField() const { return m_maxNumBatchedTokens; }
    QCheckBox* chunkedPrefillBox() const { return m_chunkedPrefill; }
    /// 0 ("not recorded") until the run records its KV-cache size or the user enters it.
    QSpinBox* kvBlocksField() const { return m_kvBlocks; }
    /// The fitted step: coefficients and fit quality.
    QLabel* stepLabel() const { return m_step; }
    /// What was run and the simulated p50/p99 TTFT and TPOT beside the measured ones.
    QLabel* summary() const { return m_summary; }
    /// Why nothing is simulated, or what to watch for; hidden when there is nothing to say.
    QLabel* note() const { return m_note; }
    /// The replay drawn now (null when nothing is simulated).
    std::shared_ptr<const LlmReplay> replay() const { return m_replay; }
    /// The engine the knobs describe.
    llmsim::EngineConfig engineFromKnobs() const;

protected:
    bool event(QEvent* event) override;

Q_SIGNALS:
    /// A replay finished (or failed) and the part was redrawn.
    void replayed();

private:
    QWidget* buildKnobs();
    void setKnobs(const llmsim::RunEngine& recorded);
    void replayWithKnobs();
    void showReplay(JobOutcome<LlmReplay> outcome);
    void drawNothing(const QString& why);
    /// The engine the step is fitted through: the run's knobs, with the user's KV blocks (and
    /// policy) where the run does not record them.
    llmsim::EngineConfig fitEngine() const;
    const analysis::LlmRunAnalysis* measured() const;
    const data::LlmRun* run() const;

    QPointer<JobRunner> m_jobs; ///< The main window's; may go first when the window closes.
    QComboBox* m_policy;
    QSpinBox* m_maxNumSeqs;
    QSpinBox* m_maxNumBatchedTokens;
    QCheckBox* m_chunkedPrefill;
    QSpinBox* m_kvBlocks;
    QLabel* m_step;
    QLabel* m_summary;
    QLabel* m_note;
    ChartPanel* m_cdf;
    ChartPanel* m_itl;
    ChartPanel* m_queue;
    ChartPanel* m_kv;
    ChartPanel* m_preemptions;
    std::shared_ptr<const LlmRunsResult> m_runs;
    std::size_t m_index = 0;
    llmsim::RunEngine m_recorded;
    std::shared_ptr<const LlmReplay> m_replay;
    /// The last fit of this run and the engine it went through, reused while both stay.
    std::optional<llmsim::StepFit> m_fit;
    llmsim::EngineConfig m_fittedThrough;
};

} // namespace bs::widgets
