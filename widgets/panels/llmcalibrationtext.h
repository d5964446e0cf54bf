#pragma once

#include "llmsim/llmscenario.h"
#include "llmsim/rooflinesweepfile.h"

#include <QString>

namespace bs::widgets {

/// The Model dock's note under the accelerator: where the step times come from (the roofline as
/// shipped, calibrated on a sweep, or a linear or profiled step that the hardware knobs need).
QString llmStepNote(const llmsim::StepSpec& step);

/// A calibration as the dock shows it: fitted against stated values, the fit's log-RMS, the
/// worst figure, the runs left out and the parameters the sweep did not pin.
QString llmCalibrationSummary(const llmsim::SweepCalibration& calibration);

/// Clears a step's calibration (calibrated_on, the per-sequence host time, the efficiencies back
/// to the accelerator preset's, or the defaults for an inline accelerator): what was fitted for
/// one model, accelerator and tensor parallelism does not carry to another.
void forgetLlmCalibration(llmsim::StepSpec& step);

} // namespace bs::widgets
