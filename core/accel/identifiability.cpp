// The identifiability check of a fit (core/accel/README.md "Identifiability"): which parameters
// the sweep cannot pin, held at which prior and why.
#include "accel/fitproblem.h"
#include "accel/fitreport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace bs::accel::detail {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Lower is held at its prior first when several parameters share the combination the data
/// do not see: refinements (κ, p) before secondary time terms before the primary ones.
int fixOrder(const std::string& name)
{
    static const char* const order[] = {
        "memory_activity", "smooth_max_p",   "activation_s_per_item", "weight_read_s",
        "eta_compute",     "eta_memory",     "compute_s_per_item",    "power_dynamic_w",
        "power_idle_w",    "host_overhead_s"};
    for (std::size_t i = 0; i < std::size(order); ++i) {
        if (name == order[i])
            return int(i);
    }
    return int(std::size(order));
}

std::size_t freeCount(const LmResult& lm)
{
    return std::size_t(std::count(lm.atBound.begin(), lm.atBound.end(), false));
}

/// The normal matrix at a fit, twice: over every free parameter, those on a bound included
/// (the condition test: a parameter that ran to a bound because the data do not hold it is
/// still a direction they do not see), and over those off their bounds (standard errors and
/// correlations, as reported).
struct FitAnalysis
{
    NormalMatrixAnalysis all;
    NormalMatrixAnalysis offBound;
};

FitAnalysis analyse(const LmResult& lm)
{
    const std::size_t m = lm.residuals.size();
    const std::size_t n = lm.x.size();
    std::vector<bool> offBound(n);
    for (std::size_t j = 0; j < n; ++j)
        offBound[j] = !lm.atBound[j];
    const std::size_t k = freeCount(lm);
    const double variance = m > k ? lm.sumSquares / double(m - k) : kNaN;
    return {analyseNormalMatrix(lm.jacobian, m, n, std::vector<bool>(n, true), variance),
            analyseNormalMatrix(lm.jacobian, m, n, offBound, variance)};
}

/// The parameter the data pin least, when one breaks a limit: in the direction the normal
/// matrix barely sees when it is ill-conditioned, else the largest relative standard error.
/// `kept` are flagged parameters whose prior the data rejected; they are not picked again.
std::optional<std::pair<std::size_t, IdentifiabilityFinding>>
pickUnpinned(const FitProblem& problem, const LmResult& lm, const FitAnalysis& analysis,
             const IdentifiabilityReport& report, const std::set<std::string>& kept)
{
    const NormalMatrixAnalysis& c = analysis.all;
    const NormalMatrixAnalysis& a = analysis.offBound;
    const std::size_t n = lm.x.size();
    const std::size_t m = lm.residuals.size();
    IdentifiabilityFinding f;
    f.correlation = kNaN;
    std::optional<std::size_t> pick;
    if (c.conditionNumber > report.maxConditionNumber) {
        double largest = 0.0;
        for (std::size_t j = 0; j < n; ++j)
            largest = std::max(largest, std::abs(c.weakest[j]));
        // Among the parameters that make up the weakest direction, the first in fixOrder.
        for (std::size_t j = 0; j < n; ++j) {
            const double w = std::abs(c.weakest[j]);
            if (kept.count(problem.defs[j].name) || w < 0.5 * largest)
                continue;
            if (!pick || fixOrder(problem.defs[j].name) < fixOrder(problem.defs[*pick].name))
                pick = j;
        }
        if (!pick)
            return std::nullopt;
        std::vector<std::pair<double, std::size_t>> others;
        for (std::size_t j = 0; j < n; ++j) {
            if (j != *pick && std::abs(c.weakest[j]) >= 0.3 * largest)
                others.push_back({-std::abs(c.weakest[j]), j});
        }
        std::sort(others.begin(), others.end());
        for (const auto& [w, j] : others)
            f.confoundedWith.push_back(problem.defs[j].name);
        std::string with;
        for (std::size_t i = 0; i < f.confoundedWith.size(); ++i)
            with += (i == 0                             ? ""
                     : i + 1 == f.confoundedWith.size() ? " and "
                                                        : ", ") +
                    f.confoundedWith[i];
        double column = 0.0;
        for (std::size_t i = 0; i < m; ++i)
            column += lm.jacobian[i * n + *pick] * lm.jacobian[i * n + *pick];
        f.figure = c.conditionNumber;
        f.threshold = report.maxConditionNumber;
        if (!(column > 0.0)) {
            f.test = "singular";
            f.reason = "no measurement depends on it (the normal matrix is singular)";
        } else if (std::isinf(c.conditionNumber)) {
            f.test = "singular";
            f.reason = "the normal matrix is singular: the sweep does not separate it" +
                       (with.empty() ? std::string() : " from " + with);
        } else {
            f.test = "condition";
            f.reason = "the normal matrix is ill-conditioned (condition number " +
                       conditionText(c.conditionNumber) + " > " +
                       conditionText(report.maxConditionNumber) +
                       "); the combination the sweep sees least is mostly it" +
                       (with.empty() ? std::string() : ", with " + with);
        }
        if (lm.atBound[*pick])
            f.reason += "; the fit had run it to its bound, " +
                        parameterValueText(lm.x[*pick], problem.defs[*pick].unit);
        if (!f.confoundedWith.empty() && std::isfinite(c.conditionNumber)) {
            for (std::size_t j = 0; j < n; ++j) {
                if (problem.defs[j].name == f.confoundedWith.front())
                    f.correlation = c.correlation[*pick * n + j];
            }
        }
    } else {
        double worst = report.maxRelativeStandardError;
        for (std::size_t j = 0; j < n; ++j) {
            if (lm.atBound[j] || kept.count(problem.defs[j].name))
                continue;
            const double rse = a.standardErrors[j] / std::abs(lm.x[j]);
            if (rse > worst) {
                worst = rse;
                pick = j;
            }
        }
        if (!pick)
            return std::nullopt;
        f.test = "relative_se";
        f.figure = worst;
        f.threshold = report.maxRelativeStandardError;
        std::optional<std::size_t> partner;
        for (std::size_t j = 0; j < n; ++j) {
            const double rho = a.correlation[*pick * n + j];
            if (j != *pick && std::isfinite(rho) && std::abs(rho) >= 0.9 &&
                (!partner || std::abs(rho) > std::abs(a.correlation[*pick * n + *partner])))
                partner = j;
        }
        const ParamDef& def = problem.defs[*pick];
        char figure[96];
        std::snprintf(figure, sizeof figure, "relative standard error %.0f%% > %.0f%%",
                      100.0 * worst, 100.0 * report.maxRelativeStandardError);
        f.reason = std::string(figure) + " (" + parameterValueText(lm.x[*pick], def.unit) + " ± " +
                   parameterValueText(a.standardErrors[*pick], def.unit);
        if (partner) {
            f.confoundedWith.push_back(problem.defs[*partner].name);
            f.correlation = a.correlation[*pick * n + *partner];
            char rho[64];
            std::snprintf(rho, sizeof rho, "; correlation %+.4f with ", f.correlation);
            f.reason += rho + problem.defs[*partner].name;
        }
        f.reason += ")";
    }
    const ParamDef& def = problem.defs[*pick];
    f.name = def.name;
    f.unit = def.unit;
    f.fittedValue = lm.x[*pick];
    f.standardError = a.standardErrors[*pick];
    f.prior = def.prior;
    f.priorSource = def.priorSource;
    return std::make_pair(*pick, f);
}

/// The problem with parameter j held at its prior.
FitProblem withFixed(const FitProblem& problem, std::size_t j)
{
    FitProblem fixed = problem;
    const ParamDef& def = problem.defs[j];
    if (std::isinf(def.prior))
        fixed.base.smoothMaxP.reset(); // the hard max
    else
        def.apply(fixed.base, def.prior);
    fixed.defs.erase(fixed.defs.begin() + std::ptrdiff_t(j));
    return fixed;
}

} // namespace

/// Where each parameter's prior comes from: the named presets, the values given, else the
/// fit's own starting value.
void assignPriors(std::vector<ParamDef>& defs, const FitOptions& options, const ModelParams& base,
                  bool named, const SweepShape& shape)
{
    const auto start = startValues(base, shape, options.workloadKnown, 0, 2.0);
    const ModelParams& given = options.start;
    const std::string device = "accelerator preset '" + base.accelerator.name + "'";
    const std::string fromShape =
        "the fit's starting value from the sweep's shape; no workload preset named";
    for (auto& def : defs) {
        const std::string& n = def.name;
        double prior = start.count(n) ? start.at(n) : def.typical;
        std::string source = fromShape;
        if (n == "host_overhead_s" && options.workloadKnown) {
            prior = base.effectiveHostOverheadS();
            source = given.hostOverheadS ? "the host_overhead_us given"
                                         : "workload preset '" + base.workload.name + "'";
        } else if (n == "eta_compute" || n == "eta_memory") {
            const bool compute = n == "eta_compute";
            prior = compute ? base.effectiveEtaCompute() : base.effectiveEtaMemory();
            source = (compute ? given.etaCompute : given.etaMemory) ? "the " + n + " given"
                     : named                                        ? device
                             : "the nominal device; no accelerator named";
        } else if (n == "smooth_max_p") {
            prior = given.smoothMaxP.value_or(HUGE_VAL);
            source = given.smoothMaxP ? "the smooth_max_p given"
                                      : "the model's default without smooth_max_p";
        } else if (n == "power_idle_w" || n == "power_dynamic_w") {
            const bool idle = n == "power_idle_w";
            if (named || given.powerIdleW || given.powerMaxW) {
                prior = idle ? base.effectivePowerIdleW()
                             : base.effectivePowerMaxW() - base.effectivePowerIdleW();
                source = named ? device : "the power settings given";
            } else {
                source = "the fit's starting value from the sweep's power readings; no "
                         "accelerator named";
            }
        } else if (n == "memory_activity") {
            prior = base.effectiveMemoryActivity();
            source = given.memoryActivity ? "the memory_activity given"
                     : named              ? device + ", where it is an assumption"
                                          : "the model's default; no accelerator named";
        }
        def.prior = std::isinf(prior) ? prior : std::clamp(prior, def.lower, def.upper);
        def.priorSource = source;
    }
}

/// The identifiability check (core/accel/README.md "Identifiability"): while a parameter
/// breaks a limit, hold it at its prior and fit again; keep the refit unless it is
/// significantly worse (F test at 5%: then the data do reject the prior, and the parameter
/// stays fitted, reported as poorly pinned).
void fixUnpinned(FitProblem& problem, LmResult& lm, IdentifiabilityReport& report,
                 std::set<std::string>& fixedNames, const SweepShape& shape,
                 const FitOptions& options)
{
    FitAnalysis a = analyse(lm);
    report.initialConditionNumber = a.all.conditionNumber;
    std::set<std::string> kept;
    while (options.fixUnpinned && problem.defs.size() > 1) {
        auto picked = pickUnpinned(problem, lm, a, report, kept);
        if (!picked)
            break;
        auto& [j, finding] = *picked;
        FitProblem trial = withFixed(problem, j);
        auto refit = solve(trial, shape, options.workloadKnown, options.maxIterations);
        const std::size_t m = lm.residuals.size();
        const std::size_t k = freeCount(lm);
        const double dof = double(m) - double(k);
        const double worse = refit ? refit->sumSquares - lm.sumSquares : HUGE_VAL;
        // A rise below 1e-6 in RMS relative residual is rounding, not evidence.
        const double floor = 1e-12 * double(m);
        finding.fCritical = dof > 0.0 ? std::pow(studentQuantile(0.95, int(dof)), 2) : HUGE_VAL;
        if (!refit)
            finding.fStatistic = HUGE_VAL;
        else if (dof > 0.0 && lm.sumSquares > 0.0)
            finding.fStatistic = std::max(worse, 0.0) / (lm.sumSquares / dof);
        else
            finding.fStatistic = worse <= floor ? 0.0 : HUGE_VAL;
        finding.fixed = refit && (worse <= floor || finding.fStatistic <= finding.fCritical);
        if (finding.fixed) {
            fixedNames.insert(finding.name);
            problem = std::move(trial);
            lm = std::move(*refit);
            a = analyse(lm);
        } else {
            kept.insert(finding.name);
        }
        report.findings.push_back(std::move(finding));
    }
    report.conditionNumber = a.all.conditionNumber;
    report.standardErrorsKnown = lm.residuals.size() > freeCount(lm);
}

} // namespace bs::accel::detail
