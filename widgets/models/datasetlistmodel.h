#pragma once

#include "data/dataset.h"

#include <QAbstractTableModel>

namespace bs::widgets {

class ProjectDocument;

/// The datasets of the open project as a table: name, kind, rows, role, reader, warnings.
/// Rebuilt with a model reset whenever the document's datasets change.
class DatasetListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        KindColumn,
        RowsColumn,
        RoleColumn,
        ReaderColumn,
        WarningsColumn,
        ColumnCount
    };
    enum Roles
    {
        DatasetIdRole = Qt::UserRole + 1,
        SortRole,
    };

    explicit DatasetListModel(ProjectDocument* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    QString datasetId(int row) const;
    int rowOf(const QString& id) const;

    static QString kindText(data::DatasetKind kind);
    static QString roleText(data::DatasetRole role);
    static qint64 rowsOf(const data::Dataset& dataset);

private:
    void reload();

    ProjectDocument* m_document;
    std::vector<data::Dataset> m_datasets; ///< Snapshot; contents are shared, not copied.
};

} // namespace bs::widgets
