#pragma once

#include "accel/calibration.h"
#include "charts/chartcontent.h"

namespace bs::widgets {

/// Measured and fitted service time t(b) (ms) against batch size, with the fit's 90% prediction
/// interval as dashed bounds and the end of the fitted batch range marked when the curve goes
/// past it (a prediction there is an extrapolation).
ChartContent fitServiceTimeChart(const accel::FitResult& fit);

/// (fitted − measured) / measured in percent per measured batch size, for the service time and,
/// when power was fitted, the power: a pattern rather than scatter around zero says the model
/// lacks a mechanism.
ChartContent fitResidualChart(const accel::FitResult& fit);

/// The batch sizes the fitted curve is drawn at: powers of two up to twice the largest
/// measured batch, and every measured batch.
std::vector<int> fitCurveBatches(const accel::FitResult& fit);

} // namespace bs::widgets
