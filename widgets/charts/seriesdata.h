#pragma once

#include <QList>
#include <QPointF>
#include <QString>

namespace bs::widgets {

/// A named series in display units, as drawn and as listed in a chart's table view.
struct SeriesData
{
    QString name;
    QString xTitle; ///< Axis title with unit, e.g. "Batch size (items)".
    QString yTitle;
    QList<QPointF> points;
};

/// The series as CSV (series,x,y with the axis titles in the header); values unrounded.
QString seriesToCsv(const QList<SeriesData>& series);
/// One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
QString csvField(const QString& text);

} // namespace bs::widgets
