#include "views/summarytable.h"

#include "panels/columnfitter.h"

#include <QHeaderView>
#include <QLocale>
#include <QObject>
#include <QTableWidget>

#include <cmath>

namespace bs::widgets {

QTableWidget* makeSummaryTable(const QStringList& headers, QWidget* parent)
{
    auto* table = new QTableWidget(0, int(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSortingEnabled(false);
    ColumnFitter::attach(table);
    return table;
}

void showEveryRow(QTableWidget* table)
{
    const auto fit = [table] {
        const int heightPx = table->horizontalHeader()->height() +
                             table->verticalHeader()->length() + 2 * table->frameWidth();
        table->setMinimumHeight(heightPx);
    };
    QObject::connect(table->verticalHeader(), &QHeaderView::sectionResized, table, fit);
    QObject::connect(table->horizontalHeader(), &QHeaderView::geometriesChanged, table, fit);
    QObject::connect(table->model(), &QAbstractItemModel::rowsInserted, table, fit);
    QObject::connect(table->model(), &QAbstractItemModel::rowsRemoved, table, fit);
    fit();
}

void appendSummaryRow(QTableWidget* table, const QStringList& cells)
{
    const int row = table->rowCount();
    table->insertRow(row);
    for (int column = 0; column < cells.size(); ++column) {
        auto* item = new QTableWidgetItem(cells[column]);
        item->setToolTip(cells[column]);
        table->setItem(row, column, item);
    }
}

QString msText(double seconds)
{
    return std::isfinite(seconds)
               ? QLocale().toString(seconds * 1e3, 'g', 4) + QStringLiteral(" ms")
               : QStringLiteral("—");
}

QString intervalMsText(const analysis::PercentileEstimate& estimate)
{
    const QString low = std::isfinite(estimate.ciLow)
                            ? QLocale().toString(estimate.ciLow * 1e3, 'g', 4)
                            : QStringLiteral("−∞");
    const QString high = std::isfinite(estimate.ciHigh)
                             ? QLocale().toString(estimate.ciHigh * 1e3, 'g', 4)
                             : QStringLiteral("+∞");
    QString text = QStringLiteral("[%1, %2] ms").arg(low, high);
    if (!estimate.sufficient)
        text += QObject::tr(" — too few samples (needs %1)").arg(estimate.minimumSamples);
    return text;
}

QString numberText(double value, int precision)
{
    return std::isfinite(value) ? QLocale().toString(value, 'g', precision) : QStringLiteral("—");
}

} // namespace bs::widgets
