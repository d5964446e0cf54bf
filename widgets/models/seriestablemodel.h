#pragma once

#include "charts/seriesdata.h"

#include <QAbstractTableModel>

namespace bs::widgets {

/// The numbers behind a chart as a sortable table (Series, X, Y). Holds one snapshot and swaps
/// it whole with a model reset.
class SeriesTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit SeriesTableModel(QObject* parent = nullptr);

    void setSeries(QList<SeriesData> series);
    const QList<SeriesData>& series() const { return m_series; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        int series;
        int point;
    };
    QList<SeriesData> m_series;
    QList<Row> m_rows;
};

} // namespace bs::widgets
