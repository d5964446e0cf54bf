#pragma once

#include "data/sweeptable.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace bs::widgets {

/// A simulator `table` service from a measured sweep: per batch size, the latency at the lowest
/// load measured for it (closest to the bare service time): mean latency, else p50. nullopt
/// when the sweep has no latency.
std::optional<nlohmann::json> serviceTableFromSweep(const data::SweepTable& sweep);

} // namespace bs::widgets
