#include "panels/heightforwidth.h"

#include <QEvent>
#include <QLayout>
#include <QWidget>

namespace bs::widgets {

void keepHeightForWidth(QWidget* widget, const QEvent* event)
{
    if (!widget->layout() ||
        (event->type() != QEvent::LayoutRequest && event->type() != QEvent::Resize))
        return;
    const int needed = widget->layout()->totalHeightForWidth(widget->width());
    if (needed > 0 && needed != widget->minimumHeight())
        widget->setMinimumHeight(needed);
}

} // namespace bs::widgets
