#pragma once

#include "analysis/regionconstraints.h"
#include "analysis/regionspec.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bs::analysis {

enum class CellStatus
{
    Feasible,   ///< Meets every constraint.
    Infeasible, ///< Stable, but misses at least one constraint.
    Unstable,   ///< Offered load at or above capacity (or a queue that grew all run).
    Error,      ///< The cell's scenario could not be simulated (note says why).
};
const char* cellStatusName(CellStatus status); ///< "feasible", "infeasible", "unstable", "error"

/// How a cell's numbers were obtained (REGION.md, "Adaptive refinement").
enum class CellMethod
{
    Analytic,  ///< The capacity check alone (rho >= 1): unstable without simulating.
    ShortRun,  ///< A short screening run, far enough from every limit to decide.
    Simulated, ///< The full simulation (scenario's requests and replications, or more).
};
const char* cellMethodName(CellMethod method); ///< "analytic", "short_run", "simulated"

struct RegionCell;
/// The evidence that decided a cell, for people: "full run, 5 x 321600 requests", "short run,
/// 4 x 80400 requests, not confident", "capacity check (rho >= 1), not simulated".
std::string cellEvidence(const RegionCell& cell);

/// One operating point of the grid.
struct RegionCell
{
    std::size_t index = 0;              ///< Row-major cell number (RegionGrid).
    std::vector<std::size_t> axisIndex; ///< Value index on each axis.
    CellStatus status = CellStatus::Error;
    CellMethod method = CellMethod::Analytic;
    /// Every limit lies outside the 95% interval (short runs: several half-widths away) of the
    /// metric it judges, so more simulation would not change the verdict.
    bool confident = false;
    /// Only in a preview: the cell still waits for refinement; its numbers are a short run's.
    bool pending = false;
    ConstraintKind binding = ConstraintKind::None;
    std::vector<ConstraintCheck> checks;
    CellMetrics metrics;
    std::uint64_t requests = 0;          ///< Measured requests per replication of the deciding run.
    int replications = 0;                ///< Of the deciding run.
    std::uint64_t seed = 0;              ///< scenario seed (common random numbers across cells).
    std::uint64_t simulatedRequests = 0; ///< All runs of this cell, warm-up included.
    bool paretoOptimal = false;
    std::string note; ///< Why unstable, or the error.

    friend bool operator==(const RegionCell&, const RegionCell&) = default;
};

/// The maximum sustainable arrival rate of one policy under every limit except the demand.
struct CapacityPoint
{
    std::size_t policy = 0;             ///< RegionGrid::policyOf numbering.
    std::vector<std::size_t> axisIndex; ///< Of the policy's first cell (rate index 0).
    /// The highest rate found feasible (req/s); 0 when none is (see note).
    double maxRatePerS = 0.0;
    /// The lowest rate found infeasible; the capacity lies in [maxRatePerS, this).
    double infeasibleRatePerS = 0.0;
    double stabilityLimitPerS = 0.0;               ///< Where rho = 1.
    ConstraintKind binding = ConstraintKind::None; ///< What fails just above the capacity.
    int evaluations = 0;                           ///< Simulated probes beyond the grid.
    std::uint64_t simulatedRequests = 0;           ///< By those probes, warm-up included.
    bool converged = false;                        ///< The bracket reached the relative tolerance.
    std::string note;

    friend bool operator==(const CapacityPoint& a, const CapacityPoint& b);
};

/// How far the recommended point can be pushed before it leaves the region.
struct Headroom
{
    /// Largest multiplier on the point's arrival rate that still meets every constraint.
    double loadMultiplier = 0.0;
    double maxRatePerS = 0.0;
    ConstraintKind loadBinding = ConstraintKind::None; ///< What fails just above it.
    bool loadConverged = false;
    /// Burstiness: the arrival gaps' coefficient of variation (Poisson 1) of the base traffic
    /// and the largest cv (gamma renewal arrivals, same rate) it survives; NaN when the
    /// arrivals cannot be varied that way (note says why).
    double baseArrivalCv = 0.0;
    double maxArrivalCv = 0.0;
    ConstraintKind burstBinding = ConstraintKind::None;
    bool burstConverged = false;
    int evaluations = 0;
    std::string note;

    friend bool operator==(const Headroom& a, const Headroom& b);
};

struct Recommendation
{
    RegionObjective objective = RegionObjective::MaxThroughput;
    std::size_t cell = 0;
    /// Feasible cells statistically indistinguishable from the best on the objective (their
    /// 95% intervals do not separate), the chosen one included: the choice among them is made
    /// by the secondary metrics (lower p99, then lower energy per inference), not by noise.
    std::vector<std::size_t> indistinguishableCells;
    std::optional<Headroom> headroom; ///< Absent when disabled.
    std::string reason;

    friend bool operator==(const Recommendation&, const Recommendation&) = default;
};

enum class RegionStage
{
    Preview,  ///< After the coarse pass; pending cells still to be refined.
    Shard,    ///< One slice (cells and capacities of its policies), waiting for merge.
    Complete, ///< Every cell, Pareto front, recommendation with headroom.
};
const char* regionStageName(RegionStage stage);

/// Counts that say how much work the result took (deterministic, part of the JSON).
struct RegionSummary
{
    std::size_t feasible = 0;
    std::size_t infeasible = 0;
    std::size_t unstable = 0;
    std::size_t errors = 0;
    std::size_t analytic = 0;
    std::size_t shortRun = 0;
    std::size_t simulated = 0;
    std::size_t notConfident = 0;
    std::uint64_t simulatedRequests = 0; ///< By the cells' runs (searches count evaluations).

    friend bool operator==(const RegionSummary&, const RegionSummary&) = default;
};

/// Everything the region analysis computed: the value the GUI's region view, the CLI's curve
/// pack and merge work on. JSON form: toJson / regionResultFromJson (REGION.md).
struct RegionResult
{
    RegionSpec spec;
    std::string baseDirectory; ///< Where relative replay files of the scenario resolve.
    RegionStage stage = RegionStage::Complete;
    std::size_t shardIndex = 0;
    std::size_t shardCount = 1;
    std::size_t cellCount = 0;            ///< Of the whole grid (a shard holds only some).
    std::vector<RegionCell> cells;        ///< By index.
    std::vector<CapacityPoint> capacity;  ///< By policy; empty when disabled.
    std::vector<std::size_t> paretoCells; ///< Indices of the Pareto-optimal cells.
    std::optional<Recommendation> recommendation;
    RegionSummary summary;
    std::vector<std::string> warnings;

    /// The cell with this index, or nullptr (a shard holds only its own).
    const RegionCell* cell(std::size_t index) const;

    friend bool operator==(const RegionResult&, const RegionResult&) = default;
};

/// Counts the cells by status and method, and their simulated requests.
RegionSummary summarize(const std::vector<RegionCell>& cells);

nlohmann::json toJson(const RegionCell& cell);
nlohmann::json toJson(const CapacityPoint& point);
nlohmann::json toJson(const Recommendation& recommendation);
/// The whole result, with the BatchScope version (REGION.md, "Result JSON"). Numbers are in
/// the core's units (s, W, J, °C) so that regionResultFromJson gives back identical doubles.
nlohmann::json toJson(const RegionResult& result);
/// Reads what toJson wrote; unknown keys and bad values are errors naming the key.
Expected<RegionResult> regionResultFromJson(const nlohmann::json& json,
                                            const std::string& path = {});

} // namespace bs::analysis
