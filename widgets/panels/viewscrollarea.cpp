#include "panels/viewscrollarea.h"

#include <QEvent>
#include <QResizeEvent>

namespace bs::widgets {

ViewScrollArea::ViewScrollArea(QWidget* view, QWidget* parent)
    : QScrollArea(parent)
{
    setFrameShape(QFrame::NoFrame);
    setWidgetResizable(false);
    setWidget(view);
    view->installEventFilter(this);
    fitView();
}

QSize ViewScrollArea::sizeHint() const
{
    return widget() ? widget()->sizeHint() : QScrollArea::sizeHint();
}

void ViewScrollArea::fitView()
{
    QWidget* view = widget();
    if (!view)
        return;
    const QSize wanted = viewport()->size().expandedTo(view->minimumSizeHint());
    if (view->size() != wanted)
        view->resize(wanted);
}

void ViewScrollArea::resizeEvent(QResizeEvent* event)
{
    QScrollArea::resizeEvent(event);
    fitView();
}

bool ViewScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    // The view's minimum changes with its content (a table filled, projector fonts).
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        fitView();
    return QScrollArea::eventFilter(watched, event);
}

} // namespace bs::widgets
