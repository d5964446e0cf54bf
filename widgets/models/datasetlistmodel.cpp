#include "models/datasetlistmodel.h"

#include "document/projectdocument.h"
#include "models/displaytext.h"

#include <QFileInfo>
#include <QLocale>

namespace bs::widgets {

DatasetListModel::DatasetListModel(ProjectDocument* document, QObject* parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    connect(document, &ProjectDocument::datasetsChanged, this, &DatasetListModel::reload);
    connect(document, &ProjectDocument::projectReset, this, &DatasetListModel::reload);
    reload();
}

void DatasetListModel::reload()
{
    beginResetModel();
    m_datasets = m_document->project().datasets;
    endResetModel();
}

QString DatasetListModel::kindText(data::DatasetKind kind)
{
    switch (kind) {
    case data::DatasetKind::Sweep:
        return tr("Sweep");
    case data::DatasetKind::RequestTrace:
        return tr("Request trace");
    case data::DatasetKind::KernelTrace:
        return tr("Kernel trace");
    case data::DatasetKind::PowerSeries:
        return tr("Power log");
    case data::DatasetKind::LlmRuns:
        return tr("LLM benchmark");
    }
    return {};
}

QString DatasetListModel::roleText(data::DatasetRole role)
{
    switch (role) {
    case data::DatasetRole::None:
        return {};
    case data::DatasetRole::Baseline:
        return tr("Baseline");
    case data::DatasetRole::Candidate:
        return tr("Candidate");
    }
    return {};
}

qint64 DatasetListModel::rowsOf(const data::Dataset& dataset)
{
    if (auto sweep = dataset.sweep())
        return qint64(sweep->points.size());
    if (auto trace = dataset.requestTrace())
        return qint64(trace->size());
    if (auto trace = dataset.kernelTrace())
        return qint64(trace->events.size());
    if (auto series = dataset.powerSeries())
        return qint64(series->size());
    if (auto set = dataset.llmRuns()) {
        // Per-request records when the tool saved them, else one row per run (aggregates).
        qint64 requests = 0;
        for (const auto& run : set->runs)
            requests += qint64(run.requests.size());
        return requests > 0 ? requests : qint64(set->runs.size());
    }
    return -1;
}

int DatasetListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_datasets.size());
}

int DatasetListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DatasetListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_datasets.size()))
        return {};
    const data::Dataset& d = m_datasets[std::size_t(index.row())];
    if (role == DatasetIdRole)
        return QString::fromStdString(d.id);
    const qint64 rows = rowsOf(d);
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case NameColumn:
            // Editing starts from the name as stored; showing it makes controls visible.
            return role == Qt::EditRole ? QString::fromStdString(d.name) : displayText(d.name);
        case KindColumn:
            return kindText(d.kind);
        case RowsColumn:
            return rows < 0 ? tr("not loaded") : QLocale().toString(rows);
        case RoleColumn:
            return roleText(d.role);
        case ReaderColumn:
            return QString::fromStdString(d.provenance.reader);
        case WarningsColumn:
            return d.provenance.warnings.empty() ? QString()
                                                 : QString::number(d.provenance.warnings.size());
        default:
            return {};
        }
    }
    if (role == SortRole) {
        if (index.column() == RowsColumn)
            return rows;
        if (index.column() == WarningsColumn)
            return qint64(d.provenance.warnings.size());
        return data(index, Qt::DisplayRole);
    }
    if (role == Qt::ToolTipRole) {
        QString tip = QString::fromStdString(d.provenance.path);
        if (!d.provenance.sha256.empty())
            tip += QStringLiteral("\nSHA-256 ") + QString::fromStdString(d.provenance.sha256);
        return tip;
    }
    if (role == Qt::TextAlignmentRole &&
        (index.column() == RowsColumn || index.column() == WarningsColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant DatasetListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case KindColumn:
        return tr("Kind");
    case RowsColumn:
        return tr("Rows");
    case RoleColumn:
        return tr("Role");
    case ReaderColumn:
        return tr("Reader");
    case WarningsColumn:
        return tr("Warnings");
    default:
        return {};
    }
}

Qt::ItemFlags DatasetListModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == NameColumn)
        flags |= Qt::ItemIsEditable;
    return flags;
}

bool DatasetListModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || index.column() != NameColumn || role != Qt::EditRole)
        return false;
    const QString name = value.toString().trimmed();
    if (name.isEmpty())
        return false;
    // The document emits datasetsChanged, which resets this model with the new name.
    m_document->setDatasetName(datasetId(index.row()), name);
    return true;
}

QString DatasetListModel::datasetId(int row) const
{
    if (row < 0 || row >= int(m_datasets.size()))
        return {};
    return QString::fromStdString(m_datasets[std::size_t(row)].id);
}

int DatasetListModel::rowOf(const QString& id) const
{
    const std::string key = id.toStdString();
    for (std::size_t i = 0; i < m_datasets.size(); ++i) {
        if (m_datasets[i].id == key)
            return int(i);
    }
    return -1;
}

} // namespace bs::widgets
