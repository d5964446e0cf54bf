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
/// The long-run mean rate of an arrivals object (poisson, gamma, deterministic, mmpp2; a
/// replay only when it is rescaled to rate_per_s, else 0: its rate is the trace's).
double meanRateOf(const nlohmann::json& arrivals);

/// The arrivals with their long-run mean rate set to ratePerS and everything else kept: MMPP-2
/// state rates are scaled by one factor, so their ratio (the burstiness) and the dwell times
/// stay as saved; poisson, gamma, deterministic and a replay (time-scaled) get rate_per_s.
nlohmann::json withMeanRate(nlohmann::json arrivals, double ratePerS);
/// The arrivals with their burstiness set and their mean rate, dwell times and profile kept:
/// gamma's cv, or the MMPP-2 ratio of burst to calm rate. Other kinds are returned unchanged.
nlohmann::json withBurstiness(nlohmann::json arrivals, double burstiness);

} // namespace bs::widgets
