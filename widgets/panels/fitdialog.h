#pragma once

#include "accel/calibration.h"

#include <QDialog>
#include <QPointer>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace bs::widgets {

class ChartPanel;
class JobRunner;
class ProjectDocument;

/// Fits the Model dock's accelerator model to a measured sweep of the project and shows how
/// well it does before anything changes: parameters with their 1σ, those the data cannot pin
/// (held at their priors, and why), R² of time and power, measured against fitted t(b) with the
/// 90% prediction interval and the end of the fitted range, and the residuals. "Use fitted
/// model" writes the calibrated parameters into the project's model (one undo step), so the
/// Sweep overlay, the Simulation and the Region use them.
class FitDialog : public QDialog
{
    Q_OBJECT
public:
    /// `datasetId`: the sweep to start with (empty: the baseline, else the first sweep).
    FitDialog(ProjectDocument* document, JobRunner* jobs, const QString& datasetId = {},
              QWidget* parent = nullptr);
    ~FitDialog() override;

    /// Fits now with the chosen sweep and options (it also fits on every change of them).
    void fit();
    std::shared_ptr<const accel::FitResult> result() const { return m_result; }
    QComboBox* sweepPicker() const { return m_sweep; }
    QCheckBox* workloadKnown() const { return m_workloadKnown; }
    QComboBox* runPicker() const { return m_run; }
    QLabel* summary() const { return m_summary; }
    QTableWidget* parameterTable() const { return m_parameters; }
    QPlainTextEdit* findings() const { return m_findings; }
    QList<ChartPanel*> panels() const { return m_panels; }
    QPushButton* useButton() const { return m_use; }

Q_SIGNALS:
    /// A fit (or its error) is on screen.
    void fitShown();

private:
    Expected<accel::FitOptions> options() const;
    void showFit(std::shared_ptr<const accel::FitResult> result, const QString& error);
    void showParameters(const accel::FitResult& fit);
    void useFittedModel();
    /// Lists the sweep's runs (known once a fit has split it), keeping the choice.
    void listRuns(int runCount);

    ProjectDocument* m_document;
    QPointer<JobRunner> m_jobs; ///< The main window's; may go first when the window closes.
    QComboBox* m_sweep;
    QCheckBox* m_workloadKnown;
    QComboBox* m_run;
    QLabel* m_summary;
    QTableWidget* m_parameters;
    QPlainTextEdit* m_findings;
    QList<ChartPanel*> m_panels;
    QPushButton* m_use;
    std::shared_ptr<const accel::FitResult> m_result;
    quint64 m_generation = 0;
};

/// "R² 0.998 (time), 0.97 (power); RMS residual 2.1%; fitted on batch 1–64 (7 sizes, run 1
/// of 2)": the figures a reviewer looks at first.
QString fitSummaryText(const accel::FitResult& fit);

} // namespace bs::widgets
