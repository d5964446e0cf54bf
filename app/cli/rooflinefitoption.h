#pragma once

#include "commandline.h"
#include "llmsim/llmscenario.h"
#include "llmsim/rooflinesweepfile.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace bs::cli {

using RooflineFitApplied = llmsim::SweepCalibration;

/// --fit-roofline SWEEP: calibrates the scenario's roofline step on a measured rate sweep (a
/// vLLM or SGLang benchmark file with one run per request rate) and puts the fitted step into
/// the scenario, with `calibrated_on` naming the file. Empty without the option.
Expected<std::optional<RooflineFitApplied>> applyRooflineFit(const ParsedArgs& args,
                                                             llmsim::LlmScenario& scenario,
                                                             const std::string& scenarioPath,
                                                             const std::string& baseDirectory);

/// The fit as text: fitted against stated fractions, then measured beside simulated per run.
std::string rooflineFitText(const RooflineFitApplied& applied);

nlohmann::json rooflineFitJson(const RooflineFitApplied& applied);

} // namespace bs::cli
