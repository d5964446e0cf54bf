#include "document/projectcommands.h"

namespace bs::widgets {

SetDatasetsCommand::SetDatasetsCommand(ProjectDocument* document, std::vector<data::Dataset> before,
                                       std::vector<data::Dataset> after, const QString& text)
    : QUndoCommand(text)
    , m_document(document)
    , m_before(std::move(before))
    , m_after(std::move(after))
{}

void SetDatasetsCommand::undo()
{
    m_document->applyDatasets(m_before);
}

void SetDatasetsCommand::redo()
{
    m_document->applyDatasets(m_after);
}

SetSectionCommand::SetSectionCommand(ProjectDocument* document, ProjectSection section,
                                     nlohmann::json before, nlohmann::json after,
                                     const QString& text, int mergeId)
    : QUndoCommand(text)
    , m_document(document)
    , m_section(section)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeId(mergeId)
{}

void SetSectionCommand::undo()
{
    m_document->applySection(m_section, m_before);
}

void SetSectionCommand::redo()
{
    m_document->applySection(m_section, m_after);
}

bool SetSectionCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const SetSectionCommand*>(other);
    if (next->m_section != m_section || m_mergeId < 0)
        return false;
    m_after = next->m_after;
    return true;
}

SetTitleCommand::SetTitleCommand(ProjectDocument* document, std::string before, std::string after)
    : QUndoCommand(QObject::tr("Rename project"))
    , m_document(document)
    , m_before(std::move(before))
    , m_after(std::move(after))
{}

void SetTitleCommand::undo()
{
    m_document->applyTitle(m_before);
}

void SetTitleCommand::redo()
{
    m_document->applyTitle(m_after);
}

} // namespace bs::widgets
