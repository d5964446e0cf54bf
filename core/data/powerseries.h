#pragma once

#include "data/runtags.h"

#include <string>
#include <vector>

namespace bs::data {

/// Power (and, where logged, clock, temperature and utilisation) samples over time, as a struct
/// of arrays. Times are Unix seconds (UTC; naive timestamps in a log are taken as UTC) so a
/// power log can be joined with a trace or benchmark window written by the same machine.
/// Optional columns are empty or as long as `timeS`.
struct PowerSeries
{
    std::string name;
    std::vector<double> timeS;
    std::vector<double> powerW;
    std::vector<double> smClockMHz;
    std::vector<double> memClockMHz;
    std::vector<double> temperatureC;
    std::vector<double> utilizationPct;
    std::vector<int> channel; ///< Device index or meter channel per sample (optional).
    std::vector<std::string> channelNames;
    /// What one reading represents, in seconds (nvidia-smi averages power over ~1 s on recent
    /// GPUs); used for the uncertainty of energy integrals. 0 when unknown.
    double readingWindowS = 0.0;
    RunTags tags;

    std::size_t size() const { return timeS.size(); }
};

} // namespace bs::data
