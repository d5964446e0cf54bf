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

figure::Rgb llmCellColour(const LlmRegionCell& cell)
{
    if (cell.status == LlmCellStatus::Feasible)
        return figure::palette::kFeasible;
    switch (cell.binding) {
    case LlmConstraint::TtftP99:
    case LlmConstraint::E2eP99: // both a request's wait for its answer
        return {0xd5, 0x5e, 0x00};
    case LlmConstraint::TpotP99:
    case LlmConstraint::ItlP99: // both decode latency: one colour, the cell text says which
        return {0xf0, 0xe4, 0x42};
    case LlmConstraint::OutputTokens:
    case LlmConstraint::Goodput:
        return {0x56, 0xb4, 0xe9};
    case LlmConstraint::PowerPerGpu:
        return {0xcc, 0x79, 0xa7};
    case LlmConstraint::Temperature:
        return {0xe6, 0x9f, 0x00};
    case LlmConstraint::EnergyPerToken:
        return {0x00, 0x72, 0xb2};
    case LlmConstraint::Preemptions:
        return {0x88, 0x44, 0x99};
    case LlmConstraint::Refused:
        return figure::palette::kError;
    case LlmConstraint::None:
        break;
    }
    return figure::palette::kUnstable;
}

} // namespace bs::analysis
