#pragma once

#include "sim/result.h"

#include <QString>

namespace bs::widgets {

/// The p99 answer of a simulation as every view states it: value, 95% interval and the run
/// behind it ("p99 140 ms [128, 152] from 4 × 321,600 requests, 20 dwell cycles each"), so the
/// Model dock, the Simulation view and the Region view say the same thing the same way.
QString p99AnswerText(const sim::Result& result);

/// The SLA verdict with its evidence: "met, 3.1 ms to spare (whole 95% interval below)",
/// "MISSED by 125 ms", "undecided: the SLA lies inside the 95% interval [..]", and "not
/// confident" when the run is too short for the traffic (sim::RunCoverage).
QString slaVerdictText(const sim::Result& result, double slaP99Ms);

} // namespace bs::widgets
