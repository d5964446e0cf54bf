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
    bool fitPower = true;     ///< Fit P_idle, P_max and κ when the sweep has power.
    /// Fix each parameter the data cannot pin to its prior and fit the rest again (see
    /// IdentifiabilityReport); false only reports the first fit's condition number.
    bool fixUnpinned = true;
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
    /// The data could not pin it: it is held at its prior (see IdentifiabilityReport), with no
    /// uncertainty. A smooth_max_p held at a hard max reads +inf.
    bool fixed = false;
};

/// One parameter the identifiability check flagged (core/accel/README.md "Identifiability").
struct IdentifiabilityFinding
{
    std::string name;
    std::string unit;
    /// "singular" (a direction of the normal matrix the data do not see at all),
    /// "condition" (condition number above the limit) or "relative_se" (σ/|value| above it).
    std::string test;
    double figure = 0.0;    ///< The condition number (+inf when singular) or σ/|value|.
    double threshold = 0.0; ///< The limit the figure broke.
    /// Parameters it is confounded with: the others in the weakest direction, or its most
    /// correlated partner (|ρ| ≥ 0.9).
    std::vector<std::string> confoundedWith;
    double correlation = 0.0;   ///< With confoundedWith.front() when known, else NaN.
    double fittedValue = 0.0;   ///< Its value in the fit that flagged it.
    double standardError = 0.0; ///< Its σ there (NaN when the matrix is ill-conditioned).
    double prior = 0.0;         ///< What it is fixed to (+inf: a hard max for smooth_max_p).
    std::string priorSource;    ///< Where the prior comes from, in words.
    /// True: held at the prior and the fit redone without it. False: holding it at the prior
    /// made the fit significantly worse (F test at 5%), so it stays fitted, poorly pinned.
    bool fixed = false;
    double fStatistic = 0.0; ///< (S_fixed − S)/(S/ν) of that refit.
    double fCritical = 0.0;  ///< F(1, ν) at 95%.
    std::string reason;      ///< Which test failed, with the figure, in words.
};

/// Which parameters the sweep pins, which it cannot (and what they were fixed to, from where).
struct IdentifiabilityReport
{
    double maxConditionNumber = 1e8;
    double maxRelativeStandardError = 1.0;
    /// Of the column-scaled normal matrix JᵀJ over the free parameters not on a bound: with
    /// every parameter free, and after fixing (+inf: singular; 0: no free parameter).
    double initialConditionNumber = 0.0;
    double conditionNumber = 0.0;
    std::vector<IdentifiabilityFinding> findings; ///< In the order they were decided.
    /// False when the fit has no residual degree of freedom left: σ, and so the relative
    /// standard error test, is unknown.
    bool standardErrorsKnown = true;
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
    IdentifiabilityReport identifiability;
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
