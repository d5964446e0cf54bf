#pragma once

#include "data/project.h"
#include "state/recentfiles.h"

#include <QObject>

#include <optional>

class QWidget;

namespace bs::widgets {
class MessageBar;
class ProjectDocument;
class Settings;
} // namespace bs::widgets

namespace bs::gui {

/// New / Open / Save / Save As / Open Recent and the "save changes?" question, on top of the
/// ProjectDocument. Errors go to the message bar; only the unsaved-changes question is modal.
class FileController : public QObject
{
    Q_OBJECT
public:
    FileController(widgets::ProjectDocument* document, widgets::Settings* settings,
                   widgets::MessageBar* messages, QWidget* window);

    /// Opens a project file; false (with the error shown) when it cannot be read.
    bool openProject(const QString& path);
    /// Opens the project built into the application (resources/demo/demo.bsproj).
    bool openDemo();
    /// Opens the built-in LLM demo (resources/demo/llm-demo.bsproj) with the public vLLM run
    /// from the shared data folder ($BATCHSCOPE_SHARED_DATA, else the one beside the source
    /// tree) when it is there; the message bar says which requests the demo serves.
    bool openLlmDemo();
    bool save();
    bool saveAs();
    /// Asks to save unsaved changes; false when the user cancels.
    bool maybeSave();

    QStringList recentFiles();

public Q_SLOTS:
    void newProject();
    void openWithDialog();

Q_SIGNALS:
    void recentFilesChanged();

private:
    bool saveTo(const QString& path);
    /// A project compiled into the application (resources/demo/<fileName>); errors are shown.
    std::optional<data::Project> readBuiltInProject(const QString& fileName);
    void remember(const QString& path);

    widgets::ProjectDocument* m_document;
    widgets::Settings* m_settings;
    widgets::MessageBar* m_messages;
    QWidget* m_window;
    widgets::RecentFiles m_recent;
};

} // namespace bs::gui
