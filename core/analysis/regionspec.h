#pragma once

#include "sim/scenario.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace bs::analysis {

/// What a grid axis varies in the base scenario. See core/analysis/REGION.md.
enum class RegionAxisKind
{
    MaxBatch,        ///< policy.max_batch (static: its batch), whole numbers 1 .. 65536.
    MaxQueueDelayMs, ///< policy.max_queue_delay_ms (static: timeout_ms), >= 0, milliseconds.
    RatePerS,        ///< Total long-run mean offered rate, requests/s, > 0.
    RateMultiplier,  ///< Multiplier on the base scenario's offered rate (e.g. a replay), > 0.
    Servers,         ///< servers.count, whole numbers 1 .. 1024.
    Precision,       ///< The accelerator model's precision (accelerator service only).
    PowerCapW,       ///< The accelerator model's power_cap_w, watts (accelerator service only).
};

/// The JSON/CSV name of an axis kind ("max_batch", "max_queue_delay_ms", ...).
const char* axisKindName(RegionAxisKind kind);
/// The kind named `name`, or nothing.
std::optional<RegionAxisKind> parseAxisKind(const std::string& name);
/// A human axis title with its unit ("max queue delay (ms)"), for plots and tables.
std::string axisTitle(RegionAxisKind kind);

/// One axis of the grid. Values are kept in the JSON units of the axis (milliseconds for the
/// delay) so a spec read back from its JSON is identical; precision names are in `names`.
struct RegionAxis
{
    RegionAxisKind kind = RegionAxisKind::MaxBatch;
    std::vector<double> values;     ///< Numeric axes.
    std::vector<std::string> names; ///< Precision axis.

    std::size_t size() const
    {
        return kind == RegionAxisKind::Precision ? names.size() : values.size();
    }
    /// The value as text ("16", "0.5", "int8").
    std::string label(std::size_t index) const;
    bool isRate() const
    {
        return kind == RegionAxisKind::RatePerS || kind == RegionAxisKind::RateMultiplier;
    }

    friend bool operator==(const RegionAxis&, const RegionAxis&) = default;
};

/// The limits every operating point must meet. Only p99 is required.
struct RegionConstraints
{
    double slaP99S = 0.0; ///< p99 latency limit, seconds (> 0).
    /// Robust mode: each metric is judged by the pessimistic end of its 95% interval (p99,
    /// power, temperature, energy: upper end; throughput: lower end) instead of its mean.
    bool robust = false;
    std::optional<double> minThroughputPerS;      ///< Demand the point must serve.
    std::optional<double> maxPowerW;              ///< Mean power per server (board), W.
    std::optional<double> maxTemperatureC;        ///< Peak device temperature, °C.
    std::optional<double> maxEnergyPerInferenceJ; ///< Energy per request, J.

    friend bool operator==(const RegionConstraints&, const RegionConstraints&) = default;
};

/// What the recommendation optimises among feasible cells.
enum class RegionObjective
{
    MaxThroughput,
    MinEnergy,
    MinP99,
};
const char* objectiveName(RegionObjective objective); ///< "max-throughput", ...
std::optional<RegionObjective> parseObjective(const std::string& name);

/// How cells are screened and refined (adaptive refinement, REGION.md).
struct RegionRefinement
{
    /// Short runs decide cells far from the boundary; off = every stable cell is simulated in full.
    bool screen = true;
    std::uint64_t screenRequests = 2000; ///< Measured requests per replication of a short run.
    std::uint64_t screenWarmupRequests = 500;
    int screenReplications = 4;
    /// Screening stages before the full run: stage k runs screenRequests * 8^k requests (and
    /// warm-up) per replication; only stages cheaper than half the full run are used. The
    /// coarse pass runs stage 0; refinement and the searches go on from there.
    int screenStages = 2;
    /// A short run decides a constraint when its limit lies this many half-widths of the
    /// short run's 95% interval away from the estimate. With 4 replications 2 half-widths are
    /// about 6 standard errors of the mean (on the bench_region grid, 2 and 3 give the same
    /// verdicts; 2 simulates 16% less).
    double screenHalfWidths = 2.0;
    /// Short runs never decide "feasible" at or above this load (rho): near saturation a short
    /// run from an empty queue underestimates the tail.
    double screenMaxRho = 0.9;
    /// Cycles of the traffic's slowest time scale (MMPP dwell cycle, diurnal period) a short
    /// run covers per replication at stage 0 (times 8^k at stage k, at most the scenario's
    /// run_length.min_cycles): a short run that never sees a burst would call a bursty cell
    /// feasible.
    double screenMinCycles = 5.0;
    /// Feasible cells decided by a short run are confirmed by a full run when a limit lies
    /// within this relative margin or a grid neighbour is not feasible (the boundary), and the
    /// recommended cell always is: nothing the user is told is feasible near the boundary, and
    /// nothing recommended, rests on a short run.
    double confirmMargin = 0.1;
    /// A full-run cell whose interval still contains a limit is rerun with the replications
    /// its interval's shrinkage says would settle it, up to this many; when even these would
    /// not (or did not), it is marked not confident.
    int maxReplications = 20;

    friend bool operator==(const RegionRefinement&, const RegionRefinement&) = default;
};

/// Settings of the searches that bisect on a rate multiplier or on burstiness.
struct RegionSearch
{
    bool enabled = true;
    double relativeTolerance = 0.02; ///< Stop when the bracket is this narrow (relative).
    int maxEvaluations = 12;         ///< Simulated points per search at most.
    double maxArrivalCv = 16.0;      ///< Headroom only: burstiness searched up to this cv.

    friend bool operator==(const RegionSearch&, const RegionSearch&) = default;
};

/// Everything that defines a feasible-region computation: same spec, same result, whatever
/// the thread count or sharding. JSON form: regionSpecFromJson / toJson (REGION.md).
struct RegionSpec
{
    sim::Scenario scenario; ///< The base scenario; each cell changes the axes' keys of it.
    std::vector<RegionAxis> axes;
    RegionConstraints constraints;
    RegionObjective objective = RegionObjective::MaxThroughput;
    RegionRefinement refinement;
    RegionSearch capacity;
    RegionSearch headroom;

    friend bool operator==(const RegionSpec&, const RegionSpec&) = default;
};

/// Most cells a grid may have.
inline constexpr std::size_t kMaxRegionCells = 1000000;

/// Reads a region spec. Every key is checked (unknown keys, wrong types, out-of-range values,
/// empty or repeated axes) with errors naming the dotted key, e.g.
/// "region.axes[0].values[2]: max_batch must be a whole number from 1 to 65536 (got 0)".
/// Whether precision and power-cap values suit the accelerator is checked by RegionGrid.
Expected<RegionSpec> regionSpecFromJson(const nlohmann::json& json, const std::string& path = {});
/// The JSON form; regionSpecFromJson(toJson(s)) == s.
nlohmann::json toJson(const RegionSpec& spec);

/// Checks a spec built in code (the CLI's) with the same rules and messages as the reader.
Status validate(const RegionSpec& spec, const std::string& path = {});

} // namespace bs::analysis
