#pragma once

#include "llmsim/llmscenario.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bs::llmsim {

/// True for a JSON object that describes an LLM serving scenario: `"kind": "llm"` or an
/// `"engine"` block (the queueing simulator's scenarios have neither).
bool isLlmScenarioJson(const nlohmann::json& json);

/// The scenario of a JSON object (README.md: "Scenario JSON"). Every key is checked: an
/// unknown key, a wrong type or an out-of-range value is an error naming `path` and the dotted
/// key, e.g. `scenario.engine.block_size: must be at least 1 (got 0)`.
Expected<LlmScenario> llmScenarioFromJson(const nlohmann::json& json, const std::string& path = {});

/// Reads and parses a scenario file (JSON syntax errors name line and column).
Expected<nlohmann::json> readScenarioFile(const std::string& path);

/// The scenario as JSON (what llmScenarioFromJson reads back to an equal scenario).
nlohmann::json llmScenarioToJson(const LlmScenario& scenario);

} // namespace bs::llmsim
