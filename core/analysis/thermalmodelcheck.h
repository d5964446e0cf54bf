#pragma once

#include "accel/acceleratorspec.h"
#include "analysis/distribution.h"
#include "data/powerseries.h"
#include "util/expected.h"

#include <string>
#include <vector>

namespace bs::analysis {

/// Whether a power log's temperatures are what the accelerator model's first-order thermal RC
/// (C·dT/dt = P − (T − T_amb)/R) predicts from the log's own power readings. A thermal
/// prediction (time to throttle, throttled clock) is only as good as this agreement: a log that
/// runs hotter than the model means the model's ambient or thermal resistance is wrong for the
/// device, and every throttling figure it gives is too optimistic.
struct ThermalModelCheck
{
    bool available = false;
    std::string reason; ///< Why it is not available.
    accel::ThermalSpec model;
    std::vector<double> timeS;      ///< Unix seconds of the readings with a temperature.
    std::vector<double> loggedC;    ///< As logged.
    std::vector<double> predictedC; ///< The model's temperature, from the first logged one.
    double meanAbsErrorC = kNaN;
    double maxAbsErrorC = kNaN;
    double biasC = kNaN; ///< Mean of logged − predicted: > 0 when the log runs hotter.
    /// Steady state the model gives at the log's highest power reading (T_amb + P·R), against
    /// the hottest logged temperature.
    double peakPowerW = kNaN;
    double modelSteadyAtPeakC = kNaN;
    double loggedMaxC = kNaN;
    double toleranceC = 0.0;
    bool agrees = false;
    std::string verdict;
    std::string method;
};

/// Mean absolute difference allowed between the log and the model: a logged temperature is a
/// whole degree on nvidia-smi, and a reading window blurs a power step by up to a second.
inline constexpr double kThermalAgreementC = 1.5;

/// Integrates the model over the log of one channel (the first when `channel` < 0), holding
/// each reading's power over the interval that ends at it (a reading averages the window before
/// it), starting from the first logged temperature.
Expected<ThermalModelCheck> checkThermalModel(const data::PowerSeries& series,
                                              const accel::ThermalSpec& model, int channel = -1);

} // namespace bs::analysis
