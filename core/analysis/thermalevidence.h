#pragma once

#include "analysis/distribution.h"
#include "data/powerseries.h"
#include "util/expected.h"

#include <span>
#include <string>
#include <vector>

namespace bs::analysis {

/// A stretch under load where the SM clock fell well below its sustained value.
struct ClockDrop
{
    double startS = 0.0; ///< Unix seconds.
    double endS = 0.0;
    double minClockMHz = kNaN;
    double dropFraction = kNaN; ///< 1 - min clock / sustained clock.
    double meanPowerW = kNaN;
    double maxTemperatureC = kNaN;
};

/// Power, clock, temperature and throughput on one time axis, with the evidence for thermal or
/// power throttling they show.
struct ThermalEvidence
{
    bool available = false;
    std::string reason;
    double windowS = 0.0;
    std::vector<double> startS; ///< Window starts, Unix seconds.
    std::vector<double> powerW; ///< Window means; NaN where the log has no reading.
    std::vector<double> smClockMHz;
    std::vector<double> temperatureC;
    std::vector<double> throughputPerS; ///< Completions per second; empty without events.
    double idlePowerW = kNaN;  ///< From the log's idle readings: see analysis::idlePower().
    std::string idlePowerRule; ///< How idlePowerW was found ("median of the 22 readings ...").
    double sustainedClockMHz = kNaN; ///< 95th percentile of the SM clock under load.
    std::vector<ClockDrop> drops;
    double temperatureRiseC = kNaN; ///< Last minus first loaded window's mean temperature.
    double clockThroughputCorrelation = kNaN; ///< Pearson r over windows with both.
    std::string verdict;
    std::string method;
};

/// Aligns a power log (one channel: the first, or `channel`) with completion times (Unix
/// seconds; may be empty) in windows of windowS (0: about 100 windows). "Under load" means a
/// power reading at least halfway from idle (analysis::idlePower()) to peak; a clock drop is a run
/// of loaded readings with the SM clock below 90% of the sustained (p95 loaded) clock.
Expected<ThermalEvidence> thermalEvidence(const data::PowerSeries& series,
                                          std::span<const double> completionS, double windowS = 0.0,
                                          int channel = -1);

} // namespace bs::analysis
