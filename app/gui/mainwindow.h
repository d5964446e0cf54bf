#pragma once

#include "figure/figure.h"

#include <QMainWindow>

#include <optional>

class QDialog;
class QDockWidget;
class QMenu;
class QTabWidget;

namespace bs::widgets {
class Autosave;
class ChartPanel;
class DatasetPanel;
class FitDialog;
class ValidationDialog;
class ImportController;
class JobRunner;
class MemoEditor;
class ModelPanel;
class LlmModelPanel;
class LlmServerView;
class SimulationView;
class TraceView;
class RegionView;
class PlaybookWizard;
class WorkbenchController;
class MessageBar;
class ProjectDocument;
class Settings;
class SweepView;
} // namespace bs::widgets

namespace bs::gui {

class FileController;
class ReportExporter;

/// The main window wires pages, docks and actions together; the work lives in widgets/.
/// Central area: a message bar above the views (tabs). Docks: Datasets, Model, Playbook & memo.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// `settings` may be null: the window then uses the application's default settings.
    explicit MainWindow(widgets::Settings* settings = nullptr, QWidget* parent = nullptr);
    ~MainWindow() override;

    widgets::ProjectDocument* document() const { return m_document; }
    FileController* files() const { return m_files; }
    widgets::MessageBar* messageBar() const { return m_messages; }
    widgets::JobRunner* jobs() const { return m_jobs; }
    widgets::SweepView* sweepView() const { return m_sweepView; }
    widgets::DatasetPanel* datasetPanel() const { return m_datasetPanel; }
    widgets::ImportController* importer() const { return m_importer; }
    widgets::ModelPanel* modelPanel() const { return m_modelPanel; }
    widgets::SimulationView* simulationView() const { return m_simulationView; }
    widgets::TraceView* traceView() const { return m_traceView; }
    widgets::RegionView* regionView() const { return m_regionView; }
    widgets::LlmServerView* llmServerView() const { return m_llmServerView; }
    widgets::LlmModelPanel* llmModelPanel() const { return m_llmModelPanel; }
    widgets::PlaybookWizard* playbookWizard() const { return m_playbookWizard; }
    ReportExporter* reportExporter() const { return m_reportExporter; }
    widgets::WorkbenchController* workbench() const { return m_workbench; }
    QTabWidget* views() const { return m_views; }

    /// Opens FILE.bsproj, or the demo project when `path` is empty.
    void openInitial(const QString& path);
    /// Opens the built-in LLM demo (File ▸ Open LLM Demo), on the LLM server tab.
    void openLlmDemo();
    /// Grabs the whole window once per view into `folder` (main-<view>.png), as the README and
    /// the AppStream metainfo use them. Returns the files written.
    QStringList saveScreenshots(const QString& folder);
    /// Projector mode: larger application and chart fonts, thicker lines; remembered.
    void setLargeFontMode(bool on);
    /// Opens "Fit the accelerator model to a sweep" on the sweep selected in the Datasets dock.
    widgets::FitDialog* openFitDialog();
    /// Opens "Predict a perf_analyzer sweep and compare" (the sweep selected, else the first
    /// perf_analyzer sweep).
    widgets::ValidationDialog* openValidationDialog();
    /// Starts keeping a recovery copy in `dir` (every `intervalMs`, and on each playbook step).
    void enableAutosave(const QString& dir, int intervalMs = 60000);
    widgets::Autosave* autosave() const { return m_autosave; }
    /// Offers the newest recovery copy left by a crashed BatchScope in the autosave folder.
    /// With `ask` false it is recovered without asking (tests). Returns whether one was loaded.
    bool offerRecovery(bool ask = true);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

public:
    /// Adds the chart to the memo's evidence (one undo step); it is drawn in the report.
    void attachChartToMemo(widgets::ChartPanel* panel);
    /// Adds a region heatmap (the Region view's, the LLM server tab's) to the memo's evidence as
    /// the report draws it; without a figure (no region yet) the message bar says so.
    void attachHeatmapToMemo(QWidget* panel, std::optional<figure::Figure> figure);

private:
    /// Stores a figure as memo evidence, naming the view `source` sits in.
    void attachFigureToMemo(QWidget* source, const QString& title, figure::Figure figure);
    void settleForScreenshot();
    void createViews();
    void createDocks();
    /// The Model dock shows the LLM server's knobs for a project that studies one, and the
    /// batching-server tabs (Sweep, Simulation, Region) hide for a project that studies only an
    /// LLM server.
    void showModelKnobsForProject();
    void connectRecommendation();
    /// Shows a fit or validation dialog (deleted on close) with its charts attachable to the memo.
    void showModelCheck(QDialog* dialog, const QList<widgets::ChartPanel*>& panels);
    void createMenus();
    void rebuildRecentMenu();
    void exportCurrentChart();
    void updateTitle();
    void restoreLayout();
    /// Side docks sized to the window (first show without a saved layout): on a 1366 px laptop
    /// the charts keep more than half the width instead of eliding their labels.
    /// Narrower windows put all docks on the right, as tabs.
    static constexpr int kTwoSidePanelsMinWidthPx = 1500;
    void fitDocksToWidth();
    void saveLayout();
    QDockWidget* addDock(const QString& title, const QString& objectName, QWidget* content,
                         Qt::DockWidgetArea area);

    std::unique_ptr<widgets::Settings> m_ownedSettings;
    widgets::Settings* m_settings;
    widgets::ProjectDocument* m_document;
    widgets::JobRunner* m_jobs;
    widgets::MessageBar* m_messages;
    QTabWidget* m_views;
    widgets::SweepView* m_sweepView;
    bool m_layoutRestored = false; ///< A saved window layout was applied.
    bool m_docksFitted = false;
    widgets::DatasetPanel* m_datasetPanel = nullptr;
    widgets::ModelPanel* m_modelPanel = nullptr;
    widgets::TraceView* m_traceView = nullptr;
    widgets::RegionView* m_regionView = nullptr;
    widgets::LlmServerView* m_llmServerView = nullptr;
    widgets::LlmModelPanel* m_llmModelPanel = nullptr;
    widgets::SimulationView* m_simulationView = nullptr;
    widgets::WorkbenchController* m_workbench = nullptr;
    widgets::MemoEditor* m_memoEditor = nullptr;
    widgets::PlaybookWizard* m_playbookWizard = nullptr;
    ReportExporter* m_reportExporter = nullptr;
    FileController* m_files;
    widgets::ImportController* m_importer = nullptr;
    widgets::Autosave* m_autosave = nullptr;
    QString m_recoveryDir;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QAction* m_largeFontAction = nullptr;
    QFont m_normalFont;
};

} // namespace bs::gui
