#pragma once

#include "accel/calibration.h"

namespace bs::accel {

/// Fills R², residual statistics, the runs test and the plain-language warnings and notes of a
/// fit whose parameters and points are set. `acceleratorNamed` false adds a note that the
/// device is nominal.
void describeFit(FitResult& result, bool acceleratorNamed);

/// A parameter value with its unit, 3 significant digits: "258 µs", "1.2 ms/item", "0.6",
/// "61.5 W"; +inf reads "hard max" (smooth_max_p held at the model's default).
std::string parameterValueText(double value, const std::string& unit);

/// A condition number: "4.1e+09", "361", "infinite".
std::string conditionText(double value);

/// The identifiability report as text lines (what `batchscope-cli fit` prints): a summary with
/// the condition number, one line per parameter held at its prior or poorly pinned (why, with
/// the figure; the value and where it comes from), the pinned ones with their relative
/// standard errors.
std::vector<std::string> identifiabilityLines(const FitResult& result);

/// Signs of the residuals → Wald–Wolfowitz runs test (normal approximation).
RunsTest runsTest(const std::vector<double>& residuals);

} // namespace bs::accel
