#pragma once

// Internal to core/accel: what calibration.cpp and identifiability.cpp share (the free
// parameters of a fit, the residual problem, the solver with its starting points).

#include "accel/calibration.h"
#include "accel/levenbergmarquardt.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace bs::accel::detail {

/// One free parameter: its name, bounds, and how it is written into ModelParams.
struct ParamDef
{
    ParamDef(std::string name_, std::string unit_, double lower_, double upper_, double typical_,
             std::function<void(ModelParams&, double)> apply_)
        : name(std::move(name_))
        , unit(std::move(unit_))
        , lower(lower_)
        , upper(upper_)
        , typical(typical_)
        , apply(std::move(apply_))
    {}

    std::string name;
    std::string unit;
    double lower;
    double upper;
    double typical;
    std::function<void(ModelParams&, double)> apply;
    /// What the parameter is held at when the data cannot pin it, and where that comes from.
    double prior = 0.0;
    std::string priorSource;
};

/// What the residual function needs.
struct FitProblem
{
    ModelParams base;
    std::vector<ParamDef> defs;
    const std::vector<ServiceSample>* samples = nullptr;
    bool fitPower = false;
    Weighting weighting = Weighting::Relative;
    double meanServiceS = 1.0;
};

struct SweepShape
{
    int loBatch, midBatch, hiBatch;
    double loS, midS, hiS, maxS;
    double minPowerW, maxPowerW;
};

/// The model parameters with the free parameters set to x.
ModelParams applied(const FitProblem& problem, const std::vector<double>& x);

/// The starting value of every parameter (by name) for starting point `variant` (0…2) with
/// smooth-max exponent p.
std::map<std::string, double> startValues(const ModelParams& base, const SweepShape& s,
                                          bool workloadKnown, int variant, double p);

/// Bounded Levenberg–Marquardt from the six starting points; the lowest Σr² wins.
Expected<LmResult> solve(const FitProblem& problem, const SweepShape& shape, bool workloadKnown,
                         int maxIterations);

/// Two-sided Student t quantile at `level` with `dof` degrees of freedom.
double studentQuantile(double level, int dof);

/// Sets each parameter's prior and where it comes from (core/accel/README.md
/// "Identifiability").
void assignPriors(std::vector<ParamDef>& defs, const FitOptions& options, const ModelParams& base,
                  bool named, const SweepShape& shape);

/// The identifiability check: while a parameter breaks a limit, hold it at its prior and fit
/// again (kept unless an F test rejects the prior). `problem` and `lm` become the final fit;
/// `fixedNames` the parameters held.
void fixUnpinned(FitProblem& problem, LmResult& lm, IdentifiabilityReport& report,
                 std::set<std::string>& fixedNames, const SweepShape& shape,
                 const FitOptions& options);

} // namespace bs::accel::detail
