#include "charts/heatmappanel.h"

#include "charts/charttools.h"
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

QTableWidgetItem* heatmapNumberItem(double value)
{
    auto* item = new QTableWidgetItem;
    if (std::isfinite(value))
        item->setData(Qt::DisplayRole, QLocale::c().toString(value, 'g', 5).toDouble());
    else
        item->setText(QStringLiteral("—"));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QTableWidgetItem* heatmapTextItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setToolTip(text);
    return item;
}

HeatmapPanel::HeatmapPanel(QWidget* heatmap, const QString& name, QWidget* parent)
    : QWidget(parent)
    , m_heatmap(heatmap)
    , m_name(name)
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
    m_heatmap->setParent(this);
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
    connect(m_heatmap, &QWidget::customContextMenuRequested, this, &HeatmapPanel::showContextMenu);
    connect(m_tableAction, &QAction::toggled, this, &HeatmapPanel::showTable);
    connect(m_copyAction, &QAction::triggered, this, &HeatmapPanel::copy);
    connect(m_exportAction, &QAction::triggered, this, [this]() {
        const QString path = askExportPath(this, m_name);
        if (!path.isEmpty())
            exportTo(path);
    });
    connect(m_attachAction, &QAction::triggered, this, &HeatmapPanel::attachToMemoRequested);
}

QList<QAction*> HeatmapPanel::chartActions() const
{
    return {m_tableAction, m_copyAction, m_exportAction, m_attachAction};
}

bool HeatmapPanel::isShowingTable() const
{
    return m_stack->currentWidget() == m_table;
}

void HeatmapPanel::showTable(bool table)
{
    m_stack->setCurrentWidget(table ? static_cast<QWidget*>(m_table) : m_heatmap);
    if (m_tableAction->isChecked() != table)
        m_tableAction->setChecked(table);
}

void HeatmapPanel::setTableRows(const QStringList& headers,
                                const QList<QList<QTableWidgetItem*>>& rows)
{
    m_table->setSortingEnabled(false);
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(rows.isEmpty() ? 0 : int(headers.size()));
    if (!rows.isEmpty())
        m_table->setHorizontalHeaderLabels(headers);
    for (const auto& items : rows) {
        const int at = m_table->rowCount();
        m_table->insertRow(at);
        for (int i = 0; i < items.size(); ++i)
            m_table->setItem(at, i, items[i]);
    }
    m_table->resizeColumnsToContents();
    m_table->setSortingEnabled(true);
}

QString HeatmapPanel::csv() const
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

bool HeatmapPanel::exportTo(const QString& path)
{
    if (path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
        return writeTextFile(path, csv());
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(m_heatmap->size());
        svg.setViewBox(m_heatmap->rect());
        svg.setTitle(m_name);
        QPainter painter;
        if (!painter.begin(&svg))
            return false;
        m_heatmap->render(&painter);
        return painter.end();
    }
    return m_heatmap->grab().save(path);
}

void HeatmapPanel::copy()
{
    if (isShowingTable())
        QApplication::clipboard()->setText(csv());
    else
        QApplication::clipboard()->setImage(m_heatmap->grab().toImage());
}

void HeatmapPanel::showContextMenu(const QPoint& position)
{
    QMenu menu(this);
    menu.addActions(chartActions());
    menu.exec(m_heatmap->mapToGlobal(position));
}

} // namespace bs::widgets
