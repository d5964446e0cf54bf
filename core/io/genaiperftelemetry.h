#pragma once

#include "data/llmrun.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bs::io {

/// A statistic of a GenAI-Perf/AIPerf export: a finite non-negative number, else an error
/// naming the file and `where` (the dotted key).
Expected<double> statNumber(const nlohmann::json& value, const std::string& where,
                            const std::string& path);

/// One entry per GPU from GenAI-Perf's `telemetry_stats` ({metric: {"unit", "<gpu>": stats}})
/// or AIPerf's `telemetry_data` (endpoints -> gpus -> {gpu_index, gpu_name, metrics: {metric:
/// {"unit", stats}}}); empty when the export has neither. Units are checked (W, MJ/kJ/J, %,
/// MHz, °C): a unit the reader does not know is an error, never a silently wrong number.
Expected<std::vector<data::LlmGpuTelemetry>> readGpuTelemetry(const nlohmann::json& document,
                                                              const std::string& path);

} // namespace bs::io
