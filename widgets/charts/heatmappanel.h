#pragma once

#include <QList>
#include <QStringList>
#include <QWidget>

class QAction;
class QStackedWidget;
class QTableWidget;
class QTableWidgetItem;

namespace bs::widgets {

/// A heatmap with what every chart of BatchScope has (ChartPanel): a Table of the same cells
/// (sortable, copied as CSV), Copy, Export (PNG, SVG, CSV) and Attach to memo, in a tool bar and
/// in the heatmap's context menu. The queueing region and the LLM region each fill the table
/// with their own columns (RegionHeatmapPanel, LlmRegionHeatmapPanel).
class HeatmapPanel : public QWidget
{
    Q_OBJECT
public:
    QTableWidget* table() const { return m_table; }
    /// The actions of the tool bar and the context menu, in that order: Table, Copy, Export…,
    /// Attach to memo.
    QList<QAction*> chartActions() const;
    bool isShowingTable() const;
    void showTable(bool table);
    QString csv() const;
    /// PNG, SVG or CSV by the suffix.
    bool exportTo(const QString& path);

Q_SIGNALS:
    /// The user asked to attach the heatmap to the review memo (MainWindow stores it).
    void attachToMemoRequested();

protected:
    /// `heatmap` is drawn and exported; `name` is what the export dialog and the SVG call it.
    HeatmapPanel(QWidget* heatmap, const QString& name, QWidget* parent);
    /// Replaces the table's contents: one row of items per cell shown (the table owns them).
    void setTableRows(const QStringList& headers, const QList<QList<QTableWidgetItem*>>& rows);

private:
    void copy();
    void showContextMenu(const QPoint& position);

    QWidget* m_heatmap;
    QString m_name;
    QTableWidget* m_table;
    QStackedWidget* m_stack;
    QAction* m_tableAction;
    QAction* m_copyAction;
    QAction* m_exportAction;
    QAction* m_attachAction;
};

/// A table item that sorts by number, "—" where the value is missing.
QTableWidgetItem* heatmapNumberItem(double value);
/// A text item with its text as tooltip (cut cells stay readable).
QTableWidgetItem* heatmapTextItem(const QString& text);

} // namespace bs::widgets
