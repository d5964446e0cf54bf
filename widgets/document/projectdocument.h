#pragma once

#include "data/project.h"
#include "util/expected.h"

#include <QObject>
#include <QString>

class QUndoStack;

namespace bs::widgets {

/// The sections of a project that subsystems own as JSON (see data::Project).
enum class ProjectSection
{
    Model,
    Scenarios,
    Region,
    Playbook,
    Memo,
    Llm, ///< The LLM server under study (data::Project::llm).
};

/// The open project, its file path and its undo history. Every user edit goes through an undo
/// command that calls the apply*() functions, which emit the matching change signal. Lives on
/// the GUI thread; jobs get immutable snapshots (datasets are shared_ptr<const>).
class ProjectDocument : public QObject
{
    Q_OBJECT
public:
    explicit ProjectDocument(QObject* parent = nullptr);
    ~ProjectDocument() override;

    const data::Project& project() const { return m_project; }
    QString filePath() const { return m_filePath; }
    /// Title bar text: the project title, else the file name, else "Untitled".
    QString displayName() const;
    bool isModified() const;
    QUndoStack* undoStack() const { return m_undoStack; }

    /// Replaces the whole project (New, Open): clears the undo history and the modified flag.
    /// `modified` marks it unsaved from the start (a project recovered after a crash).
    void reset(data::Project project, const QString& filePath, bool modified = false);
    /// Saves atomically to `path` (the current path when empty); marks the state clean.
    Status save(const QString& path = {});

    // Undoable edits.
    void addDataset(data::Dataset dataset);
    void removeDataset(const QString& id);
    void setDatasetRole(const QString& id, data::DatasetRole role);
    void setDatasetTags(const QString& id, const data::RunTags& tags);
    void setDatasetName(const QString& id, const QString& name);
    /// Replaces a JSON section. Consecutive edits with the same non-negative mergeId (a slider
    /// drag, typing in one field) merge into one undo step.
    void setSection(ProjectSection section, nlohmann::json value, const QString& text,
                    int mergeId = -1);
    void setTitle(const QString& title);

    // Used by the undo commands only: apply without recording.
    void applyDatasets(std::vector<data::Dataset> datasets);
    void applySection(ProjectSection section, const nlohmann::json& value);
    void applyTitle(const std::string& title);
    const nlohmann::json& section(ProjectSection section) const;
    /// Replaces a dataset's content after a referenced file was (re)loaded; not an edit.
    void attachDatasetContent(const data::Dataset& loaded);

Q_SIGNALS:
    void projectReset();
    void datasetsChanged();
    void sectionChanged(bs::widgets::ProjectSection section);
    void titleChanged();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);

private:
    int indexOf(const QString& id) const;
    nlohmann::json& sectionRef(ProjectSection section);

    data::Project m_project;
    QString m_filePath;
    QUndoStack* m_undoStack;
};

} // namespace bs::widgets
