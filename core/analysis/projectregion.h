#pragma once

#include "analysis/llmregion.h"
#include "analysis/regionspec.h"
#include "data/project.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace bs::analysis {

/// Checks the type of every key of a project's `region` section that BatchScope reads (numbers,
/// lists of numbers, `robust` a boolean, `objective` one of the names); the error names the
/// dotted key (`where` is its prefix, usually "region"). Keys it does not know are left alone.
Status checkRegionSection(const nlohmann::json& region, const std::string& where);

/// The scenario with an `accelerator` service that names no model given the project's model
/// section (the Model dock keeps one model for the sweep overlay, the simulator and the region).
nlohmann::json scenarioWithProjectModel(const nlohmann::json& scenario,
                                        const nlohmann::json& model);

/// The feasible-region spec a project asks for, from its first scenario, its model and its
/// `region` section (the GUI's Region view and the report's curve pack use the same one):
///   sla_p99_ms (required), max_batch_values [1..64 powers of two], max_queue_delay_ms_values
///   [0, 0.5, 1, 2, 5, 10], rate_per_s_values (optional), min_throughput_per_s, max_power_w,
///   max_temperature_c, max_energy_per_inference_j, objective, robust.
/// Nothing (no error) when the region section has no SLA; errors name the bad key.
Expected<std::optional<RegionSpec>> regionSpecFromSections(const nlohmann::json& scenario,
                                                           const nlohmann::json& model,
                                                           const nlohmann::json& region);
/// The same for a project (nothing when it has no scenario or no SLA).
Expected<std::optional<RegionSpec>> regionSpecOfProject(const data::Project& project);

/// The LLM server a project studies (its `llm` section, analysis::llmRegionSpecFromJson):
/// nothing when the section is empty; errors name the key under "llm".
Expected<std::optional<LlmRegionSpec>> llmRegionSpecOfProject(const data::Project& project,
                                                              const std::string& projectPath);

} // namespace bs::analysis
