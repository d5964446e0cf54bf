#pragma once

#include "llmsim/rooflineratefit.h"

#include <string>
#include <vector>

namespace bs::llmsim {

/// A roofline calibrated on a rate-sweep file (`simulate --fit-roofline`, the Model dock's
/// "Calibrate…"): the fit, with `fit.step.calibratedOn` naming the file, and
/// the file's runs the scenario could not stand for.
struct SweepCalibration
{
    std::string sweepPath;
    RooflineRateFit fit;
    std::vector<RateSweepOmission> omitted;
};

/// Reads an LLM benchmark file (vLLM, SGLang, ... one run per request rate), takes the runs the
/// scenario stands for (rateSweepPoints) and fits the scenario's roofline on them. Errors about
/// the file name it (not an LLM benchmark; too few runs, with the reasons runs were left out);
/// errors about the scenario (not calibratable, a simulation that fails) name no file.
Expected<SweepCalibration> calibrateRooflineOnSweepFile(const LlmScenario& scenario,
                                                        const std::string& sweepPath,
                                                        const std::string& baseDirectory,
                                                        CancelToken cancel = CancelToken(),
                                                        Progress& progress = Progress::null());

} // namespace bs::llmsim
