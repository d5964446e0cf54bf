#include "panels/columnfitter.h"

#include <QAbstractItemModel>
#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>

#include <algorithm>
#include <numeric>

namespace bs::widgets {

namespace {

/// How much of a column's longest word counts towards the table's minimum width.
constexpr int kLongWordCapPx = 160;

/// Padding a delegate adds around a cell's text (focus frame margin on each side, plus slack).
int cellPaddingPx(const QTableView* table)
{
    return 2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1) + 4;
}

/// A header wraps at spaces ("Throughput" over "(req/s)"), so its longest word is its minimum.
int headerWidthPx(const QTableView* table, int column, bool wholeLine)
{
    const QString text =
        table->model()->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
    const QFontMetrics metrics = table->horizontalHeader()->fontMetrics();
    int widest = 0;
    const QStringList parts = wholeLine ? QStringList{text} : text.split(QLatin1Char(' '));
    for (const QString& part : parts)
        widest = std::max(widest, metrics.horizontalAdvance(part));
    return widest + cellPaddingPx(table) + 4;
}

/// The widest piece of a column's text split at `separator`, with the cell's padding: split at
/// spaces, the longest word (what wrapping cannot break without splitting a figure); at line
/// breaks, the width the column would like.
int widestPiecePx(const QTableView* table, int column, QChar separator)
{
    const QFontMetrics metrics = table->fontMetrics();
    int widest = 0;
    const int rows = table->model()->rowCount();
    for (int row = 0; row < rows; ++row) {
        const QString text = table->model()->index(row, column).data().toString();
        for (const QString& piece : text.split(separator, Qt::SkipEmptyParts))
            widest = std::max(widest, metrics.horizontalAdvance(piece));
    }
    return widest + cellPaddingPx(table);
}

/// Qt's item views draw a word longer than its cell broken anywhere, but size the row as if it
/// stayed on one line, cutting the end off; this delegate sizes the row for the broken word.
class BrokenWordDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        const QString text = index.data(Qt::DisplayRole).toString();
        const auto* table = qobject_cast<const QTableView*>(option.widget);
        if (text.isEmpty() || !table)
            return size;
        const int room = table->columnWidth(index.column()) - cellPaddingPx(table);
        const QRect wrapped = option.fontMetrics.boundingRect(
            QRect(0, 0, std::max(1, room), 100000), Qt::TextWrapAnywhere, text);
        size.setHeight(std::max(size.height(), wrapped.height() + 6));
        return size;
    }
};

} // namespace

ColumnFitter::ColumnFitter(QTableView* table)
    : QObject(table)
    , m_table(table)
{
    table->setWordWrap(true);
    table->setItemDelegate(new BrokenWordDelegate(table));
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    table->horizontalHeader()->setStretchLastSection(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->horizontalHeader()->setDefaultAlignment(
        Qt::Alignment(Qt::AlignCenter | Qt::TextWordWrap));
    table->viewport()->installEventFilter(this);
    QAbstractItemModel* model = table->model();
    connect(model, &QAbstractItemModel::rowsInserted, this, &ColumnFitter::scheduleFit);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &ColumnFitter::scheduleFit);
    connect(model, &QAbstractItemModel::modelReset, this, &ColumnFitter::scheduleFit);
    connect(model, &QAbstractItemModel::layoutChanged, this, &ColumnFitter::scheduleFit);
    connect(model, &QAbstractItemModel::dataChanged, this, &ColumnFitter::scheduleFit);
    connect(model, &QAbstractItemModel::headerDataChanged, this, &ColumnFitter::scheduleFit);
}

ColumnFitter* ColumnFitter::attach(QTableView* table)
{
    auto* fitter = new ColumnFitter(table);
    fitter->fit();
    return fitter;
}

QVector<int> ColumnFitter::widthsFor(const QVector<int>& natural, const QVector<int>& minimum,
                                     int available)
{
    QVector<int> widths(natural.size());
    // Leftover pixels go to the last column that is shown (hidden ones have width 0).
    qsizetype last = natural.size() - 1;
    while (last > 0 && natural[last] == 0)
        --last;
    if (natural.isEmpty())
        return widths;
    const int naturalSum = std::accumulate(natural.begin(), natural.end(), 0);
    const int minimumSum = std::accumulate(minimum.begin(), minimum.end(), 0);
    if (naturalSum <= available) {
        widths = natural;
        widths[last] += available - naturalSum;
        return widths;
    }
    if (minimumSum >= available) {
        // Even the longest words do not fit. Narrow only the columns that hold the longest
        // words (an identifier, a file name), to one common cap, and let those words break
        // inside their cells; short labels and figures stay whole.
        const auto sumCappedAt = [&minimum](int cap) {
            int sum = 0;
            for (int m : minimum)
                sum += std::min(m, cap);
            return sum;
        };
        // The largest cap whose capped widths still fit (bisection on a monotone sum).
        int low = 0, high = *std::max_element(minimum.begin(), minimum.end());
        while (low < high) {
            const int cap = (low + high + 1) / 2;
            if (sumCappedAt(cap) <= available)
                low = cap;
            else
                high = cap - 1;
        }
        int used = 0;
        for (qsizetype i = 0; i < minimum.size(); ++i) {
            widths[i] = std::min(minimum[i], low);
            used += widths[i];
        }
        widths[last] += std::max(0, available - used);
        return widths;
    }
    // Share what is left above the minimums in proportion to how much more each column wants.
    const double share = double(available - minimumSum) / double(naturalSum - minimumSum);
    int used = 0;
    for (qsizetype i = 0; i < natural.size(); ++i) {
        widths[i] = minimum[i] + int((natural[i] - minimum[i]) * share);
        used += widths[i];
    }
    widths[last] += available - used; // Rounding leftovers.
    return widths;
}

void ColumnFitter::scheduleFit()
{
    if (m_fitPending)
        return;
    m_fitPending = true;
    QTimer::singleShot(0, this, [this]() {
        m_fitPending = false;
        fit();
    });
}

void ColumnFitter::fit()
{
    const int columns = m_table->model()->columnCount();
    QVector<int> natural, minimum;
    for (int column = 0; column < columns; ++column) {
        if (m_table->isColumnHidden(column)) {
            natural << 0;
            minimum << 0;
            continue;
        }
        minimum << std::max(headerWidthPx(m_table, column, false),
                            widestPiecePx(m_table, column, QLatin1Char(' ')));
        natural << std::max({minimum.back(), headerWidthPx(m_table, column, true),
                             widestPiecePx(m_table, column, QLatin1Char('\n'))});
    }
    // The width with a vertical scroll bar reserved, so that rows growing taller (and bringing
    // the bar) never changes the layout again.
    const int scrollBarPx =
        m_table->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_table);
    const int available = m_table->viewport()->width() - 1 -
                          (m_table->verticalScrollBar()->isVisible() ? 0 : scrollBarPx);
    // A layout must not squeeze the table below its headers and short words (the view scrolls
    // instead); a long identifier is allowed to break, so it counts only up to a cap.
    int minimumTablePx = 2 * m_table->frameWidth() + scrollBarPx + 1;
    for (int m : minimum)
        minimumTablePx += std::min(m, kLongWordCapPx);
    if (m_table->minimumWidth() != minimumTablePx)
        m_table->setMinimumWidth(minimumTablePx);
    const QVector<int> widths = widthsFor(natural, minimum, available);
    for (int column = 0; column < columns; ++column)
        if (!m_table->isColumnHidden(column))
            m_table->setColumnWidth(column, widths[column]);
    m_table->resizeRowsToContents();
    fitHeaderHeight();
}

void ColumnFitter::fitHeaderHeight()
{
    // QHeaderView sizes itself for one line; a wrapped title needs the lines it wraps onto.
    QHeaderView* header = m_table->horizontalHeader();
    const QFontMetrics metrics = header->fontMetrics();
    int lines = 1;
    for (int column = 0; column < header->count(); ++column) {
        if (m_table->isColumnHidden(column))
            continue;
        const QString text =
            m_table->model()->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        const int room = std::max(1, header->sectionSize(column) - cellPaddingPx(m_table) - 4);
        const QRect wrapped =
            metrics.boundingRect(QRect(0, 0, room, 100000), Qt::TextWordWrap, text);
        lines = std::max(lines, (wrapped.height() + metrics.height() - 1) / metrics.height());
    }
    const int padding = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    header->setMinimumHeight(lines * metrics.height() + 2 * padding + 2);
}

bool ColumnFitter::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        scheduleFit();
    return QObject::eventFilter(watched, event);
}

} // namespace bs::widgets
