#include "workbench/workbenchdefaults.h"

#include <algorithm>
#include <optional>

namespace bs::widgets {

namespace {
constexpr double kCalmDwellS = 1.0;
constexpr double kBurstDwellS = 0.2;
} // namespace

nlohmann::json defaultModel()
{
    return {{"accelerator", "a100-sxm-80gb"}, {"workload", "resnet50"}, {"precision", "fp16"}};
}

nlohmann::json defaultScenario()
{
    return {{"name", "Interactive scenario"},
            {"seed", 20261202},
            {"requests", 50000},
            {"warmup_requests", 5000},
            {"replications", 4},
            {"arrivals", arrivalsFor("poisson", 2000.0, 1.0)},
            {"policy", {{"kind", "dynamic"}, {"max_batch", 32}, {"max_queue_delay_ms", 2.0}}},
            {"servers", {{"count", 1}}},
            {"service", {{"kind", "accelerator"}}}};
}

nlohmann::json defaultRegion()
{
    return {{"sla_p99_ms", 15.0}};
}

nlohmann::json arrivalsFor(const std::string& kind, double ratePerS, double burstiness)
{
    if (kind == "gamma")
        return {{"kind", "gamma"}, {"rate_per_s", ratePerS}, {"cv", std::max(0.0, burstiness)}};
    if (kind == "mmpp2") {
        const double factor = std::max(1.0, burstiness);
        // Mean rate = (low·d0 + high·d1)/(d0 + d1) with high = factor·low.
        const double low =
            ratePerS * (kCalmDwellS + kBurstDwellS) / (kCalmDwellS + factor * kBurstDwellS);
        return {{"kind", "mmpp2"},
                {"rates_per_s", {low, factor * low}},
                {"mean_dwell_s", {kCalmDwellS, kBurstDwellS}}};
    }
    return {{"kind", "poisson"}, {"rate_per_s", ratePerS}};
}

namespace {
/// Element i of a numeric pair, or nullopt when the project holds something else (a project
/// file is user input: it is validated by the simulator, not trusted here).
std::optional<double> pairValue(const nlohmann::json& object, const char* key, std::size_t i)
{
    if (!object.is_object() || !object.contains(key))
        return std::nullopt;
    const auto& pair = object[key];
    if (!pair.is_array() || pair.size() != 2 || !pair[i].is_number())
        return std::nullopt;
    return pair[i].get<double>();
}

std::string kindOf(const nlohmann::json& arrivals)
{
    if (!arrivals.is_object() || !arrivals.contains("kind") || !arrivals["kind"].is_string())
        return {};
    return arrivals["kind"].get<std::string>();
}

double numberOr(const nlohmann::json& object, const char* key, double fallback)
{
    if (!object.is_object() || !object.contains(key) || !object[key].is_number())
        return fallback;
    return object[key].get<double>();
}
} // namespace

double burstinessOf(const nlohmann::json& arrivals)
{
    const std::string kind = kindOf(arrivals);
    if (kind == "gamma")
        return numberOr(arrivals, "cv", 1.0);
    if (kind == "mmpp2") {
        const auto low = pairValue(arrivals, "rates_per_s", 0);
        const auto high = pairValue(arrivals, "rates_per_s", 1);
        return low && high && *low > 0 ? *high / *low : 1.0;
    }
    return 1.0;
}

double meanRateOf(const nlohmann::json& arrivals)
{
    if (kindOf(arrivals) == "mmpp2") {
        const auto r0 = pairValue(arrivals, "rates_per_s", 0);
        const auto r1 = pairValue(arrivals, "rates_per_s", 1);
        const auto d0 = pairValue(arrivals, "mean_dwell_s", 0);
        const auto d1 = pairValue(arrivals, "mean_dwell_s", 1);
        if (!r0 || !r1 || !d0 || !d1 || *d0 + *d1 <= 0)
            return 0.0;
        return (*r0 * *d0 + *r1 * *d1) / (*d0 + *d1);
    }
    return numberOr(arrivals, "rate_per_s", 0.0);
}

nlohmann::json withMeanRate(nlohmann::json arrivals, double ratePerS)
{
    if (kindOf(arrivals) != "mmpp2") {
        arrivals["rate_per_s"] = ratePerS;
        return arrivals;
    }
    const double mean = meanRateOf(arrivals);
    if (!(mean > 0.0)) // rates the simulator will reject anyway: start from the default shape
        return arrivalsFor("mmpp2", ratePerS, burstinessOf(arrivals));
    const double factor = ratePerS / mean;
    auto& rates = arrivals["rates_per_s"];
    rates = {rates[0].get<double>() * factor, rates[1].get<double>() * factor};
    return arrivals;
}

nlohmann::json withBurstiness(nlohmann::json arrivals, double burstiness)
{
    const std::string kind = kindOf(arrivals);
    if (kind == "gamma") {
        arrivals["cv"] = std::max(0.0, burstiness);
        return arrivals;
    }
    if (kind != "mmpp2")
        return arrivals;
    const double mean = meanRateOf(arrivals);
    const auto calmDwell = pairValue(arrivals, "mean_dwell_s", 0);
    const auto burstDwell = pairValue(arrivals, "mean_dwell_s", 1);
    const double factor = std::max(1.0, burstiness);
    if (!(mean > 0.0) || !calmDwell || !burstDwell) {
        nlohmann::json rebuilt = arrivalsFor("mmpp2", mean, factor);
        if (arrivals.contains("profile"))
            rebuilt["profile"] = arrivals["profile"];
        return rebuilt;
    }
    // The same mean over the saved dwell times, with high = factor · low.
    const double low = mean * (*calmDwell + *burstDwell) / (*calmDwell + factor * *burstDwell);
    arrivals["rates_per_s"] = {low, factor * low};
    return arrivals;
}

} // namespace bs::widgets
