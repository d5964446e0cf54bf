#include "accel/fitreport.h"

#include "accel/model.h"
#include "accel/specjson.h"

#include <cmath>
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
    if (int(result.points.size()) >= kMinPointsForRunsTest && result.runsTest.z < kRunsZ) {
        result.warnings.push_back(
            "the residuals follow a pattern, not noise: " + std::to_string(result.runsTest.runs) +
            " runs of equal sign where about " +
            formatNumber(std::round(result.runsTest.expectedRuns * 10.0) / 10.0) +
            " are expected; the curve bends where the model's does not");
    }
}

} // namespace

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
                              {"at_bound", p.atBound}});
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
    return out;
}

} // namespace bs::accel
