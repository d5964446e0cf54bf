#pragma once

#include "accel/modelparams.h"
#include "accel/sweepsamples.h"
#include "data/sweeptable.h"
#include "util/expected.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bs::accel {

/// How residuals are weighted.
enum class Weighting
{
    Relative, ///< (model − measured)/measured: every batch size counts alike (default).
    Absolute, ///< (model − measured)/mean(measured): large batches dominate.
};

/// What to fit and how.
struct FitOptions
{
    /// The accelerator, precision, power cap and thermal settings the sweep ran with. An
    /// accelerator without peaks (the default) stands for "not named": a nominal device is used
    /// and the fitted values are meaningful as times only.
    ModelParams start;
    /// True: start.workload is what ran; the fit adjusts host overhead, η_c, η_m (and p).
    /// False: the workload is unknown; the fit finds its time terms (host overhead, compute
    /// s/item, weight-read s, activation s/item, p) and expresses them as an inline workload.
    bool workloadKnown = false;
    ServiceTimeSource serviceTime = ServiceTimeSource::Auto;
    Weighting weighting = Weighting::Relative;
    int run = 0;              ///< 1-based run of the sweep; 0 = the run with most batch sizes.
    bool fitSmoothMax = true; ///< Fit p; false keeps start.smoothMaxP (absent = hard max).
    bool fitPower = true;     ///< Fit P_idle and P_max when the sweep has power.
    int maxIterations = 200;
    std::string path; ///< The sweep's file, for error messages.
};

/// One fitted parameter with its 1σ uncertainty (NaN when the data do not determine it or it
/// sits on a bound).
struct FittedParameter
{
    std::string name; ///< As in JSON: "host_overhead_s", "eta_compute", ...
    std::string unit; ///< "s", "s/item", "W", "" (dimensionless).
    double value = 0.0;
    double uncertainty = 0.0;
    double lower = 0.0;
    double upper = 0.0;
    bool atBound = false;
};

/// The fit at one measured row.
struct FitPoint
{
    std::size_t row = 0;
    int batch = 1;
    double measuredS = 0.0;
    double fittedS = 0.0;
    double residualS = 0.0;        ///< fitted − measured.
    double relativeResidual = 0.0; ///< residual / measured.
    std::optional<double> measuredPowerW;
    std::optional<double> fittedPowerW;
};

/// Wald–Wolfowitz runs test on the signs of the residuals: too few runs of equal sign means
/// the residuals follow a pattern (a mechanism the model lacks) rather than noise.
struct RunsTest
{
    int runs = 0;
    double expectedRuns = 0.0;
    double z = 0.0; ///< (runs − expected)/σ; below −1.96 flags a pattern (5% level).
};

/// What predicting t(b) for any batch size needs beyond the point estimate: the model with
/// each free parameter nudged (for the gradient) and the parameters' covariance.
struct FitUncertainty
{
    bool available = false;
    std::string reason;              ///< Why not, when not available.
    std::vector<ModelParams> nudged; ///< params with parameter j + step[j].
    std::vector<double> steps;
    std::vector<double> covariance; ///< n × n, row-major; 0 for parameters on a bound.
    double residualVariance = 0.0;  ///< s², in the weighting's units.
    Weighting weighting = Weighting::Relative;
    double meanServiceS = 1.0;
    int degreesOfFreedom = 0;
};

/// t(b) from a fit, with a prediction interval for a new measurement at that batch size.
struct ServicePrediction
{
    int batch = 1;
    double serviceS = 0.0;
    bool hasInterval = false;
    double lowS = 0.0;
    double highS = 0.0;
    double level = 0.90;
    /// Outside the fitted batch range: the interval assumes the model's shape holds there.
    bool extrapolated = false;
};

struct FitResult
{
    ModelParams params; ///< The calibrated model parameters (Model::create(params) works).
    std::vector<FittedParameter> parameters;
    std::vector<FitPoint> points;
    double rSquared = 0.0;               ///< Of the service time.
    std::optional<double> rSquaredPower; ///< When power was fitted.
    double maxRelativeResidual = 0.0;    ///< max |relative residual| of the service time.
    double rmsRelativeResidual = 0.0;
    RunsTest runsTest;
    double crossoverBatch = 0.0; ///< b* of the calibrated model (+inf: never compute-bound).
    int iterations = 0;
    bool converged = false;
    SampleSelection selection; ///< Run, rows, service-time source.
    bool workloadKnown = false;
    std::vector<std::string> warnings; ///< The model does not explain the data, and why.
    std::vector<std::string> notes;    ///< Bounds hit, parameters not determined, run choice.
    FitUncertainty uncertainty;
    int fittedMinBatch = 0; ///< The batch range the fit saw.
    int fittedMaxBatch = 0;
};

/// The fitted t(b) at `batch` with a `level` (0..1) prediction interval: parameter covariance
/// propagated through the model's gradient plus the fit's residual scatter, Student t with the
/// fit's degrees of freedom. No interval when the covariance is unknown.
ServicePrediction predictService(const FitResult& fit, int batch, double level = 0.90);

/// The device assumed when the sweep's accelerator is not named: 1 PFLOP/s at every precision,
/// 1 TB/s, 50–300 W. Fitted times do not depend on it.
AcceleratorSpec nominalAccelerator();

/// Fits the model to a measured sweep by bounded, weighted Levenberg–Marquardt (see
/// core/accel/README.md). Errors: a sweep too short, a decreasing batch column, a missing or
/// non-finite service time, an accelerator without a peak for the precision.
Expected<FitResult> fitToSweep(const data::SweepTable& sweep, const FitOptions& options);

/// The result as JSON: parameters with uncertainties, residual per row, R², warnings, and the
/// calibrated model parameters under "model".
nlohmann::json toJson(const FitResult& result);

} // namespace bs::accel
