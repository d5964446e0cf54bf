#include "filecontroller.h"

#include "analysis/llmdemoreview.h"
#include "document/projectdocument.h"
#include "io/llmdemo.h"
#include "io/projectfile.h"
#include "panels/messagebar.h"
#include "state/settings.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStandardPaths>

namespace bs::gui {

FileController::FileController(widgets::ProjectDocument* document, widgets::Settings* settings,
                               widgets::MessageBar* messages, QWidget* window)
    : QObject(window)
    , m_document(document)
    , m_settings(settings)
    , m_messages(messages)
    , m_window(window)
    , m_recent(settings->recentFiles())
{}

QStringList FileController::recentFiles()
{
    const QStringList existing = m_recent.existing();
    m_settings->setRecentFiles(m_recent.paths());
    return existing;
}

void FileController::remember(const QString& path)
{
    m_recent.add(path);
    m_settings->setRecentFiles(m_recent.paths());
    m_settings->setLastDirectory(QFileInfo(path).absolutePath());
    Q_EMIT recentFilesChanged();
}

void FileController::newProject()
{
    if (!maybeSave())
        return;
    data::Project project;
    m_document->reset(std::move(project), {});
    m_messages->clearMessage();
}

bool FileController::openProject(const QString& path)
{
    auto project = io::loadProject(path.toStdString());
    if (!project) {
        m_messages->showError(tr("Could not open the project. %1")
                                  .arg(QString::fromStdString(project.error().toString())));
        return false;
    }
    m_document->reset(std::move(*project), QFileInfo(path).absoluteFilePath());
    m_messages->clearMessage();
    remember(path);
    return true;
}

std::optional<data::Project> FileController::readBuiltInProject(const QString& fileName)
{
    QFile file(QStringLiteral(":/demo/") + fileName);
    if (!file.open(QIODevice::ReadOnly)) {
        m_messages->showError(
            tr("The built-in project %1 is missing from this build.").arg(fileName));
        return std::nullopt;
    }
    auto project = io::loadProjectFromBytes(file.readAll().toStdString(), fileName.toStdString());
    if (!project) {
        m_messages->showError(QString::fromStdString(project.error().toString()));
        return std::nullopt;
    }
    return std::move(*project);
}

bool FileController::openDemo()
{
    auto project = readBuiltInProject(QStringLiteral("demo.bsproj"));
    if (!project)
        return false;
    // No path: the demo is read-only, so Save asks where to put a copy.
    m_document->reset(std::move(*project), {});
    return true;
}

bool FileController::openLlmDemo()
{
    auto project = readBuiltInProject(QStringLiteral("llm-demo.bsproj"));
    if (!project)
        return false;
    const io::LlmDemoSource source = io::attachLlmDemoRun(*project, io::sharedDataDir());
    // The playbook's baseline and candidate: simulated from the scenario into the user's data
    // folder (the project references them by path, as every LLM run).
    const QString runs = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                         QStringLiteral("/llm-demo-runs");
    const auto review = analysis::attachLlmDemoReview(*project, runs.toStdString());
    m_document->reset(std::move(*project), {});
    if (!review) {
        m_messages->showMessage(widgets::MessageBar::Kind::Warning,
                                tr("%1 The playbook has no runs to review: %2")
                                    .arg(QString::fromStdString(source.note),
                                         QString::fromStdString(review.error().toString())));
        return true;
    }
    m_messages->showMessage(widgets::MessageBar::Kind::Information,
                            QString::fromStdString(source.note + " " + review->note));
    return true;
}

void FileController::openWithDialog()
{
    if (!maybeSave())
        return;
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Open project"), m_settings->lastDirectory(),
                                     tr("BatchScope projects (*.bsproj);;All files (*)"));
    if (!path.isEmpty())
        openProject(path);
}

bool FileController::saveTo(const QString& path)
{
    auto status = m_document->save(path);
    if (!status) {
        m_messages->showError(tr("The project was not saved; the file on disk is unchanged. %1")
                                  .arg(QString::fromStdString(status.error().toString())));
        return false;
    }
    remember(path);
    return true;
}

bool FileController::save()
{
    if (m_document->filePath().isEmpty())
        return saveAs();
    return saveTo(m_document->filePath());
}

bool FileController::saveAs()
{
    QString path = QFileDialog::getSaveFileName(
        m_window, tr("Save project"),
        m_document->filePath().isEmpty() ? m_settings->lastDirectory() : m_document->filePath(),
        tr("BatchScope projects (*.bsproj)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".bsproj");
    return saveTo(path);
}

bool FileController::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer = QMessageBox::question(
        m_window, tr("Unsaved changes"),
        tr("“%1” has unsaved changes. Save them first?").arg(m_document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return save();
    return true;
}

} // namespace bs::gui
