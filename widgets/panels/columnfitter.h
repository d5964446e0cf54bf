#pragma once

#include <QObject>
#include <QVector>

class QTableView;

namespace bs::widgets {

/// Keeps a table's columns inside its width, the way a browser lays out an HTML table: when the
/// contents fit, each column is as wide as its contents and the last takes the rest; when they
/// do not, every column keeps at least its header and longest word and the rest of the width is
/// shared in proportion to what each column would like, its text wrapping onto more lines. A
/// summary table in a narrow panel then shows every figure whole instead of cutting values or
/// hiding columns behind a horizontal scroll bar. Only when even the longest words cannot fit
/// does the table scroll sideways.
class ColumnFitter : public QObject
{
    Q_OBJECT
public:
    /// Attaches to `table` (as its child) and lays it out now and on every resize or change.
    static ColumnFitter* attach(QTableView* table);
    /// Lays the table out again soon (after columns were shown or hidden).
    void refit() { scheduleFit(); }

    /// Column widths for `available` px given each column's natural (one-line) and minimum
    /// (longest word) width. Exposed for the layout test.
    static QVector<int> widthsFor(const QVector<int>& natural, const QVector<int>& minimum,
                                  int available);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit ColumnFitter(QTableView* table);
    void scheduleFit();
    void fit();
    void fitHeaderHeight();

    QTableView* m_table;
    bool m_fitPending = false;
};

} // namespace bs::widgets
