#pragma once

#include "analysis/kernelanalysis.h"
#include "analysis/requestanalysis.h"
#include "analysis/thermalevidence.h"
#include "analysis/thermalmodelcheck.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QTableWidget;
class QTabWidget;

namespace bs::widgets {

class ChartPanel;
class LlmRunsPage;
template <typename T>
struct JobOutcome;
class JobRunner;
class ProjectDocument;

/// A power log's throttling evidence, and whether its temperatures follow the project model's
/// thermal RC (absent, with the reason, when the project has no usable model or the log no
/// temperature).
struct PowerLogAnalysis
{
    analysis::ThermalEvidence evidence;
    std::optional<analysis::ThermalModelCheck> model;
    std::string modelReason;
};

/// The trace page: pick a request trace, a kernel trace, a power log and an LLM serving
/// benchmark of the project; each is analysed in the background (lanes "trace-requests",
/// "trace-kernels", "trace-power", "trace-llm") and drawn: latency/queue-wait CDF with percentile
/// markers and 95% intervals, percentiles and throughput over time, batch sizes, per-stream
/// fairness and the tail decomposition; device time per step by kernel class and the top
/// kernels; power, clock and temperature aligned with throughput, and the logged temperature
/// against the project model's thermal RC; an LLM benchmark's runs on the "LLM serving" page
/// (LlmRunsPage).
class TraceView : public QWidget
{
    Q_OBJECT
public:
    TraceView(ProjectDocument* document, JobRunner* jobs, QWidget* parent = nullptr);

    void setLimits(std::optional<double> slaP99Ms, std::optional<double> powerCapW);
    QList<ChartPanel*> panels() const { return m_panels; }
    QTableWidget* requestSummary() const { return m_requestSummary; }
    QTableWidget* streamTable() const { return m_streams; }
    QTableWidget* kernelTable() const { return m_kernels; }
    QComboBox* requestPicker() const { return m_requestPicker; }
    QComboBox* kernelPicker() const { return m_kernelPicker; }
    QComboBox* powerPicker() const { return m_powerPicker; }
    QComboBox* llmPicker() const { return m_llmPicker; }
    LlmRunsPage* llmPage() const { return m_llmPage; }
    /// Brings the LLM serving page to the front; false (and nothing changed) when no LLM
    /// benchmark is chosen, so there is nothing on it to look at.
    bool showLlmPage();
    /// The latest analyses (null until one finished), for the playbook and tests.
    std::shared_ptr<const analysis::RequestAnalysis> requestAnalysis() const { return m_requests; }
    std::shared_ptr<const analysis::KernelAnalysis> kernelAnalysis() const
    {
        return m_kernelResult;
    }
    std::shared_ptr<const analysis::ThermalEvidence> thermalEvidence() const
    {
        return m_powerAnalysis ? std::shared_ptr<const analysis::ThermalEvidence>(
                                     m_powerAnalysis, &m_powerAnalysis->evidence)
                               : nullptr;
    }
    std::shared_ptr<const PowerLogAnalysis> powerAnalysis() const { return m_powerAnalysis; }

Q_SIGNALS:
    /// An analysis finished and was drawn.
    void analysed();

public Q_SLOTS:
    /// Refills the pickers from the project and re-analyses what changed.
    void refreshDatasets();

private:
    QWidget* buildRequestsPage();
    QWidget* buildKernelsPage();
    QWidget* buildPowerPage();
    ChartPanel* addPanel(QWidget* parent);
    void analyseRequests();
    void analyseKernels();
    void analysePower();
    void showLlmRuns();
    void showRequests(JobOutcome<analysis::RequestAnalysis> result);
    void showKernels(JobOutcome<analysis::KernelAnalysis> result);
    void showPower(JobOutcome<PowerLogAnalysis> result);
    void drawRequests();
    void drawPower();

    ProjectDocument* m_document;
    JobRunner* m_jobs;
    QComboBox* m_requestPicker;
    QComboBox* m_kernelPicker;
    QComboBox* m_powerPicker;
    QComboBox* m_llmPicker;
    QLabel* m_status;
    QTabWidget* m_tabs;
    QTableWidget* m_requestSummary = nullptr;
    QTableWidget* m_streams = nullptr;
    QTableWidget* m_tail = nullptr;
    QTableWidget* m_kernels = nullptr;
    QLabel* m_kernelNote = nullptr;
    QLabel* m_powerNote = nullptr;
    QList<ChartPanel*> m_panels;
    ChartPanel* m_cdf = nullptr;
    ChartPanel* m_percentiles = nullptr;
    ChartPanel* m_throughput = nullptr;
    ChartPanel* m_batches = nullptr;
    ChartPanel* m_kernelChart = nullptr;
    ChartPanel* m_power = nullptr;
    ChartPanel* m_clock = nullptr;
    ChartPanel* m_temperature = nullptr;
    ChartPanel* m_alignedThroughput = nullptr;
    LlmRunsPage* m_llmPage = nullptr;
    std::shared_ptr<const analysis::RequestAnalysis> m_requests;
    std::shared_ptr<const analysis::KernelAnalysis> m_kernelResult;
    std::shared_ptr<const PowerLogAnalysis> m_powerAnalysis;
    std::optional<double> m_slaP99Ms;
    std::optional<double> m_powerCapW;
};

} // namespace bs::widgets
