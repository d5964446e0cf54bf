#pragma once

#include "analysis/regionresult.h"

#include <QWidget>

class QPainter;

#include <memory>
#include <optional>

namespace bs::widgets {

/// The feasible region over two policy axes: one cell per (column value, row value) at the
/// chosen values of the other axes. Feasible cells are green with their smallest margin printed;
/// infeasible ones are coloured by the constraint that fails (p99, throughput, power,
/// temperature, energy), unstable ones hatched grey; every cell names its binding constraint
/// in short ("p99", "power", ...); the recommended cell is outlined. Hover shows the cell's
/// numbers and the binding constraint in full; a click emits cellActivated.
class RegionHeatmap : public QWidget
{
    Q_OBJECT
public:
    explicit RegionHeatmap(QWidget* parent = nullptr);

    /// Draws `result` with axis `columnAxis` across and `rowAxis` up; `fixed` gives the value
    /// index of every axis (those two are ignored).
    void setResult(std::shared_ptr<const analysis::RegionResult> result, std::size_t columnAxis,
                   std::size_t rowAxis, std::vector<std::size_t> fixed);
    /// The cell under a widget position, if any (tests and tooltips).
    std::optional<std::size_t> cellAt(const QPoint& position) const;
    /// The rectangle of a grid position (column, row), for tests.
    QRect cellRect(std::size_t column, std::size_t row) const;
    /// The text a tooltip shows for a cell.
    QString describeCell(const analysis::RegionCell& cell) const;

    QSize minimumSizeHint() const override { return {360, 260}; }

    std::size_t columns() const;
    std::size_t rows() const;
    /// The cell drawn at a grid position, or null (none there, or not in this result).
    const analysis::RegionCell* cellAtGrid(std::size_t column, std::size_t row) const;
    const analysis::RegionResult* result() const { return m_result.get(); }
    std::size_t columnAxis() const { return m_columnAxis; }
    /// The axis up the heatmap; equal to columnAxis() for a one-axis grid (a single row).
    std::size_t rowAxis() const { return m_rowAxis; }
Q_SIGNALS:
    void cellActivated(std::size_t cellIndex);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect plotRect() const;
    int leftMargin() const;
    int rightMargin() const;
    int bottomMargin() const;
    void paintCell(QPainter& painter, const QRect& box, const analysis::RegionCell& cell) const;
    std::optional<std::pair<std::size_t, std::size_t>> gridAt(const QPoint& position) const;

    std::shared_ptr<const analysis::RegionResult> m_result;
    std::size_t m_columnAxis = 0;
    std::size_t m_rowAxis = 1;
    std::vector<std::size_t> m_fixed;
};

/// The colour of a cell's verdict (shared by the heatmap legend and the scatter charts).
QColor regionCellColour(const analysis::RegionCell& cell);
/// "feasible", "p99 > SLA", "unstable", ... for legends.
QString regionCellCategory(const analysis::RegionCell& cell);

} // namespace bs::widgets
