#pragma once

#include <QScrollArea>

namespace bs::widgets {

/// Holds a view that fills the visible area and scrolls only when the area is smaller than the
/// view's minimum size (a laptop screen, a 1080p projector with large fonts), instead of making
/// the window larger than the screen. Unlike QScrollArea's widgetResizable mode it never takes
/// a wrapped label's preferred height as the minimum, which would scroll a view that fits.
class ViewScrollArea : public QScrollArea
{
    Q_OBJECT
public:
    explicit ViewScrollArea(QWidget* view, QWidget* parent = nullptr);

    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitView();
};

} // namespace bs::widgets
