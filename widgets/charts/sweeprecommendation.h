#pragma once

#include "analysis/regionresult.h"

#include <QString>

#include <optional>

namespace bs::widgets {

/// The Region view's recommended operating point, as the Sweep charts place it beside the
/// measured curves: per server (a sweep measures one device), at the policy's max batch or its
/// offered load per server.
struct SweepRecommendation
{
    double maxBatch = 0.0;
    int servers = 1;
    double offeredRatePerServerPerS = 0.0;
    double throughputPerServerPerS = 0.0;
    double p99Ms = 0.0;
    double p99LowMs = 0.0; ///< The 95% interval of the p99.
    double p99HighMs = 0.0;
    std::optional<double> energyPerInferenceMj;
    std::optional<double> powerPerServerW;
    QString objective; ///< "max-throughput", ...
    QString policy;    ///< "max batch 16, max queue delay (ms) 2", as the Region view says it.
};

/// "max batch 16, max queue delay (ms) 2": the cell's value on every axis of the grid.
QString regionCellPolicyText(const analysis::RegionResult& result,
                             const analysis::RegionCell& cell);

/// The recommendation of a complete result, or nothing (a preview, no feasible cell).
std::optional<SweepRecommendation> sweepRecommendationOf(const analysis::RegionResult& result);

/// One line for the Sweep view's caption: the policy, its throughput and p99 with interval.
QString sweepRecommendationText(const SweepRecommendation& recommendation);

} // namespace bs::widgets
