#include "accel/calibration.h"

#include "accel/fitproblem.h"
#include "accel/fitreport.h"
#include "accel/levenbergmarquardt.h"
#include "accel/model.h"
#include "accel/specjson.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>

namespace bs::accel {

namespace detail {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double achievableRate(const ModelParams& p)
{
    return p.accelerator.peak(p.precision).value_or(1.0) * p.effectiveEtaCompute();
}

double achievableBandwidth(const ModelParams& p)
{
    return p.accelerator.memoryBandwidthBytesPerS * p.effectiveEtaMemory();
}

ModelParams applied(const FitProblem& problem, const std::vector<double>& x)
{
    ModelParams p = problem.base;
    for (std::size_t j = 0; j < x.size(); ++j)
        problem.defs[j].apply(p, x[j]);
    return p;
}

bool residualsAt(const FitProblem& problem, const std::vector<double>& x, std::vector<double>& r)
{
    auto model = Model::create(applied(problem, x));
    if (!model)
        return false;
    const auto& samples = *problem.samples;
    const std::size_t n = samples.size();
    for (std::size_t i = 0; i < n; ++i) {
        const Prediction p = model->predict(samples[i].batch);
        const double scale =
            problem.weighting == Weighting::Relative ? samples[i].serviceS : problem.meanServiceS;
        r[i] = (p.serviceS - samples[i].serviceS) / scale;
        if (problem.fitPower)
            r[n + i] = (p.powerW - *samples[i].powerW) / *samples[i].powerW;
    }
    return true;
}

/// Mode "workload unknown": the time terms, written as an inline workload on the device.
std::vector<ParamDef> unknownWorkloadDefs(const ModelParams& base, double maxS)
{
    const double rate = achievableRate(base);
    const double bytesPerS = achievableBandwidth(base) / bytesPerElement(base.precision);
    return {
        {"host_overhead_s", "s", 0.0, 10 * maxS, maxS,
         [](ModelParams& p, double v) { p.hostOverheadS = v; }},
        {"compute_s_per_item", "s/item", 1e-15, 10 * maxS, maxS * 1e-3,
         [rate](ModelParams& p, double v) { p.workload.flopsPerItem = v * rate; }},
        {"weight_read_s", "s", 0.0, 10 * maxS, maxS,
         [bytesPerS](ModelParams& p, double v) { p.workload.weightElements = v * bytesPerS; }},
        {"activation_s_per_item", "s/item", 0.0, 10 * maxS, maxS * 1e-3,
         [bytesPerS](ModelParams& p, double v) {
             p.workload.activationElementsPerItem = v * bytesPerS;
         }},
    };
}

std::vector<ParamDef> knownWorkloadDefs(double maxS)
{
    return {
        {"host_overhead_s", "s", 0.0, 10 * maxS, maxS,
         [](ModelParams& p, double v) { p.hostOverheadS = v; }},
        {"eta_compute", "", 1e-3, 1.0, 0.5, [](ModelParams& p, double v) { p.etaCompute = v; }},
        {"eta_memory", "", 1e-3, 1.0, 0.5, [](ModelParams& p, double v) { p.etaMemory = v; }},
    };
}

void addShapeAndPowerDefs(std::vector<ParamDef>& defs, const FitOptions& options, bool fitPower,
                          double maxPowerW)
{
    if (options.fitSmoothMax) {
        defs.push_back({"smooth_max_p", "", 1.0, 32.0, 4.0,
                        [](ModelParams& p, double v) { p.smoothMaxP = v; }});
    }
    if (!fitPower)
        return;
    // P_max is fitted as P_idle + P_dynamic so the bound P_dynamic > 0 keeps P_max > P_idle.
    // A board draws power when idle, and no more than its rated board power when busy: on a
    // named device the datasheet's P_max bounds both (2% of it at least idle, P_dynamic at
    // most 105% of it), so a sweep cannot talk the fit into 0 W idle or a 1 kW 700 W part.
    const bool named = !options.start.accelerator.peakFlopsPerS.empty();
    const double ratedW = named ? options.start.accelerator.powerMaxW : 0.0;
    const double reference = ratedW > 0.0 ? ratedW : maxPowerW;
    const double dynamicUpperW = ratedW > 0.0 ? 1.05 * ratedW : 10 * maxPowerW;
    defs.push_back({"power_idle_w", "W", 0.02 * reference, 10 * maxPowerW, maxPowerW,
                    [](ModelParams& p, double v) {
                        const double dynamic = p.effectivePowerMaxW() - p.effectivePowerIdleW();
                        p.powerIdleW = v;
                        p.powerMaxW = v + dynamic;
                    }});
    defs.push_back({"power_dynamic_w", "W", 1e-3, dynamicUpperW, maxPowerW,
                    [](ModelParams& p, double v) { p.powerMaxW = p.effectivePowerIdleW() + v; }});
    // κ: a memory-bound kernel's dynamic power relative to a compute-bound one's. Physical
    // range [0, 1]: streaming cannot light up more of the chip than dense math does.
    defs.push_back({"memory_activity", "", 0.0, 1.0, 0.5,
                    [](ModelParams& p, double v) { p.memoryActivity = v; }});
}

SweepShape shapeOf(const std::vector<ServiceSample>& samples)
{
    SweepShape s{samples.front().batch,
                 0,
                 samples.back().batch,
                 samples.front().serviceS,
                 0.0,
                 samples.back().serviceS,
                 0.0,
                 HUGE_VAL,
                 0.0};
    for (const auto& sample : samples) {
        s.maxS = std::max(s.maxS, sample.serviceS);
        if (sample.batch < s.hiBatch) {
            s.midBatch = sample.batch;
            s.midS = sample.serviceS;
        }
        if (sample.powerW) {
            s.minPowerW = std::min(s.minPowerW, *sample.powerW);
            s.maxPowerW = std::max(s.maxPowerW, *sample.powerW);
        }
    }
    return s;
}

/// The starting value of every parameter (by name) for one of the starting points.
std::map<std::string, double> startValues(const ModelParams& base, const SweepShape& s,
                                          bool workloadKnown, int variant, double p)
{
    double slope = (s.hiS - s.midS) / std::max(1, s.hiBatch - s.midBatch);
    if (!(slope > 0.0))
        slope = 0.5 * s.hiS / s.hiBatch;
    const double intercept = std::clamp(s.hiS - slope * s.hiBatch, 0.05 * s.loS, 0.95 * s.loS);
    std::map<std::string, double> x;
    if (workloadKnown) {
        const double eta[3][2] = {
            {base.effectiveEtaCompute(), base.effectiveEtaMemory()}, {0.3, 0.5}, {0.9, 0.9}};
        x["host_overhead_s"] = intercept;
        x["eta_compute"] = eta[variant][0];
        x["eta_memory"] = eta[variant][1];
    } else {
        const double host = variant == 2 ? 0.5 * s.loS : intercept;
        x["host_overhead_s"] = host;
        x["compute_s_per_item"] = slope;
        x["weight_read_s"] = std::max(s.loS - host - slope * s.loBatch, 0.02 * s.loS);
        x["activation_s_per_item"] = (variant == 1 ? 0.5 : 0.05) * slope;
    }
    x["smooth_max_p"] = p;
    x["power_idle_w"] = 0.6 * s.minPowerW;
    x["power_dynamic_w"] = std::max(s.maxPowerW - 0.6 * s.minPowerW, 0.1 * s.maxPowerW);
    const double activity[3] = {base.effectiveMemoryActivity(), 0.3, 0.9};
    x["memory_activity"] = activity[variant];
    return x;
}

/// A few deterministic starting points; the best end point wins.
std::vector<std::vector<double>> startingPoints(const FitProblem& problem, const SweepShape& s,
                                                bool workloadKnown)
{
    std::vector<std::vector<double>> starts;
    for (double p : {2.0, 6.0}) {
        for (int variant = 0; variant < 3; ++variant) {
            const auto values = startValues(problem.base, s, workloadKnown, variant, p);
            std::vector<double> x;
            for (const auto& def : problem.defs)
                x.push_back(values.at(def.name));
            starts.push_back(std::move(x));
        }
    }
    return starts;
}

Expected<LmResult> solve(const FitProblem& problem, const SweepShape& shape, bool workloadKnown,
                         int maxIterations)
{
    LmProblem lm;
    lm.residualCount = problem.samples->size() * (problem.fitPower ? 2 : 1);
    lm.evaluate = [&problem](const std::vector<double>& x, std::vector<double>& r) {
        return residualsAt(problem, x, r);
    };
    for (const auto& def : problem.defs) {
        lm.lower.push_back(def.lower);
        lm.upper.push_back(def.upper);
        lm.typical.push_back(def.typical);
    }
    LmOptions options;
    options.maxIterations = maxIterations;
    std::optional<LmResult> best;
    std::optional<Error> firstError;
    for (auto& start : startingPoints(problem, shape, workloadKnown)) {
        auto result = levenbergMarquardt(lm, std::move(start), options);
        if (!result) {
            if (!firstError)
                firstError = result.error();
            continue;
        }
        if (!best || result->sumSquares < best->sumSquares)
            best = std::move(*result);
    }
    if (!best)
        return *firstError;
    return std::move(*best);
}

/// Two-sided Student t quantile at `level` (Cornish–Fisher expansion around the normal one;
/// within 1% of the exact value from 3 degrees of freedom).
double studentQuantile(double level, int dof)
{
    // The levels used are fixed, so the normal quantiles are tabulated.
    const double p = 0.5 + 0.5 * level;
    const double z = p >= 0.995 ? 2.5758 : p >= 0.975 ? 1.9600 : p >= 0.95 ? 1.6449 : 1.2816;
    const double v = double(std::max(dof, 1));
    const double z3 = z * z * z;
    const double z5 = z3 * z * z;
    return z + (z3 + z) / (4.0 * v) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v);
}

} // namespace detail

using namespace detail;

AcceleratorSpec nominalAccelerator()
{
    AcceleratorSpec a;
    a.name = "nominal";
    a.description = "Stand-in when the sweep's accelerator is not named; fitted times do not "
                    "depend on these numbers.";
    for (Precision p : kAllPrecisions)
        a.peakFlopsPerS[p] = 1e15;
    a.memoryBandwidthBytesPerS = 1e12;
    a.etaCompute = 1.0;
    a.etaMemory = 1.0;
    a.powerIdleW = 50.0;
    a.powerMaxW = 300.0;
    return a;
}

namespace {

WorkloadSpec fittedWorkloadTemplate(const ModelParams& base, const std::string& sweepName)
{
    WorkloadSpec w;
    w.name = "fitted";
    w.description = "Time terms fitted to the sweep" +
                    (sweepName.empty() ? std::string() : " '" + sweepName + "'") +
                    "; FLOPs and elements are those times at the device's achievable rate and "
                    "bandwidth, not counts of the real model";
    w.flopsPerItem = 1.0;
    w.defaultPrecision = base.precision;
    return w;
}

void fillUncertainty(FitResult& result, const FitProblem& problem, const LmResult& lm,
                     const std::optional<std::vector<double>>& inverse, double variance,
                     std::size_t freeCount)
{
    FitUncertainty& u = result.uncertainty;
    if (!inverse) {
        u.reason = "the parameters' covariance is unknown (singular normal matrix or no free "
                   "parameter), so predictions carry no interval";
        return;
    }
    const std::size_t n = lm.x.size();
    for (std::size_t j = 0; j < n; ++j) {
        std::vector<double> x = lm.x;
        const double step = 1e-4 * std::max(std::abs(x[j]), problem.defs[j].typical);
        x[j] += step;
        u.nudged.push_back(applied(problem, x));
        u.steps.push_back(step);
    }
    u.covariance.resize(n * n);
    for (std::size_t k = 0; k < n * n; ++k)
        u.covariance[k] = variance * (*inverse)[k];
    u.residualVariance = variance;
    u.weighting = problem.weighting;
    u.meanServiceS = problem.meanServiceS;
    // Power residuals share the fit but not the service-time scatter: count the timing rows.
    u.degreesOfFreedom = int(problem.samples->size()) - int(freeCount);
    u.available = u.degreesOfFreedom > 0;
    if (!u.available)
        u.reason = "as many free parameters as batch sizes: no scatter is left to estimate";
}

/// Every parameter of the fit in `allDefs` order: the free ones with their uncertainty, the
/// ones held at their prior marked fixed.
void fillParameters(FitResult& result, const FitProblem& problem, const LmResult& lm,
                    const std::vector<ParamDef>& allDefs, const std::set<std::string>& fixedNames)
{
    const std::size_t m = lm.residuals.size();
    const std::size_t n = lm.x.size();
    std::vector<bool> use(n);
    std::size_t freeCount = 0;
    for (std::size_t j = 0; j < n; ++j) {
        use[j] = !lm.atBound[j];
        freeCount += use[j] ? 1 : 0;
    }
    std::optional<std::vector<double>> inverse;
    if (m > freeCount && freeCount > 0)
        inverse = inverseNormalMatrix(lm.jacobian, m, n, use);
    // Residual variance s² = Σr²/(m − k): the covariance is s²·(JᵀJ)⁻¹.
    const double variance = m > freeCount ? lm.sumSquares / double(m - freeCount) : kNaN;
    std::map<std::string, FittedParameter> fitted;
    for (std::size_t j = 0; j < n; ++j) {
        const ParamDef& def = problem.defs[j];
        FittedParameter p{def.name,  def.unit,  lm.x[j],       kNaN,
                          def.lower, def.upper, lm.atBound[j], false};
        if (inverse && use[j])
            p.uncertainty = std::sqrt(variance * (*inverse)[j * n + j]);
        if (p.atBound) {
            result.notes.push_back(def.name + " is at its bound (" + formatNumber(p.value) +
                                   "); no uncertainty is reported for it");
        }
        fitted[def.name] = p;
    }
    for (const auto& def : allDefs) {
        if (fixedNames.count(def.name)) {
            FittedParameter p{def.name,  def.unit,  def.prior, kNaN,
                              def.lower, def.upper, false,     true};
            result.parameters.push_back(p);
        } else {
            result.parameters.push_back(fitted.at(def.name));
        }
    }
    if (!inverse && freeCount > 0) {
        result.notes.push_back("the data do not determine every parameter separately (the "
                               "normal matrix is singular); uncertainties are not reported");
    }
    fillUncertainty(result, problem, lm, inverse, variance, freeCount);
}

void fillPoints(FitResult& result, const FitProblem& problem)
{
    auto model = Model::create(result.params);
    for (const auto& sample : *problem.samples) {
        const Prediction p = model->predict(sample.batch);
        FitPoint point;
        point.row = sample.row;
        point.batch = sample.batch;
        point.measuredS = sample.serviceS;
        point.fittedS = p.serviceS;
        point.residualS = p.serviceS - sample.serviceS;
        point.relativeResidual = point.residualS / sample.serviceS;
        point.measuredPowerW = sample.powerW;
        if (problem.fitPower)
            point.fittedPowerW = p.powerW;
        result.points.push_back(point);
    }
    result.crossoverBatch = model->crossoverBatch();
    const auto [smallest, largest] = std::minmax_element(
        problem.samples->begin(), problem.samples->end(),
        [](const ServiceSample& a, const ServiceSample& b) { return a.batch < b.batch; });
    result.fittedMinBatch = smallest->batch;
    result.fittedMaxBatch = largest->batch;
}

} // namespace

ServicePrediction predictService(const FitResult& fit, int batch, double level)
{
    ServicePrediction out;
    out.batch = batch;
    out.level = level;
    out.extrapolated = batch < fit.fittedMinBatch || batch > fit.fittedMaxBatch;
    auto model = Model::create(fit.params);
    if (!model)
        return out;
    out.serviceS = model->predict(batch).serviceS;
    const FitUncertainty& u = fit.uncertainty;
    if (!u.available)
        return out;
    const std::size_t n = u.steps.size();
    std::vector<double> gradient(n, 0.0);
    for (std::size_t j = 0; j < n; ++j) {
        auto nudged = Model::create(u.nudged[j]);
        if (nudged)
            gradient[j] = (nudged->predict(batch).serviceS - out.serviceS) / u.steps[j];
    }
    double parameterVariance = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            parameterVariance += gradient[i] * u.covariance[i * n + j] * gradient[j];
    // The residuals were divided by the measured time (relative) or the mean time (absolute):
    // a new measurement scatters by s times that scale.
    const double scale = u.weighting == Weighting::Relative ? out.serviceS : u.meanServiceS;
    const double variance = parameterVariance + u.residualVariance * scale * scale;
    const double half = studentQuantile(level, u.degreesOfFreedom) * std::sqrt(variance);
    out.hasInterval = std::isfinite(half);
    out.lowS = out.serviceS - half;
    out.highS = out.serviceS + half;
    return out;
}

Expected<FitResult> fitToSweep(const data::SweepTable& sweep, const FitOptions& options)
{
    ModelParams base = options.start;
    const bool named = !base.accelerator.peakFlopsPerS.empty();
    if (!named)
        base.accelerator = nominalAccelerator();
    if (!options.workloadKnown)
        base.workload = fittedWorkloadTemplate(base, sweep.name);
    else if (!(base.workload.flopsPerItem > 0.0))
        return makeError(ErrorCode::Value, options.path, 0, 0,
                         "fit.workload: has no FLOPs per item; name a workload preset");
    if (auto status = validate(base, "fit", options.path); !status)
        return status.error();
    auto selection = selectSamples(sweep, options.serviceTime, options.run, 3, options.path);
    if (!selection)
        return selection.error();
    const SweepShape shape = shapeOf(selection->samples);

    FitProblem problem;
    problem.base = base;
    problem.samples = &selection->samples;
    problem.fitPower = options.fitPower && selection->hasPower;
    problem.weighting = options.weighting;
    double sum = 0.0;
    for (const auto& sample : selection->samples)
        sum += sample.serviceS;
    problem.meanServiceS = sum / double(selection->samples.size());
    problem.defs = options.workloadKnown ? knownWorkloadDefs(shape.maxS)
                                         : unknownWorkloadDefs(base, shape.maxS);
    addShapeAndPowerDefs(problem.defs, options, problem.fitPower, shape.maxPowerW);
    assignPriors(problem.defs, options, base, named, shape);
    const std::vector<ParamDef> allDefs = problem.defs;
    const std::size_t timing = problem.defs.size() - (problem.fitPower ? 2 : 0);
    if (selection->samples.size() <= timing) {
        return makeError(ErrorCode::Value, options.path, 0, 0,
                         "sweep: " + std::to_string(selection->samples.size()) + " points for " +
                             std::to_string(timing) +
                             " free timing parameters; measure more batch sizes, name the "
                             "workload, or keep the smooth-max exponent fixed");
    }
    auto solved = solve(problem, shape, options.workloadKnown, options.maxIterations);
    if (!solved)
        return solved.error();
    LmResult lm = std::move(*solved);
    FitResult result;
    std::set<std::string> fixedNames;
    fixUnpinned(problem, lm, result.identifiability, fixedNames, shape, options);

    result.params = applied(problem, lm.x);
    result.iterations = lm.iterations;
    result.converged = lm.converged;
    result.selection = *selection;
    result.workloadKnown = options.workloadKnown;
    fillParameters(result, problem, lm, allDefs, fixedNames);
    fillPoints(result, problem);
    describeFit(result, named);
    if (!fixedNames.empty()) {
        std::string names;
        for (const auto& f : result.identifiability.findings) {
            if (f.fixed)
                names += (names.empty() ? "" : ", ") + f.name;
        }
        result.notes.push_back("the sweep cannot pin " + names +
                               ": held at the prior, fitted the rest (see the identifiability "
                               "report)");
    }
    const double ratedW = base.accelerator.powerMaxW;
    // Readings above the rating cannot be one board's; a fitted P_max merely pushed to its
    // bound by a sweep that never reaches full activity is reported by the bound note instead.
    if (named && problem.fitPower && ratedW > 0.0 && shape.maxPowerW > 1.05 * ratedW)
        result.warnings.push_back(
            "the sweep logs up to " + formatNumber(shape.maxPowerW) + " W, above the " +
            base.accelerator.name + "'s rated " + formatNumber(ratedW) +
            " W: the logged power is probably not this one board's (a node or PSU reading?)");
    return result;
}

} // namespace bs::accel
