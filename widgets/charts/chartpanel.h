#pragma once

#include "charts/chartcontent.h"

#include <QWidget>

class QLayout;
class QStackedWidget;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;
class QLabel;

namespace bs::widgets {

class ChartLegend;
class ChartView;
class SeriesTableModel;

/// A chart with its toolbar: switch to the table of the same numbers (sortable, copy as CSV),
/// reset zoom, copy image, export PNG/SVG. setContent() redraws; series with the same names
/// and styles are updated in place with QXYSeries::replace so a slider drag stays smooth.
class ChartPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ChartPanel(QWidget* parent = nullptr);

    void setContent(const ChartContent& content);
    const ChartContent& content() const { return m_content; }

    ChartView* chartView() const { return m_view; }
    ChartLegend* legend() const { return m_legend; }
    SeriesTableModel* tableModel() const { return m_tableModel; }
    bool isShowingTable() const;
    /// True when the chart has nothing to draw and shows its content's emptyText instead (axes
    /// and reference lines hidden, the text under the title).
    bool isShowingEmptyState() const;
    /// The explanation shown in the empty state; empty when the chart draws data.
    QString emptyStateText() const;
    /// Where the empty-state text is drawn, in chart view coordinates (tests).
    QRect emptyStateRect() const;
    void showTable(bool table);
    /// Asks for a file name and exports PNG or SVG by its suffix.
    void exportWithDialog();
    bool exportTo(const QString& path);
    QString csv() const;
    void copyCsv() const;

Q_SIGNALS:
    void pointClicked(const QString& series, const QPointF& value);
    /// The user asked to attach this chart to the review memo (MainWindow stores it).
    void attachToMemoRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool canUpdateInPlace(const ChartContent& content) const;
    void rebuild(const ChartContent& content);
    void updateInPlace(const ChartContent& content);
    void applyAxes(const ChartContent& content);
    void showEmptyState(bool show);
    void placeEmptyLabel();
    /// Titles that do not fit the panel's width go on two lines (on every resize).
    void fitTitles();
    /// The font of the x axis labels (what the log-base fitting measures).
    QFont axisLabelFont() const;

    ChartContent m_content;   ///< As shown: automatic axis choices resolved.
    ChartContent m_requested; ///< As given, to resolve again when the chart is resized.
    ChartView* m_view;
    ChartLegend* m_legend;
    QStackedWidget* m_stack;
    QTableView* m_table;
    SeriesTableModel* m_tableModel;
    /// Sorts the table; fed from m_tableModel only while the table is shown, since re-sorting
    /// every series on each data change costs a slider step milliseconds for a hidden table.
    QSortFilterProxyModel* m_tableSort;
    QToolButton* m_tableToggle;
    QLabel* m_emptyLabel;
    bool m_emptyShown = false;
};

/// `count` chart panels side by side in a new row layout, each at least `minHeightPx` tall
/// (a dialog's measured-against-predicted pair); the panels are appended to `panels`.
QLayout* chartRow(QWidget* parent, int count, int minHeightPx, QList<ChartPanel*>& panels);

} // namespace bs::widgets
