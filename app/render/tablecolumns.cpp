#include "tablecolumns.h"

#include <algorithm>
#include <numeric>

namespace bs::render {

std::optional<std::vector<double>> fitColumns(const std::vector<ColumnExtent>& columns,
                                              double availablePt, double paddingPt)
{
    if (columns.empty())
        return std::vector<double>{};
    std::vector<double> minimum, natural;
    for (const auto& column : columns) {
        minimum.push_back(column.longestWordPt + paddingPt);
        natural.push_back(std::max(column.longestLinePt, column.longestWordPt) + paddingPt);
    }
    const double minimumSum = std::accumulate(minimum.begin(), minimum.end(), 0.0);
    if (minimumSum > availablePt)
        return std::nullopt;
    const double naturalSum = std::accumulate(natural.begin(), natural.end(), 0.0);
    std::vector<double> widths(columns.size());
    if (naturalSum <= availablePt) {
        // Everything fits on one line: the spare width goes to every column alike, by size.
        for (std::size_t i = 0; i < widths.size(); ++i)
            widths[i] = natural[i] * availablePt / naturalSum;
        return widths;
    }
    // Each column gets its longest word; the rest goes where wrapping would cost most lines.
    const double spare = availablePt - minimumSum;
    const double wrapSum = naturalSum - minimumSum;
    for (std::size_t i = 0; i < widths.size(); ++i)
        widths[i] = minimum[i] + spare * (natural[i] - minimum[i]) / wrapSum;
    return widths;
}

} // namespace bs::render
