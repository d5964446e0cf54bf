#pragma once

class QEvent;
class QWidget;

namespace bs::widgets {

/// For a widget whose layout holds wrapped labels or a flow of pickers (a height-for-width
/// layout), called from its event(): on a layout request or a resize it sets the widget's
/// minimum height to what the layout needs at its current width. The page or scroll area
/// around it otherwise sizes it by its minimum counted with one-line labels, and the charts
/// below got less than their minimum and overlapped.
void keepHeightForWidth(QWidget* widget, const QEvent* event);

} // namespace bs::widgets
