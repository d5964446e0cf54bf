#include "models/seriestablemodel.h"

#include <QLocale>

namespace bs::widgets {

SeriesTableModel::SeriesTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{}

void SeriesTableModel::setSeries(QList<SeriesData> series)
{
    beginResetModel();
    m_series = std::move(series);
    m_rows.clear();
    for (int s = 0; s < m_series.size(); ++s) {
        for (int p = 0; p < m_series[s].points.size(); ++p)
            m_rows.push_back({s, p});
    }
    endResetModel();
}

int SeriesTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SeriesTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : 3;
}

QVariant SeriesTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row& row = m_rows[index.row()];
    const SeriesData& series = m_series[row.series];
    const QPointF& point = series.points[row.point];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case 0:
            return series.name;
        case 1:
            return QLocale().toString(point.x(), 'g', 6);
        case 2:
            return QLocale().toString(point.y(), 'g', 6);
        default:
            return {};
        }
    }
    // Sorting uses the raw numbers, not the formatted text.
    if (role == Qt::UserRole) {
        switch (index.column()) {
        case 0:
            return series.name;
        case 1:
            return point.x();
        case 2:
            return point.y();
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() > 0)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant SeriesTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const QString x = m_series.isEmpty() ? tr("X") : m_series.front().xTitle;
    const QString y = m_series.isEmpty() ? tr("Y") : m_series.front().yTitle;
    switch (section) {
    case 0:
        return tr("Series");
    case 1:
        return x;
    case 2:
        return y;
    default:
        return {};
    }
}

} // namespace bs::widgets
