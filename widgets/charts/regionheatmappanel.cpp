#include "charts/regionheatmappanel.h"

#include "analysis/curvefigures.h"
#include "charts/charttools.h"
#include "charts/regioncelltext.h"
#include "charts/regionheatmap.h"
#include "charts/seriesdata.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLocale>
#include <QMenu>
#include <QPainter>
#include <QStackedWidget>
#include <QSvgGenerator>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <cmath>

namespace bs::widgets {

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

/// A table item that sorts by number; "—" where the metric is missing.
QTableWidgetItem* numberItem(double value)
{
    auto* item = new QTableWidgetItem;
    if (std::isfinite(value))
        item->setData(Qt::DisplayRole, QLocale::c().toString(value, 'g', 5).toDouble());
    else
        item->setText(QStringLiteral("—"));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QTableWidgetItem* textItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setToolTip(text);
    return item;
}

/// The cell's row of the table after its axis values: verdict, binding, margin, metrics.
QList<QTableWidgetItem*> cellItems(const analysis::RegionCell& cell)
{
    const auto& m = cell.metrics;
    return {textItem(regionCellCategory(cell)),
            textItem(bindingText(cell)),
            numberItem(smallestMargin(cell) * 100.0),
            numberItem(m.p99S.value * 1e3),
            numberItem(m.throughputPerS.value),
            numberItem(m.powerPerServerW.value),
            numberItem(m.energyPerInferenceJ.value * 1e3),
            textItem(q(analysis::cellEvidence(cell)))};
}

} // namespace

RegionHeatmapPanel::RegionHeatmapPanel(QWidget* parent)
    : QWidget(parent)
    , m_heatmap(new RegionHeatmap(this))
    , m_table(new QTableWidget(this))
    , m_stack(new QStackedWidget(this))
    , m_tableAction(new QAction(tr("Table"), this))
    , m_copyAction(new QAction(tr("Copy"), this))
    , m_exportAction(new QAction(tr("Export…"), this))
    , m_attachAction(new QAction(tr("Attach to memo"), this))
{
    m_tableAction->setCheckable(true);
    m_tableAction->setToolTip(tr("Show the numbers behind the heatmap, one row per cell"));
    m_copyAction->setToolTip(tr("Copy the heatmap as an image, or the table as CSV"));
    m_exportAction->setToolTip(tr("Save as PNG, SVG or CSV"));
    m_attachAction->setObjectName(QStringLiteral("attachToMemo"));
    m_attachAction->setToolTip(
        tr("Add the heatmap to the review memo as evidence (it goes into the report)"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSortingEnabled(true);
    m_table->verticalHeader()->hide();
    m_stack->addWidget(m_heatmap);
    m_stack->addWidget(m_table);

    QToolBar* bar = makeChartToolBar(this);
    bar->addActions(chartActions());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(bar);
    layout->addWidget(m_stack, 1);

    m_heatmap->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_heatmap, &QWidget::customContextMenuRequested, this,
            &RegionHeatmapPanel::showContextMenu);
    connect(m_tableAction, &QAction::toggled, this, &RegionHeatmapPanel::showTable);
    connect(m_copyAction, &QAction::triggered, this, &RegionHeatmapPanel::copy);
    connect(m_exportAction, &QAction::triggered, this, [this]() {
        const QString path = askExportPath(this, tr("region heatmap"));
        if (!path.isEmpty())
            exportTo(path);
    });
    connect(m_attachAction, &QAction::triggered, this, &RegionHeatmapPanel::attachToMemoRequested);
}

QList<QAction*> RegionHeatmapPanel::chartActions() const
{
    return {m_tableAction, m_copyAction, m_exportAction, m_attachAction};
}

bool RegionHeatmapPanel::isShowingTable() const
{
    return m_stack->currentWidget() == m_table;
}

void RegionHeatmapPanel::showTable(bool table)
{
    m_stack->setCurrentWidget(table ? static_cast<QWidget*>(m_table) : m_heatmap);
    if (m_tableAction->isChecked() != table)
        m_tableAction->setChecked(table);
}

void RegionHeatmapPanel::setResult(std::shared_ptr<const analysis::RegionResult> result,
                                   std::size_t columnAxis, std::size_t rowAxis,
                                   std::vector<std::size_t> fixed)
{
    m_heatmap->setResult(std::move(result), columnAxis, rowAxis, std::move(fixed));
    refillTable();
}

void RegionHeatmapPanel::refillTable()
{
    m_table->setSortingEnabled(false);
    m_table->clear();
    m_table->setRowCount(0);
    const analysis::RegionResult* result = m_heatmap->result();
    if (!result || m_heatmap->columns() == 0) {
        m_table->setColumnCount(0);
        return;
    }
    const auto& axes = result->spec.axes;
    const bool twoAxes = m_heatmap->rowAxis() != m_heatmap->columnAxis();
    QStringList headers{q(analysis::axisTitle(axes[m_heatmap->columnAxis()].kind))};
    if (twoAxes)
        headers << q(analysis::axisTitle(axes[m_heatmap->rowAxis()].kind));
    headers << tr("Verdict") << tr("Binding constraint") << tr("Smallest margin (%)")
            << tr("p99 (ms)") << tr("Throughput (req/s)") << tr("Power per server (W)")
            << tr("Energy per inference (mJ)") << tr("Evidence");
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    for (std::size_t row = 0; row < m_heatmap->rows(); ++row) {
        for (std::size_t column = 0; column < m_heatmap->columns(); ++column) {
            const auto* cell = m_heatmap->cellAtGrid(column, row);
            if (!cell)
                continue;
            QList<QTableWidgetItem*> items{
                textItem(q(axes[m_heatmap->columnAxis()].label(column)))};
            if (twoAxes)
                items.append(textItem(q(axes[m_heatmap->rowAxis()].label(row))));
            items.append(cellItems(*cell));
            const int at = m_table->rowCount();
            m_table->insertRow(at);
            for (int i = 0; i < items.size(); ++i)
                m_table->setItem(at, i, items[i]);
        }
    }
    m_table->resizeColumnsToContents();
    m_table->setSortingEnabled(true);
}

QString RegionHeatmapPanel::csv() const
{
    QStringList lines;
    QStringList header;
    for (int column = 0; column < m_table->columnCount(); ++column)
        header << csvField(m_table->horizontalHeaderItem(column)->text());
    lines << header.join(QLatin1Char(','));
    for (int row = 0; row < m_table->rowCount(); ++row) {
        QStringList fields;
        for (int column = 0; column < m_table->columnCount(); ++column) {
            const auto* item = m_table->item(row, column);
            fields << csvField(item ? item->text() : QString());
        }
        lines << fields.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

bool RegionHeatmapPanel::exportTo(const QString& path)
{
    if (path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
        return writeTextFile(path, csv());
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(m_heatmap->size());
        svg.setViewBox(m_heatmap->rect());
        svg.setTitle(tr("Feasible operating region"));
        QPainter painter;
        if (!painter.begin(&svg))
            return false;
        m_heatmap->render(&painter);
        return painter.end();
    }
    return m_heatmap->grab().save(path);
}

std::optional<figure::Figure> RegionHeatmapPanel::figure() const
{
    const analysis::RegionResult* result = m_heatmap->result();
    if (!result)
        return std::nullopt;
    for (auto& named : analysis::curvePackFigures(*result))
        if (named.name == "region-heatmap")
            return std::move(named.figure);
    return std::nullopt;
}

void RegionHeatmapPanel::copy()
{
    if (isShowingTable())
        QApplication::clipboard()->setText(csv());
    else
        QApplication::clipboard()->setImage(m_heatmap->grab().toImage());
}

void RegionHeatmapPanel::showContextMenu(const QPoint& position)
{
    QMenu menu(this);
    menu.addActions(chartActions());
    menu.exec(m_heatmap->mapToGlobal(position));
}

} // namespace bs::widgets
