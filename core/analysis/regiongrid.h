#pragma once

#include "analysis/regionspec.h"
#include "sim/scenario.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace bs::analysis {

/// The cells of a region spec and the scenario of each. Cells are numbered in row-major order
/// of the axes (the last axis varies fastest). A "policy" is one combination of the non-rate
/// axes; its cells differ only in the arrival rate (capacity curves and shards work per
/// policy). Immutable after create(); all methods are const and thread-safe.
class RegionGrid
{
public:
    /// Validates the spec (regionspec.h rules, plus: every precision and power-cap value builds
    /// a valid accelerator model) and reads replay traces once (the cells simulate copies of
    /// them inline, bit-identical to reading the file). `baseDirectory` resolves relative
    /// replay files (the scenario file's folder).
    static Expected<RegionGrid> create(const RegionSpec& spec, const std::string& baseDirectory,
                                       Progress& progress = Progress::null(),
                                       const CancelToken& cancel = CancelToken());

    const RegionSpec& spec() const { return m_spec; }
    std::size_t cellCount() const { return m_cellCount; }
    /// The value index on each axis of `cell`.
    std::vector<std::size_t> axisIndex(std::size_t cell) const;
    std::size_t cellAt(const std::vector<std::size_t>& axisIndex) const;

    /// The position of the rate axis (rate_per_s or rate_multiplier) in spec().axes, if any.
    std::optional<std::size_t> rateAxis() const { return m_rateAxis; }
    std::size_t policyCount() const { return m_cellCount / rateCount(); }
    std::size_t policyOf(std::size_t cell) const;
    /// The cells of a policy, by increasing rate index.
    std::vector<std::size_t> cellsOfPolicy(std::size_t policy) const;

    /// The long-run mean offered rate of the base scenario, all streams (req/s).
    double baseOfferedRatePerS() const { return m_baseRatePerS; }
    /// The offered rate of `cell` (its rate axis value; the base rate without a rate axis).
    double cellRatePerS(std::size_t cell) const;

    /// The scenario of `cell` as a user would write it (replay files referenced, not inlined):
    /// what the GUI loads when a cell is clicked.
    sim::Scenario cellScenario(std::size_t cell) const;
    /// The scenario the analysis simulates for `cell` (replays inlined), at the cell's own rate
    /// or, when given, at `ratePerS` (capacity and headroom searches).
    sim::Scenario simulationScenario(std::size_t cell,
                                     std::optional<double> ratePerS = std::nullopt) const;

    /// Whether burstiness can be varied: one stream of Poisson, deterministic or gamma arrivals.
    bool supportsBurstiness() const;
    /// The coefficient of variation of the base arrivals' gaps (Poisson 1, deterministic 0).
    double baseArrivalCv() const;
    /// `scenario` with its arrivals made a gamma renewal process of the same rate and gap cv.
    static sim::Scenario withArrivalCv(sim::Scenario scenario, double cv);

private:
    RegionGrid() = default;
    std::size_t rateCount() const { return m_rateAxis ? m_spec.axes[*m_rateAxis].size() : 1; }
    sim::Scenario build(const sim::Scenario& base, std::size_t cell,
                        std::optional<double> ratePerS) const;
    void setRate(sim::Scenario& scenario, double ratePerS) const;

    RegionSpec m_spec;
    sim::Scenario m_inlined; ///< The base scenario with replay files read into times_s.
    std::vector<double> m_recordedRatePerS; ///< Per stream: a replay's rate as recorded.
    double m_baseRatePerS = 0.0;
    std::size_t m_cellCount = 1;
    std::vector<std::size_t> m_strides;
    std::optional<std::size_t> m_rateAxis;
};

} // namespace bs::analysis
