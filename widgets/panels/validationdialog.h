#pragma once

#include "analysis/perfanalyzervalidation.h"

#include <QDialog>
#include <QPointer>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace bs::widgets {

class ChartPanel;
class JobRunner;
class ProjectDocument;

/// Predicts a perf_analyzer concurrency sweep of the project row by row from its own server
/// columns (a closed-loop scenario per row, core analysis::validatePerfAnalyzer) and shows the
/// prediction beside the measurement: throughput and p50/p99 against concurrency, a table of
/// every row with its errors, their median and worst, and every setting assumed. Nothing is
/// fitted to the measured throughput or latency, so the errors say how far the simulator's
/// answers can be trusted on this server.
class ValidationDialog : public QDialog
{
    Q_OBJECT
public:
    ValidationDialog(ProjectDocument* document, JobRunner* jobs, const QString& datasetId = {},
                     QWidget* parent = nullptr);
    ~ValidationDialog() override;

    /// Predicts the chosen sweep with the settings shown (in the background).
    void predict();
    /// Fills the settings from the model's config.pbtxt and predicts again; false (the reason
    /// in the summary, the fields unchanged) when it cannot be read.
    bool loadTritonConfig(const QString& path);
    std::shared_ptr<const analysis::PerfAnalyzerValidation> result() const { return m_result; }
    QComboBox* sweepPicker() const { return m_sweep; }
    QSpinBox* instances() const { return m_instances; }
    QSpinBox* maxBatch() const { return m_maxBatch; }
    QSpinBox* requests() const { return m_requests; }
    QLineEdit* preferred() const { return m_preferred; }
    QDoubleSpinBox* maxQueueDelayUs() const { return m_maxQueueDelayUs; }
    QLabel* summary() const { return m_summary; }
    /// Says when the chosen sweep states its own settings (a Model Analyzer checkpoint) and
    /// the fields above are not used; hidden otherwise.
    QLabel* settingsSource() const { return m_settingsSource; }
    QTableWidget* rowTable() const { return m_rows; }
    QPlainTextEdit* assumptions() const { return m_assumptions; }
    QList<ChartPanel*> panels() const { return m_panels; }

Q_SIGNALS:
    /// A prediction (or its error) is on screen.
    void predictionShown();

private:
    Expected<analysis::TritonModelSettings> settings() const;
    void showPrediction(std::shared_ptr<const analysis::PerfAnalyzerValidation> result,
                        const QString& error);
    /// Enables the settings fields only for a sweep that does not state its own.
    void showSettingsSource(const data::SweepTable& sweep);

    ProjectDocument* m_document;
    QPointer<JobRunner> m_jobs; ///< The main window's; may go first when the window closes.
    QComboBox* m_sweep;
    QSpinBox* m_instances;
    QSpinBox* m_maxBatch;
    QLineEdit* m_preferred;
    QDoubleSpinBox* m_maxQueueDelayUs;
    QSpinBox* m_requests;
    QPushButton* m_predict;
    QLabel* m_summary;
    QLabel* m_settingsSource;
    QWidget* m_readConfig = nullptr;
    QTableWidget* m_rows;
    QPlainTextEdit* m_assumptions;
    QList<ChartPanel*> m_panels;
    std::shared_ptr<const analysis::PerfAnalyzerValidation> m_result;
    quint64 m_generation = 0;
};

/// "Throughput: median |error| 5.5% (worst 12.0%); p50: …; p99: … over 11 rows".
QString validationSummaryText(const analysis::PerfAnalyzerValidation& validation);

} // namespace bs::widgets
