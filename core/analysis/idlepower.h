#pragma once

#include "analysis/distribution.h"
#include "analysis/powerchannel.h"

#include <cstddef>
#include <string>

namespace bs::analysis {

/// How the idle power of a log was found.
enum class IdleRule
{
    LowUtilisation,   ///< Readings with GPU utilisation ≤ kIdleUtilisationPct.
    LowestClockState, ///< Readings at the log's lowest SM clock state (the idle P-state).
    LowPercentile,    ///< No reading is marked idle: the 1st percentile of power.
};

/// Utilisation (percent) at or below which a reading counts as idle.
inline constexpr double kIdleUtilisationPct = 5.0;

/// The power a device draws with no work, read from the log's own idle readings.
struct IdlePower
{
    double powerW = kNaN;     ///< Median power of the idle readings (or the 1st percentile).
    std::size_t readings = 0; ///< How many readings it comes from.
    IdleRule rule = IdleRule::LowPercentile;
    /// "median of the 22 readings at the lowest SM clock state (≤ 149 MHz)": for tooltips and
    /// the evidence's method text.
    std::string description;
};

/// The idle power of one device's readings. A low percentile of all readings is not idle power
/// when the log is mostly under load (a 1,347-reading V100S log with 22 idle readings at 24 W
/// has its 5th percentile at 44 W), so the idle readings are picked by what marks them idle,
/// in this order: utilisation ≤ 5 % (when logged); else the lowest SM clock state, when it lies
/// under half the busiest clock (GPUs drop to an idle clock with no work); else, with no reading
/// marked idle, the 1st percentile of power, described as such. At least 3 readings are needed
/// for either idle rule; NaN without readings.
IdlePower idlePower(const PowerChannelSamples& samples);

} // namespace bs::analysis
