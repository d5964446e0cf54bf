#pragma once

#include <QList>
#include <QPointer>
#include <QWidget>

class QAbstractSeries;
class QChart;

namespace bs::widgets {

/// The legend under a chart: every entry with its whole name, wrapped onto more lines when the
/// panel is narrow (Qt Charts' own legend cuts names to "Baseli…" in small panels and in
/// projector mode). Clicking an entry hides or shows its series; a hidden one is dimmed.
/// Painted, so it goes into exported images with the chart (paintTo).
class ChartLegend : public QWidget
{
    Q_OBJECT
public:
    explicit ChartLegend(QWidget* parent = nullptr);

    /// One entry per series of `chart` except those in `left out` (positions in chart->series());
    /// `toolTips`, parallel to chart->series(), say what an entry is when hovered.
    void setFromChart(QChart* chart, const QList<int>& leftOut = {},
                      const QStringList& toolTips = {});
    QStringList names() const;
    /// Names that do not fit their place whole (a single word wider than the panel); empty when
    /// every entry reads in full.
    QStringList namesCut() const;
    /// The tooltip of the entry named `name` (empty: none, or no such entry).
    QString toolTipOf(const QString& name) const;
    /// Toggles the series of entry `index` (what a click does).
    void toggle(int index);
    /// Paints the legend laid out for `width` at `origin` (exports).
    void paintTo(QPainter& painter, const QPoint& origin, int width) const;

    /// The height the entries need at `width` (sizeHint asks it for the current width).
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Entry
    {
        QString name;
        QPointer<QAbstractSeries> series; ///< Its look is read when painting (themes recolour).
        QString toolTip;
    };
    /// Each entry's rectangle when laid out in `width`.
    QList<QRect> layoutFor(int width) const;
    QFont legendFont() const;
    /// Where an entry's name is written inside its box.
    static QRect nameRect(const QRect& box, const QFontMetrics& metrics);
    void paintEntries(QPainter& painter, const QList<QRect>& boxes) const;

    QList<Entry> m_entries;
};

} // namespace bs::widgets
