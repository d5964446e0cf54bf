// Axis decisions of a chart panel that depend on its data and width (plain functions, so the
// panel only applies them).
#include "charts/chartaxes.h"

#include <QFontMetrics>
#include <QLogValueAxis>
#include <QObject>
#include <QPointF>
#include <QStringList>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace bs::widgets {

QString fitToWidth(const QString& text, const QFont& font, int widthPx)
{
    // Qt Charts draws titles as rich text: escape always, so a "<" in a dataset name is text.
    const QFontMetrics metrics(font);
    if (metrics.horizontalAdvance(text) <= widthPx)
        return text.toHtmlEscaped();
    QStringList lines;
    const qsizetype unit = text.lastIndexOf(QStringLiteral(" ("));
    if (unit > 0 && metrics.horizontalAdvance(text.left(unit)) <= widthPx &&
        metrics.horizontalAdvance(text.mid(unit + 1)) <= widthPx) {
        lines = {text.left(unit), text.mid(unit + 1)};
    } else {
        const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (const QString& word : words) {
            const QString longer = lines.isEmpty() ? word : lines.back() + QLatin1Char(' ') + word;
            if (!lines.isEmpty() &&
                (metrics.horizontalAdvance(longer) <= widthPx || lines.size() == 3))
                lines.back() = longer;
            else
                lines.append(word);
        }
    }
    for (QString& line : lines)
        line = line.toHtmlEscaped();
    return lines.join(QStringLiteral("<br>"));
}

std::pair<double, double> seriesRange(const ChartContent& content, bool y, bool positiveOnly)
{
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    for (const SeriesSpec& spec : content.series)
        for (const QPointF& p : spec.data.points) {
            const double v = y ? p.y() : p.x();
            if (std::isfinite(v) && (!positiveOnly || v > 0.0)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
    return {lo, hi};
}

ChartContent resolveAxes(ChartContent content, int viewWidthPx, const QFont& labelFont)
{
    constexpr double kAutoLogSpan = 100.0;
    if (content.autoLogY && !content.logY) {
        const auto [lo, hi] = seriesRange(content, true, true);
        if (lo < hi && hi / lo >= kAutoLogSpan) {
            content.logY = true;
            content.yIncludesZero = false;
            content.yTitle += QObject::tr(", log scale");
        }
    }
    const QFontMetrics metrics(labelFont);
    // The plot is the view less the y axis's labels and title and the margins.
    const double plotWidthPx = std::max(100, viewWidthPx - 80);
    if (!content.logX) {
        const auto [lo, hi] = seriesRange(content, false, false);
        if (lo <= hi) {
            const AxisScale scale = AxisScale::linear(lo, hi, content.xMaxTicks);
            const double labelWidthPx =
                std::max(metrics.horizontalAdvance(QString::number(scale.min, 'g', 6)),
                         metrics.horizontalAdvance(QString::number(scale.max, 'g', 6))) +
                metrics.averageCharWidth() * 1.5;
            content.xMaxTicks = std::clamp(int(plotWidthPx / labelWidthPx), 2, content.xMaxTicks);
        }
    }
    if (content.logX) {
        const auto [lo, hi] = seriesRange(content, false, true);
        if (lo <= hi) {
            const double labelWidthPx = metrics.horizontalAdvance(QString::number(hi, 'g', 6)) +
                                        metrics.averageCharWidth() * 1.5;
            content.logXBase =
                AxisScale::fittingLogBase(content.logXBase, lo, hi, plotWidthPx, labelWidthPx);
        }
    }
    return content;
}

QAbstractAxis* makeAxis(bool log, double base, const AxisScale& scale, const QString& title)
{
    if (log) {
        auto* axis = new QLogValueAxis;
        axis->setBase(base);
        axis->setRange(scale.min, scale.max);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(base == 10.0 ? 8 : 0);
        axis->setTitleText(title);
        return axis;
    }
    auto* axis = new QValueAxis;
    axis->setRange(scale.min, scale.max);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(scale.min);
    axis->setTickInterval(scale.tickInterval);
    axis->setLabelFormat(QStringLiteral("%.6g"));
    axis->setTitleText(title);
    return axis;
}

} // namespace bs::widgets
