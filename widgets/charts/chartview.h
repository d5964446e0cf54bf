#pragma once

#include <QChartView>
#include <QHash>

class QXYSeries;

namespace bs::widgets {

class ChartLegend;

/// The chart widget every BatchScope view uses: rubber-band and wheel zoom, pan (middle button
/// or arrow keys), reset (Home or double-click), hover tooltips with exact values and units,
/// export to PNG/SVG (with the panel's ChartLegend under the chart), copy as image, and colours
/// that follow the application palette (light or dark). Large-font mode scales fonts and lines for
/// a projector.
class ChartView : public QChartView
{
    Q_OBJECT
public:
    explicit ChartView(QWidget* parent = nullptr);

    /// Units shown in tooltips ("items", "ms", ...); axis titles carry them too.
    void setUnits(const QString& xUnit, const QString& yUnit);
    /// Tooltip notes per series name: (point, text) pairs; a hovered point with a note shows it
    /// under its values. Replaces all notes.
    void setPointNotes(QHash<QString, QList<QPair<QPointF, QString>>> notes);
    /// The tooltip text of a data point of the named series (tests, and the hover handler).
    QString tooltipText(const QString& series, const QPointF& point) const;
    /// Call after (re)building series: wires tooltips, applies the theme.
    void seriesChanged();
    void resetZoom();

    bool savePng(const QString& path, double scale = 2.0);
    bool saveSvg(const QString& path);
    void copyImage();
    /// Renders the chart to an image of the given size (reports, screenshots), with the legend
    /// under it when one is set.
    QImage renderImage(const QSize& size, double scale = 2.0);
    /// The legend widget drawn under the chart in images and SVGs (the panel owns it).
    void setLegend(ChartLegend* legend) { m_legend = legend; }

    static void setLargeFontMode(bool on);
    static bool largeFontMode();
    /// Applies the palette-derived theme and font sizes to a chart.
    static void styleChart(QChart* chart, const QPalette& palette);
    /// The font of axis labels, axis titles and legends (larger in projector mode).
    static QFont labelFont();

Q_SIGNALS:
    /// A data point was clicked (series name and value).
    void pointClicked(const QString& series, const QPointF& value);
    void exportRequested();

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    static constexpr int kMinimumWidthPx = 160;
    static constexpr int kMinimumHeightPx = 120;
    static constexpr int kMeasurablePlotPx = 80;
    static constexpr int kSlackPx = 6;
    void keepAxisTitlesWhole();
    /// The height at which the axis titles should fit, from the fonts alone (before a layout).
    int estimatedHeightForTitlesPx() const;
    void askForMinimumSize(QSize wanted);

    void showPointTooltip(QXYSeries* series, const QPointF& point, bool state);
    QString formatValue(double value, const QString& unit) const;

    QString m_xUnit;
    QString m_yUnit;
    QHash<QString, QList<QPair<QPointF, QString>>> m_pointNotes;
    bool m_panning = false;
    QPoint m_lastPanPos;
    ChartLegend* m_legend = nullptr;
};

} // namespace bs::widgets
