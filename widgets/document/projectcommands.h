#pragma once

#include "document/projectdocument.h"

#include <QUndoCommand>

namespace bs::widgets {

/// Replaces the dataset list (add, remove, role, tags, rename are all small list edits).
class SetDatasetsCommand : public QUndoCommand
{
public:
    SetDatasetsCommand(ProjectDocument* document, std::vector<data::Dataset> before,
                       std::vector<data::Dataset> after, const QString& text);
    void undo() override;
    void redo() override;

private:
    ProjectDocument* m_document;
    std::vector<data::Dataset> m_before;
    std::vector<data::Dataset> m_after;
};

/// Replaces one JSON section; merges with the next command of the same mergeId.
class SetSectionCommand : public QUndoCommand
{
public:
    SetSectionCommand(ProjectDocument* document, ProjectSection section, nlohmann::json before,
                      nlohmann::json after, const QString& text, int mergeId);
    void undo() override;
    void redo() override;
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    ProjectDocument* m_document;
    ProjectSection m_section;
    nlohmann::json m_before;
    nlohmann::json m_after;
    int m_mergeId;
};

class SetTitleCommand : public QUndoCommand
{
public:
    SetTitleCommand(ProjectDocument* document, std::string before, std::string after);
    void undo() override;
    void redo() override;

private:
    ProjectDocument* m_document;
    std::string m_before;
    std::string m_after;
};

} // namespace bs::widgets
