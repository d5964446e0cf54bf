#include "document/projectdocument.h"

#include "document/projectcommands.h"
#include "io/projectfile.h"
#include "models/displaytext.h"

#include <QFileInfo>
#include <QUndoStack>

namespace bs::widgets {

ProjectDocument::ProjectDocument(QObject* parent)
    : QObject(parent)
    , m_undoStack(new QUndoStack(this))
{
    connect(m_undoStack, &QUndoStack::cleanChanged, this,
            [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
}

ProjectDocument::~ProjectDocument() = default;

QString ProjectDocument::displayName() const
{
    if (!m_project.title.empty())
        return displayText(m_project.title);
    if (!m_filePath.isEmpty())
        return QFileInfo(m_filePath).fileName();
    return tr("Untitled");
}

bool ProjectDocument::isModified() const
{
    return !m_undoStack->isClean();
}

void ProjectDocument::reset(data::Project project, const QString& filePath, bool modified)
{
    m_project = std::move(project);
    m_filePath = filePath;
    m_undoStack->clear();
    m_undoStack->setClean();
    if (modified)
        m_undoStack->resetClean(); // no state of the history matches the file any more
    Q_EMIT projectReset();
    Q_EMIT filePathChanged(m_filePath);
    Q_EMIT modifiedChanged(modified);
}

Status ProjectDocument::save(const QString& path)
{
    const QString target = path.isEmpty() ? m_filePath : path;
    if (target.isEmpty())
        return makeError(ErrorCode::Usage, "the project has no file name yet; use Save As");
    auto status = io::saveProject(m_project, target.toStdString());
    if (!status)
        return status;
    if (target != m_filePath) {
        m_filePath = target;
        Q_EMIT filePathChanged(m_filePath);
    }
    m_undoStack->setClean();
    return status;
}

int ProjectDocument::indexOf(const QString& id) const
{
    const std::string key = id.toStdString();
    for (std::size_t i = 0; i < m_project.datasets.size(); ++i) {
        if (m_project.datasets[i].id == key)
            return int(i);
    }
    return -1;
}

void ProjectDocument::addDataset(data::Dataset dataset)
{
    if (dataset.id.empty() || m_project.findDataset(dataset.id))
        dataset.id = m_project.nextDatasetId();
    auto after = m_project.datasets;
    // Baseline and candidate are unique roles: a new holder takes the role over.
    if (dataset.role != data::DatasetRole::None) {
        for (auto& existing : after) {
            if (existing.role == dataset.role)
                existing.role = data::DatasetRole::None;
        }
    }
    const QString text = tr("Import %1").arg(displayText(dataset.name));
    after.push_back(std::move(dataset));
    m_undoStack->push(new SetDatasetsCommand(this, m_project.datasets, std::move(after), text));
}

void ProjectDocument::removeDataset(const QString& id)
{
    const int index = indexOf(id);
    if (index < 0)
        return;
    auto after = m_project.datasets;
    const QString text = tr("Remove %1").arg(displayText(after[std::size_t(index)].name));
    after.erase(after.begin() + index);
    m_undoStack->push(new SetDatasetsCommand(this, m_project.datasets, std::move(after), text));
}

void ProjectDocument::setDatasetRole(const QString& id, data::DatasetRole role)
{
    const int index = indexOf(id);
    if (index < 0 || m_project.datasets[std::size_t(index)].role == role)
        return;
    auto after = m_project.datasets;
    // Baseline and candidate are unique roles: the previous holder loses it.
    if (role != data::DatasetRole::None) {
        for (auto& dataset : after) {
            if (dataset.role == role)
                dataset.role = data::DatasetRole::None;
        }
    }
    after[std::size_t(index)].role = role;
    m_undoStack->push(
        new SetDatasetsCommand(this, m_project.datasets, std::move(after), tr("Set dataset role")));
}

void ProjectDocument::setDatasetTags(const QString& id, const data::RunTags& tags)
{
    const int index = indexOf(id);
    if (index < 0 || m_project.datasets[std::size_t(index)].tags == tags)
        return;
    auto after = m_project.datasets;
    after[std::size_t(index)].tags = tags;
    m_undoStack->push(
        new SetDatasetsCommand(this, m_project.datasets, std::move(after), tr("Edit run tags")));
}

void ProjectDocument::setDatasetName(const QString& id, const QString& name)
{
    const int index = indexOf(id);
    if (index < 0 || name.isEmpty())
        return;
    auto after = m_project.datasets;
    after[std::size_t(index)].name = name.toStdString();
    m_undoStack->push(
        new SetDatasetsCommand(this, m_project.datasets, std::move(after), tr("Rename dataset")));
}

void ProjectDocument::setSection(ProjectSection which, nlohmann::json value, const QString& text,
                                 int mergeId)
{
    if (section(which) == value)
        return;
    m_undoStack->push(
        new SetSectionCommand(this, which, section(which), std::move(value), text, mergeId));
}

void ProjectDocument::setTitle(const QString& title)
{
    const std::string after = title.toStdString();
    if (after == m_project.title)
        return;
    m_undoStack->push(new SetTitleCommand(this, m_project.title, after));
}

void ProjectDocument::applyDatasets(std::vector<data::Dataset> datasets)
{
    m_project.datasets = std::move(datasets);
    Q_EMIT datasetsChanged();
}

void ProjectDocument::applySection(ProjectSection which, const nlohmann::json& value)
{
    sectionRef(which) = value;
    Q_EMIT sectionChanged(which);
}

void ProjectDocument::applyTitle(const std::string& title)
{
    m_project.title = title;
    Q_EMIT titleChanged();
}

void ProjectDocument::attachDatasetContent(const data::Dataset& loaded)
{
    const int index = indexOf(QString::fromStdString(loaded.id));
    if (index < 0)
        return;
    auto& dataset = m_project.datasets[std::size_t(index)];
    dataset.content = loaded.content;
    dataset.provenance.warnings = loaded.provenance.warnings;
    Q_EMIT datasetsChanged();
}

const nlohmann::json& ProjectDocument::section(ProjectSection which) const
{
    return const_cast<ProjectDocument*>(this)->sectionRef(which);
}

nlohmann::json& ProjectDocument::sectionRef(ProjectSection which)
{
    switch (which) {
    case ProjectSection::Model:
        return m_project.model;
    case ProjectSection::Scenarios:
        return m_project.scenarios;
    case ProjectSection::Region:
        return m_project.region;
    case ProjectSection::Playbook:
        return m_project.playbook;
    case ProjectSection::Memo:
        return m_project.memo;
    case ProjectSection::Llm:
        return m_project.llm;
    }
    return m_project.model;
}

} // namespace bs::widgets
