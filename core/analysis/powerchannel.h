#pragma once

#include "data/powerseries.h"

#include <vector>

namespace bs::analysis {

/// One device's readings of a power log in time order. Optional columns are empty when the
/// log has none.
struct PowerChannelSamples
{
    std::vector<double> t, power, clock, temperature, utilizationPct;
};

/// The readings of `channel`, or of the first channel in the log when `channel` < 0.
PowerChannelSamples powerChannelSamples(const data::PowerSeries& series, int channel);

} // namespace bs::analysis
