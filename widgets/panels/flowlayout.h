#pragma once

#include <QLayout>
#include <QList>

namespace bs::widgets {

/// Lays its items out left to right and wraps onto a further row when the width runs out, as
/// a toolbar of pickers must on a laptop screen or with projector fonts: every item keeps its
/// size hint (a combo box shows its whole current text) instead of being squeezed and cut.
/// An item wider than the whole layout gets the full width.
class FlowLayout : public QLayout
{
public:
    explicit FlowLayout(QWidget* parent = nullptr, int horizontalSpacingPx = 12,
                        int verticalSpacingPx = 4);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    /// Places the items in `rect` (or only measures, when `apply` is false); returns the height.
    int arrange(const QRect& rect, bool apply) const;

    QList<QLayoutItem*> m_items;
    int m_horizontalSpacingPx;
    int m_verticalSpacingPx;
};

} // namespace bs::widgets
