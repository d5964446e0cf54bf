#include "charts/heatmapgrid.h"

#include <algorithm>
#include <cmath>

namespace bs::widgets {

QRect HeatmapGrid::cellRect(std::size_t column, std::size_t row) const
{
    const double width = double(plot.width()) / double(std::max<std::size_t>(columns, 1));
    const double height = double(plot.height()) / double(std::max<std::size_t>(rows, 1));
    const int left = plot.left() + int(std::lround(double(column) * width));
    const int right = plot.left() + int(std::lround(double(column + 1) * width));
    const int bottom = plot.bottom() - int(std::lround(double(row) * height));
    const int top = plot.bottom() - int(std::lround(double(row + 1) * height));
    return QRect(QPoint(left, top + 1), QPoint(right - 1, bottom));
}

std::optional<std::pair<std::size_t, std::size_t>> HeatmapGrid::cellAt(const QPoint& position) const
{
    for (std::size_t row = 0; row < rows; ++row)
        for (std::size_t column = 0; column < columns; ++column)
            if (cellRect(column, row).contains(position))
                return std::pair{column, row};
    return std::nullopt;
}

} // namespace bs::widgets
