#pragma once

#include "accel/calibration.h"

namespace bs::accel {

/// Fills R², residual statistics, the runs test and the plain-language warnings and notes of a
/// fit whose parameters and points are set. `acceleratorNamed` false adds a note that the
/// device is nominal.
void describeFit(FitResult& result, bool acceleratorNamed);

/// Signs of the residuals → Wald–Wolfowitz runs test (normal approximation).
RunsTest runsTest(const std::vector<double>& residuals);

} // namespace bs::accel
