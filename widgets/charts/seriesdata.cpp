#include "charts/seriesdata.h"

namespace bs::widgets {

QString csvField(const QString& text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString seriesToCsv(const QList<SeriesData>& series)
{
    QString out;
    QString previousHeader;
    for (const SeriesData& s : series) {
        const QString header = QStringLiteral("series,") + csvField(s.xTitle) + QLatin1Char(',') +
                               csvField(s.yTitle) + QLatin1Char('\n');
        if (header != previousHeader)
            out += header;
        previousHeader = header;
        for (const QPointF& p : s.points) {
            out += csvField(s.name) + QLatin1Char(',') + QString::number(p.x(), 'g', 17) +
                   QLatin1Char(',') + QString::number(p.y(), 'g', 17) + QLatin1Char('\n');
        }
    }
    return out;
}

} // namespace bs::widgets
