#include "analysis/powerchannel.h"

#include <algorithm>

namespace bs::analysis {

PowerChannelSamples powerChannelSamples(const data::PowerSeries& s, int channel)
{
    PowerChannelSamples out;
    const int wanted = channel >= 0 ? channel : (s.channel.empty() ? 0 : s.channel.front());
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s.channel.empty() || s.channel[i] == wanted)
            order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return s.timeS[a] < s.timeS[b]; });
    for (std::size_t i : order) {
        out.t.push_back(s.timeS[i]);
        out.power.push_back(s.powerW[i]);
        if (!s.smClockMHz.empty())
            out.clock.push_back(s.smClockMHz[i]);
        if (!s.temperatureC.empty())
            out.temperature.push_back(s.temperatureC[i]);
        if (!s.utilizationPct.empty())
            out.utilizationPct.push_back(s.utilizationPct[i]);
    }
    return out;
}

} // namespace bs::analysis
