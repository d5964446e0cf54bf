#pragma once

#include "sim/scenario.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bs::sim {

/// Reads a scenario from its JSON form (core/sim/README.md). Every key is checked: unknown keys,
/// wrong types and out-of-range values are errors naming the dotted key, e.g.
/// "scenario.policy.max_batch: must be at least 1 (got 0)". `path` is the file, for messages.
/// Relative replay files are kept as written; the simulator resolves them.
Expected<Scenario> scenarioFromJson(const nlohmann::json& json, const std::string& path = {});

/// The JSON form of a scenario; scenarioFromJson(scenarioToJson(s)) == s. Durations are written
/// in the JSON units (milliseconds for *_ms keys) so that they read back to the same doubles.
nlohmann::json scenarioToJson(const Scenario& scenario);
/// The same, under the name the other modules use (accel::toJson, ...).
inline nlohmann::json toJson(const Scenario& scenario)
{
    return scenarioToJson(scenario);
}

/// Reads and parses a scenario file (plain or gzip JSON).
Expected<Scenario> loadScenario(const std::string& path);

/// The upper limits scenarioFromJson enforces (protect memory and time).
inline constexpr std::uint64_t kMaxRequests = 1000000000;
inline constexpr int kMaxBatch = 65536;
inline constexpr int kMaxServers = 1024;
/// Batches one server may run at once (servers.streams).
inline constexpr int kMaxStreamsPerServer = 64;
inline constexpr int kMaxStreams = 256;
inline constexpr int kMaxReplications = 1000;

} // namespace bs::sim
