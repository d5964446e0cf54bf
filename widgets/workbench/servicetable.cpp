#include "workbench/servicetable.h"

#include <limits>
#include <map>

namespace bs::widgets {

std::optional<nlohmann::json> serviceTableFromSweep(const data::SweepTable& sweep)
{
    struct Pick
    {
        double load = std::numeric_limits<double>::infinity();
        double latencyS = 0.0;
    };
    std::map<int, Pick> byBatch;
    for (const auto& p : sweep.points) {
        const auto latency = p.latencyMeanS ? p.latencyMeanS : p.latencyP50S;
        if (!latency || *latency <= 0)
            continue;
        const double load = p.concurrency.value_or(p.requestRatePerS.value_or(0.0));
        Pick& pick = byBatch[p.batchSize];
        if (load < pick.load)
            pick = {load, *latency};
    }
    if (byBatch.empty())
        return std::nullopt;
    nlohmann::json batch = nlohmann::json::array();
    nlohmann::json latencyMs = nlohmann::json::array();
    for (const auto& [size, pick] : byBatch) {
        batch.push_back(size);
        latencyMs.push_back(pick.latencyS * 1e3);
    }
    return nlohmann::json{{"kind", "table"}, {"batch", batch}, {"latency_ms", latencyMs}};
}

} // namespace bs::widgets
