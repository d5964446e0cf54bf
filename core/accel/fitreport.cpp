#include "accel/fitreport.h"

#include "accel/model.h"
#include "accel/specjson.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace bs::accel {

namespace {

/// Above this |relative residual| the model is said not to explain the sweep.
constexpr double kMaxRelativeResidual = 0.10;
/// z of the runs test below which the residual signs are called a pattern (5%, one-sided
/// would be −1.64; two-sided −1.96 keeps false alarms rare on short sweeps).
constexpr double kRunsZ = -1.96;
constexpr int kMinPointsForRunsTest = 6;

std::string percent(double fraction)
{
    return formatNumber(std::round(fraction * 1000.0) / 10.0) + "%";
}

double rSquared(const std::vector<double>& measured, const std::vector<double>& fitted)
{
    double mean = 0.0;
    for (double v : measured)
        mean += v;
    mean /= double(measured.size());
    double residual = 0.0;
    double total = 0.0;
    for (std::size_t i = 0; i < measured.size(); ++i) {
        residual += (fitted[i] - measured[i]) * (fitted[i] - measured[i]);
        total += (measured[i] - mean) * (measured[i] - mean);
    }
    return total > 0.0 ? 1.0 - residual / total : (residual == 0.0 ? 1.0 : 0.0);
}

void residualWarnings(FitResult& result)
{
    std::size_t worst = 0;
    double sumSquares = 0.0;
    std::vector<double> relative;
    for (std::size_t i = 0; i < result.points.size(); ++i) {
        const double r = result.points[i].relativeResidual;
        relative.push_back(r);
        sumSquares += r * r;
        if (std::abs(r) > std::abs(result.points[worst].relativeResidual))
            worst = i;
    }
    const FitPoint& w = result.points[worst];
    result.maxRelativeResidual = std::abs(w.relativeResidual);
    result.rmsRelativeResidual = std::sqrt(sumSquares / double(result.points.size()));
    result.runsTest = runsTest(relative);
    if (result.maxRelativeResidual > kMaxRelativeResidual) {
        result.warnings.push_back(
            "the model does not explain this sweep: at batch " + std::to_string(w.batch) +
            " it is off by " + percent(w.relativeResidual) +
            " (more than 10%); something the model lacks is at work there (a step in host or "
            "copy time, a change of kernel, paging, a second device)");
    }
    // Residuals at rounding level (an exact fit) have signs but no pattern worth a warning.
    const bool exact = result.maxRelativeResidual < 1e-9;
    if (int(result.points.size()) >= kMinPointsForRunsTest && result.runsTest.z < kRunsZ &&
        !exact) {
        result.warnings.push_back(
            "the residuals follow a pattern, not noise: " + std::to_string(result.runsTest.runs) +
            " runs of equal sign where about " +
            formatNumber(std::round(result.runsTest.expectedRuns * 10.0) / 10.0) +
            " are expected; the curve bends where the model's does not");
    }
}

} // namespace

std::string parameterValueText(double v, const std::string& unit)
{
    if (std::isinf(v) && v > 0.0)
        return "hard max";
    if (!std::isfinite(v))
        return "-";
    char text[48];
    if (unit == "s" || unit == "s/item") {
        const double a = std::abs(v);
        const char* suffix = unit == "s/item" ? "/item" : "";
        if (a >= 1.0 || a == 0.0)
            std::snprintf(text, sizeof text, "%.3g s%s", v, suffix);
        else if (a >= 1e-3)
            std::snprintf(text, sizeof text, "%.3g ms%s", v * 1e3, suffix);
        else if (a >= 1e-6)
            std::snprintf(text, sizeof text, "%.3g µs%s", v * 1e6, suffix);
        else
            std::snprintf(text, sizeof text, "%.3g ns%s", v * 1e9, suffix);
    } else {
        std::snprintf(text, sizeof text, "%.3g%s%s", v, unit.empty() ? "" : " ", unit.c_str());
    }
    return text;
}

std::string conditionText(double v)
{
    if (std::isinf(v))
        return "infinite";
    char text[32];
    std::snprintf(text, sizeof text, v < 1e5 ? "%.3g" : "%.2g", v);
    return text;
}

std::vector<std::string> identifiabilityLines(const FitResult& r)
{
    const IdentifiabilityReport& id = r.identifiability;
    std::vector<std::string> lines;
    char limit[64];
    std::snprintf(limit, sizeof limit, "%.0f%%", 100.0 * id.maxRelativeStandardError);
    const std::string maxCondition = conditionText(id.maxConditionNumber);
    if (id.findings.empty()) {
        lines.push_back(
            "Identifiability: every free parameter is pinned by the sweep (condition number " +
            conditionText(id.conditionNumber) + " <= " + maxCondition +
            (id.standardErrorsKnown ? "; relative standard errors <= " + std::string(limit) + ")"
                                    : "; no degree of freedom left to estimate standard "
                                      "errors)"));
    } else {
        std::size_t fixed = 0;
        for (const auto& f : id.findings)
            fixed += f.fixed ? 1 : 0;
        lines.push_back("Identifiability: condition number " +
                        conditionText(id.initialConditionNumber) + " with every parameter free" +
                        (fixed ? ", " + conditionText(id.conditionNumber) + " after fixing " +
                                     std::to_string(fixed)
                               : std::string()) +
                        " (limit " + maxCondition + "); relative standard error limit " + limit);
    }
    for (const auto& f : id.findings) {
        const std::string prior = parameterValueText(f.prior, f.unit) + " (" + f.priorSource + ")";
        if (f.fixed) {
            lines.push_back("  fixed  " + f.name + " = " + prior + ": " + f.reason);
        } else {
            char test[96];
            std::snprintf(test, sizeof test, "F = %.3g > %.3g", f.fStatistic, f.fCritical);
            lines.push_back("  kept   " + f.name + " = " +
                            parameterValueText(f.fittedValue, f.unit) + " as fitted, though " +
                            f.reason + ": holding it at " + prior +
                            " makes the fit significantly worse (" + test +
                            "), so the sweep does say something about it; read it with care");
        }
    }
    std::string pinned, bound;
    for (const auto& p : r.parameters) {
        const bool kept = std::any_of(id.findings.begin(), id.findings.end(),
                                      [&](const auto& f) { return !f.fixed && f.name == p.name; });
        if (p.fixed || kept)
            continue;
        if (p.atBound) {
            bound +=
                (bound.empty() ? "" : ", ") + p.name + " = " + parameterValueText(p.value, p.unit);
            continue;
        }
        pinned += (pinned.empty() ? "" : ", ") + p.name;
        if (std::isfinite(p.uncertainty) && p.value != 0.0) {
            char rse[32];
            std::snprintf(rse, sizeof rse, " (%.2g%%)", 100.0 * p.uncertainty / std::abs(p.value));
            pinned += rse;
        }
    }
    if (!pinned.empty())
        lines.push_back("  pinned " + pinned);
    if (!bound.empty())
        lines.push_back("  at a bound, held there with no uncertainty: " + bound);
    return lines;
}

RunsTest runsTest(const std::vector<double>& residuals)
{
    RunsTest test;
    double positive = 0.0;
    double negative = 0.0;
    for (std::size_t i = 0; i < residuals.size(); ++i) {
        const bool up = residuals[i] >= 0.0;
        (up ? positive : negative) += 1.0;
        if (i == 0 || up != (residuals[i - 1] >= 0.0))
            ++test.runs;
    }
    const double n = positive + negative;
    if (n < 2.0)
        return test;
    test.expectedRuns = 2.0 * positive * negative / n + 1.0;
    const double variance =
        2.0 * positive * negative * (2.0 * positive * negative - n) / (n * n * (n - 1.0));
    if (variance > 0.0)
        test.z = (test.runs - test.expectedRuns) / std::sqrt(variance);
    else
        test.z = -std::numeric_limits<double>::infinity(); // every residual has one sign
    return test;
}

void describeFit(FitResult& result, bool acceleratorNamed)
{
    std::vector<double> measured, fitted, measuredW, fittedW;
    for (const auto& p : result.points) {
        measured.push_back(p.measuredS);
        fitted.push_back(p.fittedS);
        if (p.measuredPowerW && p.fittedPowerW) {
            measuredW.push_back(*p.measuredPowerW);
            fittedW.push_back(*p.fittedPowerW);
        }
    }
    result.rSquared = rSquared(measured, fitted);
    if (!fittedW.empty())
        result.rSquaredPower = rSquared(measuredW, fittedW);
    residualWarnings(result);
    if (!result.converged) {
        result.warnings.push_back("the fit stopped after " + std::to_string(result.iterations) +
                                  " iterations without converging; the values are not a minimum");
    }
    const auto& s = result.selection;
    if (s.runCount > 1) {
        result.notes.push_back(
            "the sweep holds " + std::to_string(s.runCount) + " runs; fitted run " +
            std::to_string(s.run) + (s.series.empty() ? std::string() : " '" + s.series + "'") +
            " (rows " + std::to_string(s.firstRow) + "-" + std::to_string(s.lastRow) + ")");
    }
    result.notes.push_back(std::string("service time taken from ") +
                           serviceTimeSourceName(s.source));
    if (!acceleratorNamed) {
        result.notes.push_back("no accelerator named: a nominal device stands in, so only the "
                               "time terms are meaningful");
    }
}

namespace {

nlohmann::json identifiabilityJson(const FitResult& r)
{
    auto number = [](double v) {
        return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
    };
    const IdentifiabilityReport& id = r.identifiability;
    nlohmann::json fixed = nlohmann::json::array();
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& f : id.findings) {
        nlohmann::json entry = {{"name", f.name},
                                {"unit", f.unit},
                                {"test", f.test},
                                {"figure", number(f.figure)},
                                {"threshold", f.threshold},
                                {"confounded_with", f.confoundedWith},
                                {"correlation", number(f.correlation)},
                                {"fitted_value", number(f.fittedValue)},
                                {"standard_error", number(f.standardError)},
                                {"prior", number(f.prior)},
                                {"prior_text", parameterValueText(f.prior, f.unit)},
                                {"prior_source", f.priorSource},
                                {"f_statistic", number(f.fStatistic)},
                                {"f_critical", number(f.fCritical)},
                                {"reason", f.reason}};
        (f.fixed ? fixed : kept).push_back(std::move(entry));
    }
    nlohmann::json pinned = nlohmann::json::array();
    nlohmann::json atBound = nlohmann::json::array();
    for (const auto& p : r.parameters) {
        const bool flagged = std::any_of(id.findings.begin(), id.findings.end(),
                                         [&](const auto& f) { return f.name == p.name; });
        if (p.fixed || flagged)
            continue;
        if (p.atBound) {
            atBound.push_back(p.name);
            continue;
        }
        pinned.push_back({{"name", p.name},
                          {"relative_standard_error",
                           number(p.value != 0.0 ? p.uncertainty / std::abs(p.value)
                                                 : std::numeric_limits<double>::quiet_NaN())}});
    }
    return {{"max_condition_number", id.maxConditionNumber},
            {"max_relative_standard_error", id.maxRelativeStandardError},
            {"initial_condition_number", number(id.initialConditionNumber)},
            {"initially_singular", std::isinf(id.initialConditionNumber)},
            {"condition_number", number(id.conditionNumber)},
            {"singular", std::isinf(id.conditionNumber)},
            {"standard_errors_known", id.standardErrorsKnown},
            {"fixed", fixed},
            {"kept", kept},
            {"pinned", pinned},
            {"at_bound", atBound},
            {"lines", identifiabilityLines(r)}};
}

} // namespace

nlohmann::json toJson(const FitResult& r)
{
    auto number = [](double v) {
        return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
    };
    nlohmann::json parameters = nlohmann::json::array();
    for (const auto& p : r.parameters) {
        parameters.push_back({{"name", p.name},
                              {"unit", p.unit},
                              {"value", p.value},
                              {"uncertainty", number(p.uncertainty)},
                              {"lower", p.lower},
                              {"upper", p.upper},
                              {"at_bound", p.atBound},
                              {"fixed", p.fixed}});
    }
    nlohmann::json points = nlohmann::json::array();
    for (const auto& p : r.points) {
        nlohmann::json point = {{"row", p.row},
                                {"batch", p.batch},
                                {"measured_s", p.measuredS},
                                {"fitted_s", p.fittedS},
                                {"residual_s", p.residualS},
                                {"relative_residual", p.relativeResidual}};
        io::putOptional(point, "measured_power_w", p.measuredPowerW);
        io::putOptional(point, "fitted_power_w", p.fittedPowerW);
        points.push_back(std::move(point));
    }
    nlohmann::json out = {
        {"run", r.selection.run},
        {"runs", r.selection.runCount},
        {"rows", {r.selection.firstRow, r.selection.lastRow}},
        {"service_time_from", serviceTimeSourceName(r.selection.source)},
        {"workload_known", r.workloadKnown},
        {"parameters", parameters},
        {"points", points},
        {"r_squared", r.rSquared},
        {"max_relative_residual", r.maxRelativeResidual},
        {"rms_relative_residual", r.rmsRelativeResidual},
        {"runs_test",
         {{"runs", r.runsTest.runs},
          {"expected", r.runsTest.expectedRuns},
          {"z", number(r.runsTest.z)}}},
        {"crossover_batch", number(r.crossoverBatch)},
        {"iterations", r.iterations},
        {"converged", r.converged},
        {"warnings", r.warnings},
        {"notes", r.notes},
        {"model", toJson(r.params)},
    };
    io::putOptional(out, "r_squared_power", r.rSquaredPower);
    out["identifiability"] = identifiabilityJson(r);
    return out;
}

} // namespace bs::accel
