#pragma once

#include "analysis/distribution.h"
#include "data/powerseries.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace bs::analysis {

/// A span of time to charge energy to (a step, a request, a benchmark window). Unix seconds.
struct EnergyWindow
{
    std::string label;
    double startS = 0.0;
    double endS = 0.0;
    double items = 1.0; ///< Inferences/requests/items in the window (for energy per item).
    double referenceEnergyJ = kNaN; ///< An independent measurement (e.g. pyJoules) to compare.
};

struct EnergyEstimate
{
    std::string label;
    double startS = 0.0;
    double endS = 0.0;
    double energyJ = kNaN; ///< Integral of the interpolated power.
    double lowJ = kNaN;    ///< Band: the lower neighbouring reading held over each interval.
    double highJ = kNaN;   ///< Band: the higher one.
    double meanPowerW = kNaN;
    std::uint64_t readings = 0; ///< Readings whose centre falls inside the window.
    double items = 1.0;
    double perItemJ = kNaN;
    double referenceJ = kNaN;
    bool covered = false; ///< The whole window lies within the power log.
};

struct PowerJoinOptions
{
    /// Channel (device) to use; -1 sums every channel (the energy of all devices).
    int channel = -1;
    /// What one reading averages over (seconds); negative: the series' own readingWindowS.
    double readingWindowS = -1.0;
};

struct PowerJoin
{
    std::vector<EnergyEstimate> windows;
    double totalJ = 0.0; ///< Over the covered windows.
    double totalLowJ = 0.0;
    double totalHighJ = 0.0;
    double totalReferenceJ = kNaN;   ///< Over covered windows that have a reference.
    double referenceRatio = kNaN;    ///< totalJ / totalReferenceJ over those windows.
    std::uint64_t uncovered = 0;     ///< Windows not entirely inside the log (not in the totals).
    double samplingIntervalS = kNaN; ///< Median time between readings.
    double readingWindowS = 0.0;
    std::string note;
    std::string method;
};

/// Charges the energy of a power log to windows. Readings are placed at the centre of what
/// they average (t - readingWindow/2; nvidia-smi's power.draw is a ~1 s average on recent
/// GPUs, so a reading describes the second before its timestamp), linearly interpolated and
/// integrated; the band holds the lower/higher of the two neighbouring readings over each
/// interval. Transients shorter than the sampling interval are invisible to any of these.
/// Errors: a series without power readings, non-finite values, windows that end before they
/// start, a channel the series does not have.
Expected<PowerJoin> joinPower(const data::PowerSeries& series,
                              std::span<const EnergyWindow> windows,
                              const PowerJoinOptions& options = {},
                              Progress& progress = Progress::null(),
                              const CancelToken& cancel = CancelToken());

} // namespace bs::analysis
