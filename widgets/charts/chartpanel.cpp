#include "charts/chartpanel.h"

#include "analysis/regionpalette.h"
#include "charts/axisscale.h"
#include "charts/chartaxes.h"
#include "charts/chartlegend.h"
#include "charts/charttools.h"
#include "charts/chartview.h"
#include "models/seriestablemodel.h"
#include "util/decimate.h"

#include <QApplication>
#include <QAreaSeries>
#include <QClipboard>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QValueAxis>

#include <cmath>

namespace bs::widgets {

namespace {

constexpr qsizetype kDecimateAbovePoints = 100000;

/// Min/max decimation for series too long to hand to Qt Charts as they are.
QList<QPointF> drawablePoints(const QList<QPointF>& points, int widthPx)
{
    if (points.size() <= kDecimateAbovePoints)
        return points;
    std::vector<double> x, y;
    x.reserve(std::size_t(points.size()));
    y.reserve(std::size_t(points.size()));
    for (const QPointF& p : points) {
        x.push_back(p.x());
        y.push_back(p.y());
    }
    QList<QPointF> out;
    for (const XYPoint& p : decimateMinMax(x, y, std::size_t(std::max(widthPx, 200))))
        out.append(QPointF(p.x, p.y));
    return out;
}

/// Step-function points for an empirical CDF drawn as a line.
QList<QPointF> stepPoints(const QList<QPointF>& points)
{
    QList<QPointF> out;
    out.reserve(points.size() * 2);
    for (qsizetype i = 0; i < points.size(); ++i) {
        if (i > 0)
            out.append(QPointF(points[i].x(), points[i - 1].y()));
        out.append(points[i]);
    }
    return out;
}

/// The points Qt Charts gets: decimated, stepped for CDFs, and without the zeros and negatives a
/// logarithmic axis cannot place (they stay in the table view).
QList<QPointF> styledPoints(const SeriesSpec& spec, int widthPx, const ChartContent& content)
{
    QList<QPointF> points = drawablePoints(spec.data.points, widthPx);
    if (content.logX || content.logY)
        points.removeIf([&content](const QPointF& p) {
            return (content.logX && p.x() <= 0) || (content.logY && p.y() <= 0);
        });
    return spec.style == SeriesStyle::Step ? stepPoints(points) : points;
}

QXYSeries* makeSeries(const SeriesSpec& spec)
{
    QXYSeries* series = nullptr;
    if (spec.style == SeriesStyle::Scatter) {
        auto* scatter = new QScatterSeries;
        scatter->setMarkerSize(ChartView::largeFontMode() ? 12 : 8);
        scatter->setBorderColor(Qt::transparent);
        series = scatter;
    } else {
        auto* line = new QLineSeries;
        line->setPointsVisible(spec.style == SeriesStyle::Line);
        series = line;
    }
    series->setName(spec.data.name);
    if (spec.colour.isValid()) {
        series->setColor(spec.colour);
        QPen pen = series->pen();
        pen.setColor(spec.colour);
        if (spec.style == SeriesStyle::Dashed)
            pen.setStyle(Qt::DashLine);
        series->setPen(pen);
    } else if (spec.style == SeriesStyle::Dashed) {
        QPen pen = series->pen();
        pen.setStyle(Qt::DashLine);
        series->setPen(pen);
    }
    if (auto* scatter = qobject_cast<QScatterSeries*>(series); scatter && spec.emphasised) {
        scatter->setMarkerSize(ChartView::largeFontMode() ? 22 : 16);
        const auto outline = figure::palette::kRecommendedOutline;
        scatter->setBorderColor(QColor(outline.red, outline.green, outline.blue));
    }
    return series;
}

/// The limit lines whose acceptable side is shaded, in content order: each has one band series
/// after the reference lines.
QList<const ReferenceLine*> shadedReferences(const ChartContent& content)
{
    QList<const ReferenceLine*> out;
    for (const ReferenceLine& line : content.references)
        if (line.acceptable != AcceptableSide::None)
            out.append(&line);
    return out;
}

/// The translucent band on a limit's acceptable side, in the feasible colour the region charts
/// and the report use; no outline, so the limit line stays the one edge drawn.
QAreaSeries* makeBand(const ReferenceLine& line)
{
    auto* band = new QAreaSeries(new QLineSeries, new QLineSeries);
    band->setName(line.acceptableLabel);
    const auto feasible = figure::palette::kFeasible;
    QColor fill(feasible.red, feasible.green, feasible.blue);
    fill.setAlpha(40);
    band->setBrush(fill);
    band->setColor(fill);
    band->setPen(Qt::NoPen);
    return band;
}

/// Places a band between its limit and the visible edge of the axis on its acceptable side.
void placeBand(QAreaSeries* band, const ReferenceLine& line, const AxisScale& xScale,
               const AxisScale& yScale)
{
    const bool below = line.acceptable == AcceptableSide::Below;
    if (line.orientation == Qt::Horizontal) {
        const double edge = below ? yScale.min : yScale.max;
        band->upperSeries()->replace(
            {QPointF(xScale.min, line.value), QPointF(xScale.max, line.value)});
        band->lowerSeries()->replace({QPointF(xScale.min, edge), QPointF(xScale.max, edge)});
    } else {
        const double edge = below ? xScale.min : xScale.max;
        band->upperSeries()->replace({QPointF(edge, yScale.max), QPointF(line.value, yScale.max)});
        band->lowerSeries()->replace({QPointF(edge, yScale.min), QPointF(line.value, yScale.min)});
    }
}

/// The tooltip notes of every series, keyed by series name, for the chart view.
QHash<QString, QList<QPair<QPointF, QString>>> pointNotesOf(const ChartContent& content)
{
    QHash<QString, QList<QPair<QPointF, QString>>> notes;
    for (const SeriesSpec& spec : content.series) {
        const qsizetype count = std::min(spec.pointNotes.size(), spec.data.points.size());
        for (qsizetype i = 0; i < count; ++i)
            notes[spec.data.name].append({spec.data.points[i], spec.pointNotes[i]});
    }
    return notes;
}

struct Extent
{
    double minX = std::numeric_limits<double>::infinity();
    double maxX = -std::numeric_limits<double>::infinity();
    double minY = std::numeric_limits<double>::infinity();
    double maxY = -std::numeric_limits<double>::infinity();
    bool valid() const { return minX <= maxX && minY <= maxY; }
};

Extent extentOf(const ChartContent& content)
{
    Extent e;
    for (const SeriesSpec& spec : content.series) {
        for (const QPointF& p : spec.data.points) {
            if ((content.logX && p.x() <= 0) || (content.logY && p.y() <= 0))
                continue; // cannot be shown on a log axis
            e.minX = std::min(e.minX, p.x());
            e.maxX = std::max(e.maxX, p.x());
            e.minY = std::min(e.minY, p.y());
            e.maxY = std::max(e.maxY, p.y());
        }
    }
    for (const ReferenceLine& line : content.references) {
        if (line.orientation == Qt::Horizontal) {
            e.minY = std::min(e.minY, line.value);
            e.maxY = std::max(e.maxY, line.value);
        } else {
            e.minX = std::min(e.minX, line.value);
            e.maxX = std::max(e.maxX, line.value);
        }
    }
    return e;
}

} // namespace

ChartPanel::ChartPanel(QWidget* parent)
    : QWidget(parent)
    , m_view(new ChartView(this))
    , m_legend(new ChartLegend(this))
    , m_stack(new QStackedWidget(this))
    , m_table(new QTableView(this))
    , m_tableModel(new SeriesTableModel(this))
    , m_tableSort(new QSortFilterProxyModel(this))
    , m_tableToggle(new QToolButton(this))
    , m_emptyLabel(new QLabel(m_view))
{
    m_tableSort->setSortRole(Qt::UserRole);
    m_table->setModel(m_tableSort);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();

    // The chart with its wrapping legend under it (Qt Charts' own legend elides long names).
    auto* chartPage = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(chartPage);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->setSpacing(0);
    chartLayout->addWidget(m_view, 1);
    chartLayout->addWidget(m_legend);
    m_view->chart()->legend()->hide();
    m_view->setLegend(m_legend);
    m_stack->addWidget(chartPage);
    m_stack->addWidget(m_table);

    m_tableToggle->setText(tr("Table"));
    m_tableToggle->setCheckable(true);
    m_tableToggle->setToolTip(tr("Show the numbers behind the chart"));
    auto* reset = new QToolButton(this);
    reset->setText(tr("Reset zoom"));
    auto* copy = new QToolButton(this);
    copy->setText(tr("Copy"));
    copy->setToolTip(tr("Copy the chart as an image, or the table as CSV"));
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Save as PNG or SVG"));
    auto* attach = new QToolButton(this);
    attach->setObjectName(QStringLiteral("attachToMemo"));
    attach->setText(tr("Attach to memo"));
    attach->setToolTip(
        tr("Add this chart to the review memo as evidence (it goes into the report)"));

    QToolBar* bar = makeChartToolBar(this);
    for (QToolButton* button : {m_tableToggle, reset, copy, exportButton, attach}) {
        button->setAutoRaise(true);
        bar->addWidget(button);
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(bar);
    layout->addWidget(m_stack, 1);

    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->hide();
    m_view->installEventFilter(this);

    connect(m_tableToggle, &QToolButton::toggled, this, &ChartPanel::showTable);
    connect(reset, &QToolButton::clicked, m_view, &ChartView::resetZoom);
    connect(copy, &QToolButton::clicked, this, [this]() {
        if (isShowingTable())
            copyCsv();
        else
            m_view->copyImage();
    });
    connect(exportButton, &QToolButton::clicked, this, &ChartPanel::exportWithDialog);
    connect(attach, &QToolButton::clicked, this, &ChartPanel::attachToMemoRequested);
    connect(m_view, &ChartView::exportRequested, this, &ChartPanel::exportWithDialog);
    connect(m_view, &ChartView::pointClicked, this, &ChartPanel::pointClicked);
    // Axis titles are fitted to the plot area, which is known only after the chart's layout.
    connect(m_view->chart(), &QChart::plotAreaChanged, this, &ChartPanel::fitTitles);
}

bool ChartPanel::isShowingTable() const
{
    return m_stack->currentWidget() == m_table;
}

void ChartPanel::showTable(bool table)
{
    // The sorted view follows the data only while it is shown (m_tableSort); the user's sort
    // order is kept by the header and applied again.
    if (table && !m_tableSort->sourceModel()) {
        m_tableSort->setSourceModel(m_tableModel);
        const QHeaderView* header = m_table->horizontalHeader();
        if (header->isSortIndicatorShown())
            m_table->sortByColumn(header->sortIndicatorSection(), header->sortIndicatorOrder());
    } else if (!table) {
        m_tableSort->setSourceModel(nullptr);
    }
    m_stack->setCurrentWidget(table ? m_table : m_stack->widget(0));
    if (m_tableToggle->isChecked() != table)
        m_tableToggle->setChecked(table);
}

bool ChartPanel::canUpdateInPlace(const ChartContent& content) const
{
    if (content.series.size() != m_content.series.size() ||
        content.references.size() != m_content.references.size() ||
        content.logX != m_content.logX || content.logY != m_content.logY ||
        content.xTitle != m_content.xTitle || content.yTitle != m_content.yTitle)
        return false;
    for (qsizetype i = 0; i < content.series.size(); ++i) {
        if (content.series[i].data.name != m_content.series[i].data.name ||
            content.series[i].style != m_content.series[i].style ||
            content.series[i].inLegend != m_content.series[i].inLegend ||
            content.series[i].toolTip != m_content.series[i].toolTip)
            return false;
    }
    // The legend shows reference labels ("idle 24.4 W") and tooltips: new ones need a rebuild.
    for (qsizetype i = 0; i < content.references.size(); ++i) {
        if (content.references[i].label != m_content.references[i].label ||
            content.references[i].toolTip != m_content.references[i].toolTip ||
            content.references[i].acceptable != m_content.references[i].acceptable ||
            content.references[i].acceptableLabel != m_content.references[i].acceptableLabel)
            return false;
    }
    return !m_view->chart()->series().isEmpty() || content.series.isEmpty();
}

void ChartPanel::setContent(const ChartContent& requested)
{
    m_requested = requested;
    const ChartContent content = resolveAxes(requested, m_view->width(), axisLabelFont());
    if (canUpdateInPlace(content))
        updateInPlace(content);
    else
        rebuild(content);
    m_view->setPointNotes(pointNotesOf(content));
    m_content = content;
    fitTitles();
    QList<SeriesData> tableSeries;
    for (const SeriesSpec& spec : content.series)
        tableSeries.append(spec.data);
    m_tableModel->setSeries(tableSeries);

    bool empty = true;
    for (const SeriesSpec& spec : content.series)
        empty = empty && spec.data.points.isEmpty();
    showEmptyState(empty && !content.emptyText.isEmpty());
}

void ChartPanel::showEmptyState(bool show)
{
    // With nothing to draw, the axes and reference lines would only sit under the explanation
    // (and its text over them): the empty state shows the title and the explanation alone.
    // Only a change of state touches visibility: a reference line the user hid with a legend
    // click stays hidden while the data update.
    QChart* chart = m_view->chart();
    if (show || m_emptyShown) {
        const auto axes = chart->axes();
        for (QAbstractAxis* axis : axes)
            axis->setVisible(!show);
        const auto series = chart->series();
        for (qsizetype i = m_content.series.size(); i < series.size(); ++i)
            series[i]->setVisible(!show);
    }
    m_emptyShown = show;
    // Entries of series that draw nothing would only be noise under the explanation.
    m_legend->setVisible(!show);
    m_emptyLabel->setText(m_content.emptyText);
    m_emptyLabel->setVisible(show);
    placeEmptyLabel();
}

void ChartPanel::placeEmptyLabel()
{
    // Under the chart title (which may take two lines), never over it.
    const int titleHeightPx = 2 * QFontMetrics(m_view->chart()->titleFont()).height() + 12;
    m_emptyLabel->setGeometry(m_view->rect().adjusted(12, titleHeightPx, -12, -8));
}

bool ChartPanel::isShowingEmptyState() const
{
    return m_emptyShown;
}

QRect ChartPanel::emptyStateRect() const
{
    return m_emptyLabel->geometry();
}

QString ChartPanel::emptyStateText() const
{
    return isShowingEmptyState() ? m_emptyLabel->text() : QString();
}

void ChartPanel::rebuild(const ChartContent& content)
{
    QChart* chart = m_view->chart();
    chart->removeAllSeries();
    const auto oldAxes = chart->axes();
    for (QAbstractAxis* axis : oldAxes) {
        chart->removeAxis(axis);
        delete axis;
    }
    chart->setTitle(content.title.toHtmlEscaped()); // fitted to the width in setContent
    const int width = std::max(m_view->width(), 400);
    for (const SeriesSpec& spec : content.series) {
        QXYSeries* series = makeSeries(spec);
        series->replace(styledPoints(spec, width, content));
        chart->addSeries(series);
    }
    for (const ReferenceLine& line : content.references) {
        auto* series = new QLineSeries;
        series->setName(line.label);
        QPen pen(line.colour);
        pen.setStyle(Qt::DashDotLine);
        pen.setWidthF(2.0);
        series->setPen(pen);
        chart->addSeries(series);
    }
    for (const ReferenceLine* line : shadedReferences(content))
        chart->addSeries(makeBand(*line));
    applyAxes(content);
    m_view->setUnits(content.xUnit, content.yUnit);
    m_view->seriesChanged();
    QList<int> leftOut;
    QStringList toolTips;
    for (qsizetype i = 0; i < content.series.size(); ++i) {
        if (!content.series[i].inLegend)
            leftOut.append(int(i));
        toolTips.append(content.series[i].toolTip);
    }
    for (const ReferenceLine& line : content.references)
        toolTips.append(line.toolTip);
    for (const ReferenceLine* line : shadedReferences(content))
        toolTips.append(line->toolTip);
    m_legend->setFromChart(chart, leftOut, toolTips);
}

void ChartPanel::updateInPlace(const ChartContent& content)
{
    QChart* chart = m_view->chart();
    chart->setTitle(content.title.toHtmlEscaped()); // fitted to the width in setContent
    const auto series = chart->series();
    const int width = std::max(m_view->width(), 400);
    for (qsizetype i = 0; i < content.series.size(); ++i) {
        if (auto* xy = qobject_cast<QXYSeries*>(series[i]))
            xy->replace(styledPoints(content.series[i], width, content));
    }
    applyAxes(content);
}

void ChartPanel::applyAxes(const ChartContent& content)
{
    QChart* chart = m_view->chart();
    Extent extent = extentOf(content);
    if (extent.valid() && !content.logY && content.yMarginFraction > 0) {
        const double margin = (extent.maxY - extent.minY) * content.yMarginFraction;
        extent.minY -= margin;
        extent.maxY += margin;
    }
    AxisScale xScale, yScale;
    if (extent.valid()) {
        xScale = content.logX ? AxisScale::logarithmic(extent.minX, extent.maxX, content.logXBase)
                              : AxisScale::linear(extent.minX, extent.maxX, content.xMaxTicks);
        yScale = content.logY
                     ? AxisScale::logarithmic(extent.minY, extent.maxY)
                     : AxisScale::linear(extent.minY, extent.maxY, 7, content.yIncludesZero);
    } else {
        // Nothing to place: a range that a logarithmic axis can show too (it cannot start at 0).
        if (content.logX)
            xScale = AxisScale::logarithmic(1.0, content.logXBase, content.logXBase);
        if (content.logY)
            yScale = AxisScale::logarithmic(1.0, 10.0);
    }
    // Reference lines span the whole visible axis.
    const auto series = chart->series();
    for (qsizetype i = 0; i < content.references.size(); ++i) {
        auto* line = qobject_cast<QXYSeries*>(series[content.series.size() + i]);
        const ReferenceLine& ref = content.references[i];
        if (ref.orientation == Qt::Horizontal)
            line->replace({QPointF(xScale.min, ref.value), QPointF(xScale.max, ref.value)});
        else
            line->replace({QPointF(ref.value, yScale.min), QPointF(ref.value, yScale.max)});
    }
    const auto shaded = shadedReferences(content);
    const qsizetype firstBand = content.series.size() + content.references.size();
    for (qsizetype i = 0; i < shaded.size(); ++i)
        if (auto* band = qobject_cast<QAreaSeries*>(series.value(firstBand + i)))
            placeBand(band, *shaded[i], xScale, yScale);
    QList<QAbstractAxis*> horizontal = chart->axes(Qt::Horizontal);
    QList<QAbstractAxis*> vertical = chart->axes(Qt::Vertical);
    if (horizontal.isEmpty() || vertical.isEmpty()) {
        QAbstractAxis* x =
            makeAxis(content.logX, content.logXBase, xScale, content.xTitle.toHtmlEscaped());
        QAbstractAxis* y = makeAxis(content.logY, 10.0, yScale, content.yTitle.toHtmlEscaped());
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        for (QAbstractSeries* s : series) {
            s->attachAxis(x);
            s->attachAxis(y);
        }
        return;
    }
    auto update = [](QAbstractAxis* axis, const AxisScale& scale) {
        axis->setRange(scale.min, scale.max);
        if (auto* value = qobject_cast<QValueAxis*>(axis)) {
            value->setTickAnchor(scale.min);
            value->setTickInterval(scale.tickInterval);
        }
    };
    if (auto* log = qobject_cast<QLogValueAxis*>(horizontal.front()))
        log->setBase(content.logXBase);
    update(horizontal.front(), xScale);
    update(vertical.front(), yScale);
}

void ChartPanel::fitTitles()
{
    QChart* chart = m_view->chart();
    // The title gets the chart's width less its margins and its layout's contents margins.
    qreal left = 0, top = 0, right = 0, bottom = 0;
    if (chart->layout())
        chart->layout()->getContentsMargins(&left, &top, &right, &bottom);
    const int width = m_view->width() - chart->margins().left() - chart->margins().right() -
                      int(std::ceil(left + right)) - 8;
    chart->setTitle(fitToWidth(m_content.title, chart->titleFont(), width));
    // Axis titles run along the plot area (known from the last layout; estimated before one).
    const QRectF plot = chart->plotArea();
    const int plotWidth = plot.width() > 0 ? int(plot.width()) : width - 100;
    const int plotHeight = plot.height() > 0 ? int(plot.height()) : m_view->height() - 120;
    const auto horizontal = chart->axes(Qt::Horizontal);
    if (!horizontal.isEmpty())
        horizontal.front()->setTitleText(
            fitToWidth(m_content.xTitle, horizontal.front()->titleFont(), plotWidth));
    const auto vertical = chart->axes(Qt::Vertical);
    if (!vertical.isEmpty())
        vertical.front()->setTitleText(
            fitToWidth(m_content.yTitle, vertical.front()->titleFont(), plotHeight));
}

QFont ChartPanel::axisLabelFont() const
{
    const auto horizontal = m_view->chart()->axes(Qt::Horizontal);
    return horizontal.isEmpty() ? m_view->chart()->font() : horizontal.front()->labelsFont();
}

bool ChartPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view && event->type() == QEvent::Resize) {
        placeEmptyLabel();
        const ChartContent resized = resolveAxes(m_requested, m_view->width(), axisLabelFont());
        // Only the x axis's ticks depend on the width: retick it, keep the series.
        if (resized.logXBase != m_content.logXBase || resized.xMaxTicks != m_content.xMaxTicks) {
            m_content.logXBase = resized.logXBase;
            m_content.xMaxTicks = resized.xMaxTicks;
            applyAxes(m_content);
        }
        fitTitles();
    }
    return QWidget::eventFilter(watched, event);
}

QString ChartPanel::csv() const
{
    return seriesToCsv(m_tableModel->series());
}

void ChartPanel::copyCsv() const
{
    QApplication::clipboard()->setText(csv());
}

bool ChartPanel::exportTo(const QString& path)
{
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive))
        return m_view->saveSvg(path);
    if (path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
        return writeTextFile(path, csv());
    return m_view->savePng(path);
}

void ChartPanel::exportWithDialog()
{
    const QString path =
        askExportPath(this, m_content.title.isEmpty() ? tr("chart") : m_content.title);
    if (!path.isEmpty())
        exportTo(path);
}

QLayout* chartRow(QWidget* parent, int count, int minHeightPx, QList<ChartPanel*>& panels)
{
    auto* row = new QHBoxLayout;
    for (int i = 0; i < count; ++i) {
        auto* panel = new ChartPanel(parent);
        panel->setMinimumHeight(minHeightPx);
        panels.append(panel);
        row->addWidget(panel);
    }
    return row;
}

} // namespace bs::widgets
