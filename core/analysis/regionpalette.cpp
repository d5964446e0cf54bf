#include "analysis/regionpalette.h"

namespace bs::analysis {

figure::Rgb regionCellColour(const RegionCell& cell)
{
    switch (cell.status) {
    case CellStatus::Feasible:
        return figure::palette::kFeasible;
    case CellStatus::Unstable:
        return figure::palette::kUnstable;
    case CellStatus::Error:
        return figure::palette::kError;
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
        return figure::palette::kUnstable;
    }
}

} // namespace bs::analysis
