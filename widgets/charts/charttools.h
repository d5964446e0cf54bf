#pragma once

#include <QString>

class QToolBar;
class QWidget;

namespace bs::widgets {

/// Asks where to export a chart (PNG, SVG or CSV) and returns the path with the suffix of the
/// chosen type when the user typed none; empty when cancelled. Shared by every chart panel so
/// they all offer the same choices.
QString askExportPath(QWidget* parent, const QString& suggestedName);
/// Writes text (a CSV table) as UTF-8; false when the file cannot be written.
bool writeTextFile(const QString& path, const QString& text);
/// The tool bar of a chart panel: text buttons pushed to the right, fixed in place. A tool bar
/// rather than a row of buttons: in a narrow panel (three charts side by side, projector
/// fonts) the buttons that do not fit move behind its » menu instead of forcing the window
/// wider than the screen.
QToolBar* makeChartToolBar(QWidget* parent);

} // namespace bs::widgets
