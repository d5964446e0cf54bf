#pragma once

#include <QStringList>

class QTableWidget;
class QWidget;

namespace bs::widgets {

/// A read-only table of results (metric, value, interval…) whose columns fit their text
/// (ColumnFitter): nothing elided, long cells wrap.
QTableWidget* makeResultTable(const QStringList& headers, QWidget* parent);

/// Appends one row; each cell's tooltip repeats its text (for copying a long value).
void appendResultRow(QTableWidget* table, const QStringList& cells);

} // namespace bs::widgets
