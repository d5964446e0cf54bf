#pragma once

#include "accel/model.h"
#include "sim/result.h"
#include "util/canceltoken.h"
#include "util/error.h"
#include "util/progress.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <vector>

namespace bs {
class ThreadPool;
}

namespace bs::widgets {

/// What the Model dock's sliders define: the accelerator model and the scenario to simulate.
struct WorkbenchInputs
{
    nlohmann::json model = nlohmann::json::object(); ///< accel params; empty: no model.
    nlohmann::json scenario;                         ///< Complete simulator scenario.
    /// Max-batch values at which the policy curve is simulated (ascending).
    std::vector<int> curveBatches;
    /// The offered load (items/s) per batch size of the sweep the model is drawn against, when
    /// that sweep ran at a set request rate: the model is then drawn at the same load, so that
    /// throughput, power and energy mean the same on both sides of the overlay.
    std::map<int, double> offeredRateByBatch;
};

/// One point of the policy curve: the scenario re-run with policy.max_batch = maxBatch.
struct PolicyCurvePoint
{
    int maxBatch = 1;
    bool stable = false;
    double throughputPerS = 0.0;
    double latencyP50S = 0.0;
    double latencyP99S = 0.0;
    double latencyP99LowS = 0.0;
    double latencyP99HighS = 0.0;
    std::optional<double> energyPerRequestJ;
    std::optional<double> meanPowerW;
    double meanBatch = 0.0;
    std::string reason; ///< Why it is unstable.
};

/// Everything the workbench draws after a slider change.
struct WorkbenchOutputs
{
    std::vector<accel::Prediction> predictions; ///< Batch 1..max of the policy curve.
    bool predictionsAtSweepLoad = false;        ///< Drawn at offeredRateByBatch, not at saturation.
    std::string modelLabel;
    std::optional<Error> modelError;
    std::optional<sim::Result> current; ///< The scenario exactly as set.
    std::optional<Error> simulationError;
    std::vector<PolicyCurvePoint> curve;
    double elapsedS = 0.0;
};

/// Builds the model, simulates the scenario and its policy curve. Deterministic: every run
/// has its scenario seed, and points are computed independently on `pool` and kept in order.
/// A bad model or scenario is reported in the outputs, never thrown.
WorkbenchOutputs computeWorkbench(const WorkbenchInputs& inputs, ThreadPool& pool,
                                  Progress& progress, const CancelToken& cancel);

/// Powers of two from 1 up to and including maxBatch (and maxBatch itself when not a power).
std::vector<int> powersOfTwoUpTo(int maxBatch);

} // namespace bs::widgets
