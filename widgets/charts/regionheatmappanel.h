#pragma once

#include "analysis/regionresult.h"
#include "figure/figure.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QStackedWidget;
class QTableWidget;

namespace bs::widgets {

class RegionHeatmap;

/// The region heatmap with what every chart of BatchScope has (ChartPanel): a Table of the same
/// cells (one row per cell shown: its policy, verdict, binding constraint, smallest margin and
/// metrics; sortable, copied as CSV), Copy, Export (PNG, SVG, CSV) and Attach to memo, in a
/// tool bar and in the heatmap's context menu.
class RegionHeatmapPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RegionHeatmapPanel(QWidget* parent = nullptr);

    RegionHeatmap* heatmap() const { return m_heatmap; }
    QTableWidget* table() const { return m_table; }
    /// The actions of the tool bar and the context menu, in that order: Table, Copy, Export…,
    /// Attach to memo.
    QList<QAction*> chartActions() const;
    bool isShowingTable() const;
    void showTable(bool table);
    /// Draws a result (RegionHeatmap::setResult) and fills the table with the same cells.
    void setResult(std::shared_ptr<const analysis::RegionResult> result, std::size_t columnAxis,
                   std::size_t rowAxis, std::vector<std::size_t> fixed);
    QString csv() const;
    /// PNG, SVG or CSV by the suffix.
    bool exportTo(const QString& path);
    /// The heatmap as the memo and the report draw it, or nullopt before a region exists.
    std::optional<figure::Figure> figure() const;

Q_SIGNALS:
    /// The user asked to attach the heatmap to the review memo (MainWindow stores it).
    void attachToMemoRequested();

private:
    void refillTable();
    void copy();
    void showContextMenu(const QPoint& position);

    RegionHeatmap* m_heatmap;
    QTableWidget* m_table;
    QStackedWidget* m_stack;
    QAction* m_tableAction;
    QAction* m_copyAction;
    QAction* m_exportAction;
    QAction* m_attachAction;
};

} // namespace bs::widgets
