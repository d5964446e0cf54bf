#include "charts/chartlegend.h"

#include "charts/chartview.h"

#include <QAbstractSeries>
#include <QAreaSeries>
#include <QChart>
#include <QEvent>
#include <QHelpEvent>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QToolTip>

namespace bs::widgets {

namespace {

constexpr int kMarginPx = 4;
constexpr int kGapPx = 6; ///< Between the swatch and its name.

/// The swatch's width: a short stretch of line, long enough to show dashes.
int swatchWidth(const QFontMetrics& metrics)
{
    return metrics.height() * 2;
}

/// How an entry's swatch is drawn, read from its series when painting: a light/dark switch
/// re-themes (and recolours) the series.
struct Swatch
{
    QColor colour;
    Qt::PenStyle style = Qt::SolidLine;
    bool dot = false;    ///< Scatter series, or a line with its points shown.
    bool filled = false; ///< A shaded band (a limit's acceptable side): a filled box.
};

Swatch swatchOf(const QAbstractSeries* series)
{
    Swatch out;
    if (const auto* area = qobject_cast<const QAreaSeries*>(series)) {
        out.colour = area->brush().color();
        out.style = Qt::NoPen;
        out.filled = true;
        return out;
    }
    const auto* xy = qobject_cast<const QXYSeries*>(series);
    if (!xy)
        return out;
    const bool scatter = qobject_cast<const QScatterSeries*>(xy) != nullptr;
    out.colour = xy->color();
    out.style = scatter ? Qt::NoPen : xy->pen().style();
    out.dot = scatter || xy->pointsVisible();
    return out;
}

} // namespace

ChartLegend::ChartLegend(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Click an entry to hide or show its series"));
}

void ChartLegend::setFromChart(QChart* chart, const QList<int>& leftOut,
                               const QStringList& toolTips)
{
    m_entries.clear();
    const auto series = chart->series();
    for (int i = 0; i < series.size(); ++i) {
        if (leftOut.contains(i))
            continue;
        m_entries.append({series[i]->name(), series[i], toolTips.value(i)});
    }
    updateGeometry();
    update();
}

QStringList ChartLegend::names() const
{
    QStringList out;
    for (const Entry& entry : m_entries)
        out << entry.name;
    return out;
}

QString ChartLegend::toolTipOf(const QString& name) const
{
    for (const Entry& entry : m_entries) {
        if (entry.name == name)
            return entry.toolTip;
    }
    return {};
}

bool ChartLegend::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    // An entry with its own tooltip says what it is; elsewhere the widget's hint about clicking.
    const QPoint position = static_cast<QHelpEvent*>(event)->pos();
    const QList<QRect> boxes = layoutFor(width());
    for (qsizetype i = 0; i < boxes.size() && i < m_entries.size(); ++i) {
        if (boxes[i].contains(position) && !m_entries[i].toolTip.isEmpty()) {
            QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(),
                               m_entries[i].toolTip + QStringLiteral("\n") + toolTip(), this);
            return true;
        }
    }
    return QWidget::event(event);
}

void ChartLegend::toggle(int index)
{
    if (index < 0 || index >= m_entries.size() || !m_entries[index].series)
        return;
    QAbstractSeries* series = m_entries[index].series;
    series->setVisible(!series->isVisible());
    update();
}

QFont ChartLegend::legendFont() const
{
    return ChartView::labelFont();
}

QList<QRect> ChartLegend::layoutFor(int width) const
{
    const QFontMetrics metrics(legendFont());
    const int lineHeight = metrics.height() + 2;
    const int spacing = metrics.horizontalAdvance(QLatin1Char('M'));
    const int swatch = swatchWidth(metrics) + kGapPx;
    const int room = std::max(1, width - 2 * kMarginPx);
    QList<QRect> boxes;
    int x = kMarginPx, y = kMarginPx, rowHeight = 0;
    for (const Entry& entry : m_entries) {
        int w = swatch + metrics.horizontalAdvance(entry.name);
        if (x > kMarginPx && x + w > width - kMarginPx) {
            x = kMarginPx;
            y += rowHeight;
            rowHeight = 0;
        }
        // A name longer than the panel is wide wraps onto more lines: cut, it would lose
        // exactly the figures (an interval, a unit) at its end.
        int h = lineHeight;
        if (w > room) {
            const QRect wrapped = metrics.boundingRect(
                QRect(0, 0, std::max(1, room - swatch), 100000), Qt::TextWordWrap, entry.name);
            w = room;
            h = std::max(lineHeight, wrapped.height() + 2);
        }
        boxes.append(QRect(x, y, w, h));
        rowHeight = std::max(rowHeight, h);
        x += w + spacing;
    }
    // Centre each row, as chart legends usually are.
    for (qsizetype first = 0; first < boxes.size();) {
        qsizetype last = first;
        while (last + 1 < boxes.size() && boxes[last + 1].y() == boxes[first].y())
            ++last;
        const int shift = std::max(0, (width - kMarginPx - boxes[last].right()) / 2);
        for (qsizetype i = first; i <= last; ++i)
            boxes[i].translate(shift, 0);
        first = last + 1;
    }
    return boxes;
}

QRect ChartLegend::nameRect(const QRect& box, const QFontMetrics& metrics)
{
    const int swatch = swatchWidth(metrics);
    return {box.left() + swatch + kGapPx, box.top(), box.width() - swatch, box.height()};
}

QStringList ChartLegend::namesCut() const
{
    const QFontMetrics metrics(legendFont());
    const QList<QRect> boxes = layoutFor(width());
    QStringList cut;
    for (qsizetype i = 0; i < boxes.size() && i < m_entries.size(); ++i) {
        const QRect room = nameRect(boxes[i], metrics);
        const QRect needed = metrics.boundingRect(QRect(0, 0, room.width(), 100000),
                                                  Qt::TextWordWrap, m_entries[i].name);
        if (needed.width() > room.width() || needed.height() > room.height())
            cut << m_entries[i].name;
    }
    return cut;
}

int ChartLegend::heightForWidth(int width) const
{
    const QList<QRect> boxes = layoutFor(width);
    return boxes.isEmpty() ? 0 : boxes.back().bottom() + 1 + kMarginPx;
}

// Not a height-for-width widget: Qt would then size the window for the legend wrapped at its
// narrowest. The height follows the width the legend actually has (resizeEvent re-asks).
QSize ChartLegend::sizeHint() const
{
    const int width = std::max(this->width(), 200);
    return {width, heightForWidth(width)};
}

QSize ChartLegend::minimumSizeHint() const
{
    return {0, heightForWidth(std::max(width(), 200))};
}

void ChartLegend::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (heightForWidth(width()) != height())
        updateGeometry();
}

void ChartLegend::paintEntries(QPainter& painter, const QList<QRect>& boxes) const
{
    const QFont font = legendFont();
    const QFontMetrics metrics(font);
    painter.setFont(font);
    const QColor text = palette().color(QPalette::Text);
    for (qsizetype i = 0; i < boxes.size() && i < m_entries.size(); ++i) {
        const Entry& entry = m_entries[i];
        const Swatch look = swatchOf(entry.series);
        const QRect& box = boxes[i];
        const bool visible = !entry.series || entry.series->isVisible();
        painter.setOpacity(visible ? 1.0 : 0.35);
        const int swatch = swatchWidth(metrics);
        const int midY = box.top() + (metrics.height() + 2) / 2;
        if (look.style != Qt::NoPen) {
            QPen pen(look.colour, ChartView::largeFontMode() ? 3.5 : 2.0, look.style);
            painter.setPen(pen);
            painter.drawLine(box.left(), midY, box.left() + swatch, midY);
        }
        if (look.filled) {
            // Opaque enough to read on the legend's plain background, as light as the band.
            QColor fill = look.colour;
            fill.setAlpha(std::max(fill.alpha(), 90));
            painter.setPen(Qt::NoPen);
            painter.fillRect(
                QRect(box.left(), midY - metrics.height() / 3, swatch, 2 * (metrics.height() / 3)),
                fill);
        }
        if (look.dot) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(look.colour);
            const int r = std::max(3, metrics.height() / 5);
            painter.drawEllipse(QPoint(box.left() + swatch / 2, midY), r, r);
            painter.setBrush(Qt::NoBrush);
        }
        painter.setPen(text);
        // The box was sized from this name's advance (kGapPx of slack keeps rounding in the
        // paint device from breaking a name that fits); a longer name wraps.
        painter.drawText(nameRect(box, metrics),
                         Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap | Qt::TextDontClip,
                         entry.name);
    }
    painter.setOpacity(1.0);
}

void ChartLegend::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    paintEntries(painter, layoutFor(width()));
}

void ChartLegend::paintTo(QPainter& painter, const QPoint& origin, int width) const
{
    painter.save();
    painter.translate(origin);
    painter.fillRect(QRect(0, 0, width, heightForWidth(width)), palette().color(QPalette::Base));
    paintEntries(painter, layoutFor(width));
    painter.restore();
}

void ChartLegend::mousePressEvent(QMouseEvent* event)
{
    const QList<QRect> boxes = layoutFor(width());
    for (qsizetype i = 0; i < boxes.size(); ++i) {
        if (boxes[i].contains(event->position().toPoint())) {
            toggle(int(i));
            return;
        }
    }
    QWidget::mousePressEvent(event);
}

void ChartLegend::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange)
        updateGeometry();
    QWidget::changeEvent(event);
}

} // namespace bs::widgets
