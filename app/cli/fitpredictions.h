#pragma once

#include "accel/calibration.h"
#include "commandline.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace bs::cli {

/// One batch size the fit is asked about: its prediction with a 90% interval and, when the
/// sweep measured it, the measurement (held out of the fit or not).
struct FitPredictionRow
{
    accel::ServicePrediction predicted;
    std::optional<double> measuredS;
    bool heldOut = false; ///< Measured, but above --fit-max-batch: not seen by the fit.
};

/// The rows for the batch sizes in `asked` and every measured batch size the fit did not see.
std::vector<FitPredictionRow> fitPredictionRows(const accel::FitResult& fit,
                                                const data::SweepTable& fullSweep,
                                                const std::vector<int>& asked);

void printFitPredictions(const accel::FitResult& fit, const std::vector<FitPredictionRow>& rows,
                         CliIo& io);
nlohmann::json fitPredictionsJson(const std::vector<FitPredictionRow>& rows);

} // namespace bs::cli
