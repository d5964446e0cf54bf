#pragma once

#include <QMainWindow>

class QDockWidget;
class QMenu;
class QTabWidget;

namespace bs::widgets {
class DatasetPanel;
class JobRunner;
class JsonTreeView;
class MemoEditor;
class MessageBar;
class ProjectDocument;
class Settings;
class SweepView;
} // namespace bs::widgets

namespace bs::gui {

class FileController;

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
    QTabWidget* views() const { return m_views; }

    /// Opens FILE.bsproj, or the demo project when `path` is empty.
    void openInitial(const QString& path);
    /// Grabs the whole window once per view into `folder` (main-<view>.png), as the README and
    /// the AppStream metainfo use them. Returns the files written.
    QStringList saveScreenshots(const QString& folder);
    /// Projector mode: larger application and chart fonts, thicker lines; remembered.
    void setLargeFontMode(bool on);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createViews();
    void createDocks();
    void createMenus();
    void rebuildRecentMenu();
    void exportCurrentChart();
    void updateTitle();
    void refreshModelDock();
    void restoreLayout();
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
    widgets::DatasetPanel* m_datasetPanel = nullptr;
    widgets::JsonTreeView* m_modelTree = nullptr;
    widgets::MemoEditor* m_memoEditor = nullptr;
    FileController* m_files;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QAction* m_largeFontAction = nullptr;
    QFont m_normalFont;
};

} // namespace bs::gui
