#include "analysis/requestparts.h"
#include "sim/estimate.h"

#include <algorithm>
#include <cmath>

namespace bs::analysis::detail {

std::vector<StreamStatistics> streamStatistics(const data::RequestTrace& t, const Derived& d,
                                               double spanS)
{
    std::vector<StreamStatistics> out;
    if (t.streamIndex.empty())
        return out;
    const std::size_t streams = t.streamNames.size();
    out.resize(streams);
    std::vector<std::size_t> offset(streams + 1, 0);
    for (std::size_t s = 0; s < streams; ++s)
        out[s].name = t.streamNames[s];
    for (std::uint32_t s : t.streamIndex) {
        ++out[s].requests;
        ++offset[s + 1];
    }
    if (d.latencyS.empty())
        return out;
    for (std::size_t s = 0; s < streams; ++s)
        offset[s + 1] += offset[s];
    std::vector<double> grouped(t.size());
    std::vector<std::size_t> cursor(offset.begin(), offset.end() - 1);
    for (std::size_t i = 0; i < t.size(); ++i)
        grouped[cursor[t.streamIndex[i]]++] = d.latencyS[i];
    for (std::size_t s = 0; s < streams; ++s) {
        const std::size_t count = offset[s + 1] - offset[s];
        auto& stream = out[s];
        stream.throughputPerS = spanS > 0.0 ? double(count) / spanS : kNaN;
        if (count == 0)
            continue;
        std::span<double> values(grouped.data() + offset[s], count);
        double sum = 0.0;
        for (double v : values)
            sum += v;
        stream.meanS = sum / double(count);
        const auto estimates = percentilesBySelection(values);
        stream.p50 = estimates[0];
        stream.p99 = estimates[3];
    }
    return out;
}

Fairness fairnessOf(const std::vector<StreamStatistics>& streams, double overallP99S)
{
    Fairness f;
    if (streams.empty()) {
        f.reason = "the trace has no stream (tenant) column";
        return f;
    }
    std::vector<double> p99, throughput;
    std::vector<const StreamStatistics*> used;
    for (const auto& s : streams) {
        if (std::isfinite(s.p99.value)) {
            p99.push_back(s.p99.value);
            throughput.push_back(s.throughputPerS);
            used.push_back(&s);
        }
    }
    f.streams = used.size();
    if (used.size() < 2) {
        f.reason = "fairness needs at least 2 streams with completed requests";
        return f;
    }
    f.available = true;
    f.jainP99 = sim::jainIndex(p99);
    f.jainThroughput = sim::jainIndex(throughput);
    const auto worst = std::max_element(p99.begin(), p99.end()) - p99.begin();
    const auto best = std::min_element(p99.begin(), p99.end()) - p99.begin();
    f.worstStream = used[std::size_t(worst)]->name;
    f.bestStream = used[std::size_t(best)]->name;
    f.worstToBestP99 =
        p99[std::size_t(best)] > 0.0 ? p99[std::size_t(worst)] / p99[std::size_t(best)] : kNaN;
    f.worstToOverallP99 = overallP99S > 0.0 ? p99[std::size_t(worst)] / overallP99S : kNaN;
    f.allSufficient = std::all_of(used.begin(), used.end(),
                                  [](const StreamStatistics* s) { return s->p99.sufficient; });
    return f;
}

} // namespace bs::analysis::detail
