#include "analysis/regionpalette.h"

#include <cstdio>

namespace bs::analysis {

std::string Rgb::hex() const
{
    char text[8];
    std::snprintf(text, sizeof text, "#%02x%02x%02x", red, green, blue);
    return text;
}

Rgb regionCellColour(const RegionCell& cell)
{
    switch (cell.status) {
    case CellStatus::Feasible:
        return palette::kFeasible;
    case CellStatus::Unstable:
        return palette::kUnstable;
    case CellStatus::Error:
        return palette::kError;
    case CellStatus::Infeasible:
        break;
    }
    switch (cell.binding) {
    case ConstraintKind::P99:
        return {0xd5, 0x5e, 0x00};
    case ConstraintKind::Throughput:
        return {0x56, 0xb4, 0xe9};
    case ConstraintKind::Power:
        return {0xcc, 0x79, 0xa7};
    case ConstraintKind::Temperature:
        return {0xe6, 0x9f, 0x00};
    case ConstraintKind::Energy:
        return {0x00, 0x72, 0xb2};
    default:
        return palette::kUnstable;
    }
}

} // namespace bs::analysis
