#pragma once

#include "analysis/llmregion.h"

#include <QPointer>
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace bs::widgets {

class JobRunner;
class ProjectDocument;

/// The Model dock for a project that studies an LLM server (data::Project::llm): the engine's
/// policy and knobs, the model's shape, the accelerator, tensor parallelism, the power cap, the
/// KV cache, the load and the SLA limits. Every change is one undoable edit of the project's
/// `llm` section (a slider drag merges into one step); the LLM server view re-runs the
/// simulator on it. Knobs that need the roofline step (shape, accelerator, TP, power cap) are
/// disabled, with the reason, for a linear or profiled step. "Calibrate…" (on a rate sweep) fits
/// a roofline step's efficiencies and host time per sequence on a measured rate sweep in the
/// background (llmsim/rooflinesweepfile.h) and applies them as one undoable edit; changing the
/// model, accelerator or tensor parallelism forgets the calibration.
class LlmModelPanel : public QWidget
{
    Q_OBJECT
public:
    LlmModelPanel(ProjectDocument* document, JobRunner* jobs, QWidget* parent = nullptr);

    /// Calibrates the project's roofline on the rate-sweep file at `path` (what the button does
    /// after its file dialog); the outcome goes to calibrationLabel().
    void calibrateOn(const QString& path);
    QPushButton* calibrateButton() const { return m_calibrate; }
    /// The last calibration's summary, or why it failed; hidden before the first.
    QLabel* calibrationLabel() const { return m_calibration; }

    /// The values the sliders step through (powers of two), for tests.
    static const std::vector<int>& seatSteps();
    static const std::vector<int>& budgetSteps();

private:
    void loadFromDocument();
    void showSpec(const analysis::LlmRegionSpec& spec);
    /// Applies `change` to the project's spec and records it as one undo step; a change the
    /// spec refuses (TP > 1 without an interconnect) is not applied, and the status says why.
    template <typename Change>
    void edit(const QString& what, int mergeId, Change change);
    QSlider* stepSlider(const std::vector<int>& steps);
    void chooseSweep();
    /// Enabled only where the calibration applies: a roofline step with Poisson arrivals.
    void updateCalibrateButton(const llmsim::LlmScenario& scenario);

    ProjectDocument* m_document;
    QPointer<JobRunner> m_jobs;
    std::optional<analysis::LlmRegionSpec> m_spec; ///< As shown; empty while invalid.
    QLabel* m_status;
    QComboBox* m_policy;
    QComboBox* m_modelShape;
    QComboBox* m_accelerator;
    QSpinBox* m_tensorParallel;
    QSpinBox* m_interconnectGbPerS;
    QSpinBox* m_powerCapW;
    QSlider* m_maxNumSeqs;
    QLabel* m_maxNumSeqsValue;
    QSlider* m_maxNumBatchedTokens;
    QLabel* m_maxNumBatchedTokensValue;
    QCheckBox* m_chunkedPrefill;
    QDoubleSpinBox* m_prefixCacheHits; ///< Percent of a new prompt in the cache; vllm_v1 only.
    QSpinBox* m_kvBlocks;
    QDoubleSpinBox* m_gpuMemoryUtilization;
    QDoubleSpinBox* m_rateMultiplier;
    QDoubleSpinBox* m_ttftLimitMs;
    QDoubleSpinBox* m_tpotLimitMs;
    QDoubleSpinBox* m_itlLimitMs; ///< 0: no ITL limit.
    QDoubleSpinBox* m_e2eLimitMs; ///< 0: no E2E limit.
    QLabel* m_stepNote;
    QPushButton* m_calibrate;
    QLabel* m_calibration;
    /// The calibrated_on of the summary shown in m_calibration (empty: none shown).
    std::string m_shownCalibration;
    bool m_loading = false;
};

} // namespace bs::widgets
