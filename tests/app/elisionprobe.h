#pragma once

// Finds text a user cannot read whole in a window: clipped labels, cut combo box text, elided or
// clipped table cells and headers, columns pushed behind a horizontal scroll bar, chart tick
// labels and titles that Qt Charts shortened with "...", legend names cut.
#include "charts/chartlegend.h"

#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QScrollBar>
#include <QStyleOptionComboBox>
#include <QTabBar>
#include <QTableView>
#include <QTextDocument>

namespace bs::test {

namespace elision {

inline QString where(const QWidget* widget)
{
    QString path;
    for (const QWidget* w = widget; w; w = w->parentWidget()) {
        if (!w->objectName().isEmpty()) {
            path = w->objectName();
            break;
        }
    }
    return QStringLiteral("%1 %2").arg(QString::fromLatin1(widget->metaObject()->className()),
                                       path);
}

/// A dock tabbed with others is on screen only when its tab is the current one (Qt keeps the
/// others "visible", stacked behind it).
inline bool dockInFront(const QDockWidget* dock)
{
    const auto* window = qobject_cast<const QMainWindow*>(dock->parentWidget());
    if (!window || window->tabifiedDockWidgets(const_cast<QDockWidget*>(dock)).isEmpty())
        return true;
    for (const QTabBar* bar : window->findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        for (int tab = 0; tab < bar->count(); ++tab)
            if (bar->tabText(tab) == dock->windowTitle())
                return bar->currentIndex() == tab;
    }
    return true;
}

inline bool inFrontDock(const QWidget* widget)
{
    for (const QWidget* w = widget; w; w = w->parentWidget())
        if (const auto* dock = qobject_cast<const QDockWidget*>(w))
            return dockInFront(dock);
    return true;
}

/// Shown on the current page: a view in a scroll area counts in full, scrolled out of sight or
/// not (text further down is not cut, but it must be whole when scrolled to).
inline bool isShown(const QWidget* widget)
{
    return widget->isVisible() && !widget->size().isEmpty() && inFrontDock(widget);
}

inline bool textFits(const QFontMetrics& metrics, const QString& text, int widthPx)
{
    for (const QString& line : text.split(QLatin1Char('\n')))
        if (metrics.horizontalAdvance(line) > widthPx)
            return false;
    return true;
}

inline void checkLabel(const QLabel* label, QStringList& cut)
{
    const QString text = label->text();
    if (text.isEmpty() || label->wordWrap() || label->textFormat() == Qt::RichText ||
        (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(text)))
        return;
    const int room =
        label->contentsRect().width() - 2 * label->margin() - std::max(0, label->indent());
    if (!textFits(label->fontMetrics(), text, room))
        cut << QStringLiteral("%1: label \"%2\" needs %3 px, has %4")
                   .arg(where(label), text)
                   .arg(label->fontMetrics().horizontalAdvance(text))
                   .arg(room);
}

inline void checkCombo(const QComboBox* combo, QStringList& cut)
{
    const QString text = combo->currentText();
    if (text.isEmpty() || combo->isEditable())
        return;
    QStyleOptionComboBox option;
    option.initFrom(combo);
    const QRect field = combo->style()->subControlRect(QStyle::CC_ComboBox, &option,
                                                       QStyle::SC_ComboBoxEditField, combo);
    if (!textFits(combo->fontMetrics(), text, field.width()))
        cut << QStringLiteral("%1: combo \"%2\" needs %3 px, has %4")
                   .arg(where(combo), text)
                   .arg(combo->fontMetrics().horizontalAdvance(text))
                   .arg(field.width());
}

/// A line edit's text scrolls out of sight when it is wider than the field (spin boxes and
/// editable combo boxes hold short values and are left out).
inline void checkLineEdit(const QLineEdit* edit, QStringList& cut)
{
    const QString text = edit->text();
    if (text.isEmpty() || !edit->isVisible() ||
        qobject_cast<const QAbstractSpinBox*>(edit->parentWidget()) ||
        qobject_cast<const QComboBox*>(edit->parentWidget()))
        return;
    const int framePx =
        edit->hasFrame() ? edit->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, nullptr, edit)
                         : 0;
    const QMargins textMargins = edit->textMargins();
    const int room =
        edit->contentsRect().width() - textMargins.left() - textMargins.right() - 2 * framePx - 4;
    if (!textFits(edit->fontMetrics(), text, room))
        cut << QStringLiteral("%1: line edit \"%2\" needs %3 px, has %4")
                   .arg(where(edit), text)
                   .arg(edit->fontMetrics().horizontalAdvance(text))
                   .arg(room);
}

/// A cell's text fits when it fits on one line, or, in a view that wraps, when its wrapped
/// height fits the row.
inline bool cellFits(const QAbstractItemView* view, const QString& text, const QRect& cell)
{
    const int margin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
    const int room = cell.width() - 2 * margin;
    const QFontMetrics metrics = view->fontMetrics();
    if (textFits(metrics, text, room))
        return true;
    if (!view->property("wordWrap").toBool())
        return false;
    // A word wider than the whole cell can only be broken inside (the view does so); all
    // lines must still be there.
    bool wordWiderThanCell = false;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        wordWiderThanCell = wordWiderThanCell || metrics.horizontalAdvance(word) > room;
    const int flags = wordWiderThanCell ? Qt::TextWrapAnywhere : Qt::TextWordWrap;
    const QRect wrapped = metrics.boundingRect(QRect(0, 0, room, 100000), flags, text);
    return wrapped.width() <= room && wrapped.height() <= cell.height();
}

inline void checkHeader(const QHeaderView* header, QStringList& cut, const QString& owner)
{
    if (!header || header->isHidden() || header->orientation() != Qt::Horizontal)
        return;
    const QAbstractItemModel* model = header->model();
    for (int section = 0; section < header->count(); ++section) {
        if (header->isSectionHidden(section))
            continue;
        const QString text = model->headerData(section, Qt::Horizontal).toString();
        const int needed = header->fontMetrics().horizontalAdvance(text) + 8;
        const bool wraps = (int(header->defaultAlignment()) & Qt::TextWordWrap) != 0;
        const QRect wrapped = header->fontMetrics().boundingRect(
            QRect(0, 0, header->sectionSize(section) - 8, 100000), Qt::TextWordWrap, text);
        if (wraps && wrapped.width() <= header->sectionSize(section) - 8 &&
            wrapped.height() <= header->height())
            continue;
        if (header->sectionSize(section) < needed)
            cut << QStringLiteral("%1: header \"%2\" needs %3 px, has %4")
                       .arg(owner, text)
                       .arg(needed)
                       .arg(header->sectionSize(section));
    }
}

inline void checkItemView(const QAbstractItemView* view, QStringList& cut)
{
    const QAbstractItemModel* model = view->model();
    if (!model)
        return;
    const QString owner = where(view);
    if (view->horizontalScrollBar()->maximum() > 0)
        cut << QStringLiteral("%1: columns hidden behind a horizontal scroll bar (%2 px more)")
                   .arg(owner)
                   .arg(view->horizontalScrollBar()->maximum());
    if (const auto* table = qobject_cast<const QTableView*>(view))
        checkHeader(table->horizontalHeader(), cut, owner);
    const int rows = std::min(model->rowCount(), 200);
    for (int row = 0; row < rows; ++row) {
        for (int column = 0; column < model->columnCount(); ++column) {
            const QModelIndex index = model->index(row, column);
            const QRect cell = view->visualRect(index);
            if (!cell.isValid() || !view->viewport()->rect().intersects(cell))
                continue;
            const QString text = index.data(Qt::DisplayRole).toString();
            if (!text.isEmpty() && !cellFits(view, text, cell))
                cut << QStringLiteral("%1: cell (%2, %3) \"%4\" cut at %5 px")
                           .arg(owner)
                           .arg(row)
                           .arg(column)
                           .arg(text)
                           .arg(cell.width());
        }
    }
}

inline bool looksElided(const QString& text)
{
    return text.endsWith(QStringLiteral("...")) || text.contains(QChar(0x2026));
}

inline void checkChart(const QChartView* view, QStringList& cut)
{
    if (!view->scene())
        return;
    for (const QGraphicsItem* item : view->scene()->items()) {
        if (!item->isVisible())
            continue;
        QString text;
        if (const auto* rich = dynamic_cast<const QGraphicsTextItem*>(item))
            text = rich->toPlainText();
        else if (const auto* simple = dynamic_cast<const QGraphicsSimpleTextItem*>(item))
            text = simple->text();
        if (looksElided(text))
            cut << QStringLiteral("%1: chart text \"%2\" in \"%3\" (%4x%5 px)")
                       .arg(where(view), text, view->chart()->title())
                       .arg(view->width())
                       .arg(view->height());
    }
}

} // namespace elision

/// Every cut text in the visible widgets under `root`, one line each naming the widget.
inline QStringList cutTextIn(const QWidget* root)
{
    using namespace elision;
    QStringList cut;
    for (const QWidget* widget : root->findChildren<QWidget*>()) {
        if (!isShown(widget))
            continue;
        if (const auto* label = qobject_cast<const QLabel*>(widget))
            checkLabel(label, cut);
        else if (const auto* combo = qobject_cast<const QComboBox*>(widget))
            checkCombo(combo, cut);
        else if (const auto* edit = qobject_cast<const QLineEdit*>(widget))
            checkLineEdit(edit, cut);
        else if (const auto* view = qobject_cast<const QAbstractItemView*>(widget);
                 view && !qobject_cast<const QHeaderView*>(widget))
            checkItemView(view, cut);
        else if (const auto* chart = qobject_cast<const QChartView*>(widget))
            checkChart(chart, cut);
        else if (const auto* legend = qobject_cast<const widgets::ChartLegend*>(widget))
            for (const QString& name : legend->namesCut())
                cut << QStringLiteral("%1: legend entry \"%2\"").arg(where(legend), name);
    }
    return cut;
}

} // namespace bs::test
