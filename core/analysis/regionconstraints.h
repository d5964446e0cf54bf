#pragma once

#include "analysis/regionspec.h"
#include "sim/result.h"

#include <optional>
#include <string>
#include <vector>

namespace bs::analysis {

/// The limits a cell is checked against, plus stability (the queue must not grow without bound).
enum class ConstraintKind
{
    None,        ///< No constraint (a cell with an error).
    P99,         ///< p99 latency <= SLA.
    Throughput,  ///< Throughput >= demand.
    Power,       ///< Mean power per server <= limit.
    Temperature, ///< Peak device temperature <= limit.
    Energy,      ///< Energy per inference <= budget.
    Stability,   ///< Offered load below capacity (rho < 1); binding only for unstable cells.
};
/// "p99", "throughput", "power", "temperature", "energy", "stability", "" for None.
const char* constraintName(ConstraintKind kind);
std::optional<ConstraintKind> parseConstraint(const std::string& name);

/// The metrics of one operating point that the constraints look at. Estimates are the
/// simulator's (mean over replications with a 95% interval); absent metrics are NaN.
struct CellMetrics
{
    bool stable = false;
    double offeredRatePerS = sim::kNaN;
    double capacityRatePerS = sim::kNaN; ///< Where rho = 1.
    double rho = sim::kNaN;
    sim::Estimate throughputPerS;
    sim::Estimate p99S;
    sim::Estimate energyPerInferenceJ;
    sim::Estimate powerPerServerW; ///< Mean power of all servers / servers.
    sim::Estimate peakTemperatureC;
    sim::Estimate meanBatch;

    friend bool operator==(const CellMetrics& a, const CellMetrics& b);
};

/// The metrics of a simulation result (stability only, when it is unstable).
CellMetrics metricsOf(const sim::Result& result);

/// One constraint checked at one cell.
struct ConstraintCheck
{
    ConstraintKind kind = ConstraintKind::P99;
    double value = sim::kNaN; ///< The value judged (robust: the pessimistic interval end).
    double limit = sim::kNaN;
    /// Relative margin, positive when met: (limit - value) / limit for upper limits,
    /// (value - limit) / limit for the throughput demand. NaN when the value is missing.
    double margin = sim::kNaN;
    bool satisfied = false;
    /// The limit lies more than the asked number of interval half-widths from the value, so
    /// more replications would not change the verdict (false without an interval).
    bool decided = false;

    friend bool operator==(const ConstraintCheck& a, const ConstraintCheck& b);
};

/// Verdict of the checks of one cell.
struct ConstraintVerdict
{
    bool feasible = false;
    /// Feasible: the check with the smallest margin (what limits the cell first). Infeasible:
    /// the most violated check. Unstable: Stability.
    ConstraintKind binding = ConstraintKind::None;
    /// Feasible: every check decided; infeasible: some violated check decided; unstable: true.
    bool decided = false;
    std::vector<ConstraintCheck> checks;
};

/// Checks every configured constraint (in the order p99, throughput, power, temperature,
/// energy); `halfWidths` sets how far (in interval half-widths) a limit must be from the value
/// for `decided`; `withThroughput` = false leaves out the demand (capacity searches raise the
/// load, so the demand is met by construction).
ConstraintVerdict checkConstraints(const RegionConstraints& constraints, const CellMetrics& metrics,
                                   double halfWidths, bool withThroughput = true);

/// The smallest margin of a verdict's checks (the one that decides feasibility): >= 0 when
/// feasible; NaN for an unstable cell or a missing value.
double minimumMargin(const ConstraintVerdict& verdict);

} // namespace bs::analysis
