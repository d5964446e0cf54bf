#pragma once

#include <QRect>

#include <cstddef>
#include <optional>
#include <utility>

namespace bs::widgets {

/// Where the cells of a heatmap lie in its plot rectangle: columns left to right, rows bottom
/// to top, the plot shared out evenly with a one-pixel gap between neighbours (the region
/// heatmaps of both the queueing and the LLM region).
struct HeatmapGrid
{
    QRect plot;
    std::size_t columns = 0;
    std::size_t rows = 0;

    QRect cellRect(std::size_t column, std::size_t row) const;
    /// The (column, row) whose cell holds a position, if any.
    std::optional<std::pair<std::size_t, std::size_t>> cellAt(const QPoint& position) const;
};

} // namespace bs::widgets
