#pragma once

#include "charts/llmruncharts.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace bs::widgets {

class ChartPanel;
template <typename T>
struct JobOutcome;
class JobRunner;
class LlmReplayPanel;

/// The Traces view's "LLM serving" page: the runs of one LLM serving benchmark file, analysed
/// in the background (lane "trace-llm") by analysis::analyzeLlmRuns. For the run chosen in the
/// run picker: TTFT, TPOT, ITL and E2E as CDFs and as p50/p90/p99 with 95% intervals beside the
/// tool's own figures, and the run's throughputs, goodput under the SLA typed on the page,
/// in-flight check and energy, and its requests replayed in the simulator (LlmReplayPanel).
/// Across the file's runs: output throughput and p99 TTFT/TPOT
/// against the request rate (or concurrency).
class LlmRunsPage : public QWidget
{
    Q_OBJECT
public:
    explicit LlmRunsPage(JobRunner* jobs, QWidget* parent = nullptr);

    /// Analyses and shows these runs, their energy charged from `power` (the power log chosen
    /// beside them, named `powerName`) when there is one; the same runs and log already shown
    /// are not analysed again.
    void showRuns(std::shared_ptr<const data::LlmRunSet> runs,
                  std::shared_ptr<const data::PowerSeries> power = nullptr,
                  const QString& powerName = {});
    /// Shows no runs and says why (no LLM dataset imported, none chosen, not loaded).
    void showEmpty(const QString& why);

    QList<ChartPanel*> panels() const;
    ChartPanel* cdfPanel() const { return m_cdf; }
    ChartPanel* throughputSweepPanel() const { return m_throughputSweep; }
    ChartPanel* ttftSweepPanel() const { return m_ttftSweep; }
    ChartPanel* tpotSweepPanel() const { return m_tpotSweep; }
    QComboBox* runPicker() const { return m_runPicker; }
    QLineEdit* ttftLimitField() const { return m_ttftLimitMs; }
    QLineEdit* tpotLimitField() const { return m_tpotLimitMs; }
    /// Latency percentiles of the chosen run; column 1 holds the computed value in ms under
    /// Qt::UserRole.
    QTableWidget* percentileTable() const { return m_percentiles; }
    QTableWidget* figureTable() const { return m_figures; }
    QLabel* note() const { return m_note; }
    QLabel* sweepCaption() const { return m_sweepCaption; }
    /// The chosen run replayed in the simulator under knobs the user edits.
    LlmReplayPanel* replayPanel() const { return m_replay; }
    /// The latest analysis (null until one finished or when nothing is shown).
    std::shared_ptr<const LlmRunsResult> result() const { return m_result; }

Q_SIGNALS:
    /// An analysis finished and was drawn.
    void analysed();

private:
    QWidget* buildControls();
    void analyse();
    void showResult(JobOutcome<LlmRunsResult> outcome);
    void fillRunPicker();
    void drawRun();
    void drawSweep();
    /// The three rate-sweep charts, shown only when the file's runs form a sweep.
    void setSweepChartsVisible(bool visible);
    /// The SLA typed in the limit fields; a field that does not read as a positive number of
    /// milliseconds is left unjudged and named in `problems`.
    analysis::LlmSla slaFromFields(QStringList& problems) const;

    JobRunner* m_jobs;
    QWidget* m_runPair;
    QComboBox* m_runPicker;
    QLineEdit* m_ttftLimitMs;
    QLineEdit* m_tpotLimitMs;
    QLabel* m_note;
    QLabel* m_sweepCaption;
    ChartPanel* m_cdf;
    ChartPanel* m_throughputSweep;
    ChartPanel* m_ttftSweep;
    ChartPanel* m_tpotSweep;
    QTableWidget* m_percentiles;
    QTableWidget* m_figures;
    LlmReplayPanel* m_replay;
    std::shared_ptr<const data::LlmRunSet> m_runs;
    std::shared_ptr<const data::PowerSeries> m_power;
    QString m_powerName;
    std::shared_ptr<const LlmRunsResult> m_result;
    QString m_slaProblems;
};

} // namespace bs::widgets
