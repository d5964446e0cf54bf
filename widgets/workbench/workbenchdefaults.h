#pragma once

#include <nlohmann/json.hpp>

namespace bs::widgets {

/// The model a new project starts from: an A100 running ResNet-50 in fp16 (presets).
nlohmann::json defaultModel();
/// The scenario a new project starts from: Poisson traffic, Triton dynamic batching, one server,
/// served by the project's accelerator model. 4 replications × 50,000 requests: enough for a
/// p99 with a confidence interval, small enough to re-run while a slider moves.
nlohmann::json defaultScenario();
/// Limits a new project checks against.
nlohmann::json defaultRegion();

/// Arrivals of a given mean rate and burstiness. kind "poisson" ignores burstiness; "gamma"
/// uses it as the coefficient of variation; "mmpp2" as the ratio of the burst rate to the calm
/// rate (calm phases 1 s, bursts 0.2 s on average), keeping the mean rate.
nlohmann::json arrivalsFor(const std::string& kind, double ratePerS, double burstiness);
/// The burstiness value an arrivals object was built with (inverse of arrivalsFor).
double burstinessOf(const nlohmann::json& arrivals);
/// The long-run mean rate of an arrivals object (poisson, gamma, deterministic, mmpp2).
double meanRateOf(const nlohmann::json& arrivals);

} // namespace bs::widgets
