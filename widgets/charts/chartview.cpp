#include "charts/chartview.h"

#include "charts/chartlegend.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QLocale>
#include <QMenu>
#include <QSvgGenerator>
#include <QTextDocumentFragment>
#include <QToolTip>
#include <QXYSeries>

namespace bs::widgets {

namespace {
bool g_largeFontMode = false;

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}
} // namespace

ChartView::ChartView(QWidget* parent)
    : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::RectangleRubberBand);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(kMinimumWidthPx, kMinimumHeightPx);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    styleChart(chart(), palette());
    connect(chart(), &QChart::plotAreaChanged, this, &ChartView::keepAxisTitlesWhole);
}

void ChartView::keepAxisTitlesWhole()
{
    // Qt Charts shortens an axis title longer than its side of the plot to "Tempe…". The view
    // asks instead for the size at which every title fits (what the chart spends around the
    // plot, plus the longest title); a view that cannot give it scrolls.
    // Measured only once the chart has been laid out at a working size: squeezed to its bare
    // minimum, Qt wraps the chart title onto many lines and the space around the plot says
    // nothing about the space the chart needs.
    const QRectF plot = chart()->plotArea();
    if (plot.width() >= kMeasurablePlotPx && plot.height() < kMeasurablePlotPx) {
        // Wide enough but too short to measure (projector fonts on a page of stacked charts):
        // ask at once for an estimate of the room the titles need, then measure at that size.
        const int estimatePx = estimatedHeightForTitlesPx();
        if (estimatePx > minimumHeight())
            askForMinimumSize({minimumWidth(), estimatePx});
        return;
    }
    if (plot.width() < kMeasurablePlotPx || plot.height() < kMeasurablePlotPx)
        return;
    int widthPx = kMinimumWidthPx, heightPx = kMinimumHeightPx;
    for (const QAbstractAxis* axis : chart()->axes()) {
        if (!axis->isVisible() || !axis->isTitleVisible() || axis->titleText().isEmpty())
            continue;
        const int titlePx =
            QFontMetrics(axis->titleFont()).horizontalAdvance(axis->titleText()) + 8;
        if (axis->orientation() == Qt::Vertical)
            heightPx = std::max(heightPx, int(height() - plot.height()) + titlePx);
        else
            widthPx = std::max(widthPx, int(width() - plot.width()) + titlePx);
    }
    // A few pixels of slack: the space around the plot changes a little with the size (tick
    // labels), and following every change could make the layout swing between two sizes.
    const QSize wanted(widthPx, heightPx);
    const QSize change = wanted - minimumSize();
    if (std::abs(change.width()) > kSlackPx || std::abs(change.height()) > kSlackPx)
        askForMinimumSize(wanted);
}

void ChartView::askForMinimumSize(QSize wanted)
{
    // Applied after the chart's layout pass that measured it: setMinimumSize resizes the view at
    // once, and a resize from inside that pass leaves the chart at its old size (titles cut
    // although the view grew).
    QMetaObject::invokeMethod(
        this,
        [this, wanted] {
            if (minimumSize() != wanted)
                setMinimumSize(wanted);
        },
        Qt::QueuedConnection);
}

int ChartView::estimatedHeightForTitlesPx() const
{
    // Around the plot: the chart title (up to two lines), the x tick labels and x title, the
    // margins; along it: the longest vertical axis title.
    const int titleLinePx = QFontMetrics(chart()->titleFont()).height();
    int labelLinePx = QFontMetrics(labelFont()).height();
    int verticalTitlePx = kMeasurablePlotPx;
    for (const QAbstractAxis* axis : chart()->axes()) {
        labelLinePx = std::max(labelLinePx, QFontMetrics(axis->labelsFont()).height());
        if (axis->orientation() == Qt::Vertical && axis->isVisible() && axis->isTitleVisible())
            verticalTitlePx = std::max(
                verticalTitlePx,
                QFontMetrics(axis->titleFont())
                        .horizontalAdvance(
                            QTextDocumentFragment::fromHtml(axis->titleText()).toPlainText()) +
                    8);
    }
    const int aroundPlotPx = 2 * titleLinePx + 3 * labelLinePx + 4 * kSlackPx + 40;
    return aroundPlotPx + verticalTitlePx;
}

void ChartView::setLargeFontMode(bool on)
{
    g_largeFontMode = on;
}

bool ChartView::largeFontMode()
{
    return g_largeFontMode;
}

void ChartView::setUnits(const QString& xUnit, const QString& yUnit)
{
    m_xUnit = xUnit;
    m_yUnit = yUnit;
}

void ChartView::setPointNotes(QHash<QString, QList<QPair<QPointF, QString>>> notes)
{
    m_pointNotes = std::move(notes);
}

QString ChartView::tooltipText(const QString& series, const QPointF& point) const
{
    QString text =
        QStringLiteral("%1\n%2, %3")
            .arg(series, formatValue(point.x(), m_xUnit), formatValue(point.y(), m_yUnit));
    for (const auto& [notePoint, note] : m_pointNotes.value(series)) {
        if (notePoint == point)
            return text + QLatin1Char('\n') + note;
    }
    return text;
}

void ChartView::styleChart(QChart* chart, const QPalette& palette)
{
    chart->setTheme(isDark(palette) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(4, 4, 4, 4));
    const QColor text = palette.color(QPalette::Text);
    // Projector mode already enlarges the application font (1.4x); charts add a little on top,
    // not so much that titles, axis titles and tick labels no longer fit a 2x2 grid at 1080p.
    QFont titleFont = QApplication::font();
    titleFont.setBold(true);
    if (g_largeFontMode)
        titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    const QFont labelFont = ChartView::labelFont();
    chart->setTitleFont(titleFont);
    chart->setTitleBrush(text);
    chart->legend()->setFont(labelFont);
    chart->legend()->setLabelColor(text);
    const auto axes = chart->axes();
    for (QAbstractAxis* axis : axes) {
        axis->setLabelsFont(labelFont);
        axis->setTitleFont(labelFont);
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        QColor grid = text;
        grid.setAlpha(40);
        axis->setGridLineColor(grid);
    }
    const auto series = chart->series();
    for (QAbstractSeries* s : series) {
        if (auto* xy = qobject_cast<QXYSeries*>(s)) {
            QPen pen = xy->pen();
            pen.setWidthF(g_largeFontMode ? 3.5 : 2.0);
            xy->setPen(pen);
        }
    }
}

QFont ChartView::labelFont()
{
    QFont font = QApplication::font();
    if (g_largeFontMode)
        font.setPointSizeF(font.pointSizeF() * 1.1);
    return font;
}

void ChartView::seriesChanged()
{
    const auto allSeries = chart()->series();
    for (QAbstractSeries* series : allSeries) {
        auto* xy = qobject_cast<QXYSeries*>(series);
        if (!xy)
            continue;
        disconnect(xy, &QXYSeries::hovered, this, nullptr);
        disconnect(xy, &QXYSeries::clicked, this, nullptr);
        connect(xy, &QXYSeries::hovered, this, [this, xy](const QPointF& point, bool state) {
            showPointTooltip(xy, point, state);
        });
        connect(xy, &QXYSeries::clicked, this,
                [this, xy](const QPointF& point) { Q_EMIT pointClicked(xy->name(), point); });
    }
    styleChart(chart(), palette());
}

QString ChartView::formatValue(double value, const QString& unit) const
{
    const QString number = QLocale().toString(value, 'g', 5);
    return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

void ChartView::showPointTooltip(QXYSeries* series, const QPointF& point, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    // Hover gives the position under the cursor; show the nearest real data point instead.
    const auto points = series->points();
    QPointF nearest = point;
    double best = std::numeric_limits<double>::max();
    const QPointF cursor = chart()->mapToPosition(point, series);
    for (const QPointF& p : points) {
        const QPointF pixel = chart()->mapToPosition(p, series);
        const double d = QLineF(pixel, cursor).length();
        if (d < best) {
            best = d;
            nearest = p;
        }
    }
    QToolTip::showText(QCursor::pos(), tooltipText(series->name(), nearest), this);
}

void ChartView::resetZoom()
{
    chart()->zoomReset();
}

void ChartView::wheelEvent(QWheelEvent* event)
{
    const double factor = event->angleDelta().y() > 0 ? 1.25 : 0.8;
    // Zoom around the cursor: shrink the plot rectangle towards the mouse position.
    const QRectF area = chart()->plotArea();
    const QPointF centre = event->position();
    QRectF zoomed(area);
    zoomed.setWidth(area.width() / factor);
    zoomed.setHeight(area.height() / factor);
    zoomed.moveCenter(centre + (area.center() - centre) / factor);
    chart()->zoomIn(zoomed);
    event->accept();
}

void ChartView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
        chart()->zoomIn();
        break;
    case Qt::Key_Minus:
        chart()->zoomOut();
        break;
    case Qt::Key_Left:
        chart()->scroll(-20, 0);
        break;
    case Qt::Key_Right:
        chart()->scroll(20, 0);
        break;
    case Qt::Key_Up:
        chart()->scroll(0, 20);
        break;
    case Qt::Key_Down:
        chart()->scroll(0, -20);
        break;
    case Qt::Key_Home:
        resetZoom();
        break;
    default:
        QChartView::keyPressEvent(event);
        return;
    }
    event->accept();
}

void ChartView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::MiddleButton) {
        m_panning = true;
        m_lastPanPos = event->pos();
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void ChartView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_panning) {
        const QPoint delta = event->pos() - m_lastPanPos;
        chart()->scroll(-delta.x(), delta.y());
        m_lastPanPos = event->pos();
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
}

void ChartView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_panning && event->button() == Qt::MiddleButton) {
        m_panning = false;
        unsetCursor();
        event->accept();
        return;
    }
    // Right button would zoom out in QChartView; we use it for the context menu instead.
    if (event->button() == Qt::RightButton) {
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void ChartView::mouseDoubleClickEvent(QMouseEvent* event)
{
    resetZoom();
    event->accept();
}

void ChartView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    menu.addAction(tr("Reset zoom"), this, &ChartView::resetZoom);
    menu.addSeparator();
    menu.addAction(tr("Copy image"), this, &ChartView::copyImage);
    menu.addAction(tr("Export PNG or SVG…"), this, &ChartView::exportRequested);
    menu.exec(event->globalPos());
}

void ChartView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        styleChart(chart(), palette());
    QChartView::changeEvent(event);
}

QImage ChartView::renderImage(const QSize& size, double scale)
{
    const int legendHeight = m_legend ? m_legend->heightForWidth(size.width()) : 0;
    QImage image(QSize(size.width(), size.height() + legendHeight) * scale,
                 QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(palette().color(QPalette::Base));
    const QSize old = this->size();
    const bool resize = size != old;
    if (resize)
        this->resize(size);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), rect());
    if (m_legend)
        m_legend->paintTo(painter, QPoint(0, size.height()), size.width());
    painter.end();
    if (resize)
        this->resize(old);
    return image;
}

bool ChartView::savePng(const QString& path, double scale)
{
    return renderImage(size(), scale).save(path, "PNG");
}

bool ChartView::saveSvg(const QString& path)
{
    const int legendHeight = m_legend ? m_legend->heightForWidth(width()) : 0;
    const QRect whole(0, 0, width(), height() + legendHeight);
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(whole.size());
    generator.setViewBox(whole);
    // The on-screen title may be broken onto two lines as rich text.
    generator.setTitle(QTextDocumentFragment::fromHtml(chart()->title()).toPlainText());
    generator.setDescription(tr("BatchScope chart"));
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    render(&painter, rect(), rect());
    if (m_legend)
        m_legend->paintTo(painter, QPoint(0, height()), width());
    return painter.end();
}

void ChartView::copyImage()
{
    QApplication::clipboard()->setImage(renderImage(size(), 2.0));
}

} // namespace bs::widgets
