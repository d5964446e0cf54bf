#pragma once

#include <optional>
#include <vector>

namespace bs::render {

/// How wide one table column's content is, in points, at the font it will be set in.
struct ColumnExtent
{
    double longestWordPt = 0.0; ///< The column can be no narrower, or a word would break.
    double longestLinePt = 0.0; ///< The column needs no more: every cell fits on one line.
};

/// Column widths (points) that fill `availablePt`, each at least its longest word, the rest
/// shared in proportion to how much each column would still wrap (a browser's "auto" table
/// layout). `paddingPt` is added to every column for cell padding and borders.
/// nullopt when the longest words alone do not fit: the caller sets a smaller font or a wider
/// page rather than let a word break inside a cell.
std::optional<std::vector<double>> fitColumns(const std::vector<ColumnExtent>& columns,
                                              double availablePt, double paddingPt);

} // namespace bs::render
