#pragma once

#include "analysis/distribution.h"

#include <QStringList>

class QTableWidget;
class QWidget;

namespace bs::widgets {

/// The read-only summary tables of the analysis pages (Traces: requests, kernels, LLM serving)
/// and the way their figures are written, so every page shows a latency, an interval or a
/// missing value the same way.

/// A table with these column headers, not editable, its columns kept inside its width by a
/// ColumnFitter (figures wrap instead of being cut or pushed behind a scroll bar).
QTableWidget* makeSummaryTable(const QStringList& headers, QWidget* parent);
/// Keeps the table's minimum height at what shows every row whole, following rows that wrap
/// taller when the columns narrow: the page around it scrolls instead of the table, so a
/// summary is read in one piece. For tables of a few dozen rows at most.
void showEveryRow(QTableWidget* table);
/// Appends one row; each cell's text is its tooltip too.
void appendSummaryRow(QTableWidget* table, const QStringList& cells);

/// Seconds written in milliseconds with 4 significant digits and the unit ("12.35 ms"); "—" when
/// not finite.
QString msText(double seconds);
/// An estimate's 95% interval in milliseconds ("[12.1, 12.6] ms", an unbounded side as ∓∞), with
/// a warning when the sample is too small for the percentile.
QString intervalMsText(const analysis::PercentileEstimate& estimate);
/// A number with `precision` significant digits in the user's locale; "—" when not finite.
QString numberText(double value, int precision = 4);

} // namespace bs::widgets
