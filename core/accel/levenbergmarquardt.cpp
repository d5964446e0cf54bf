#include "accel/levenbergmarquardt.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace bs::accel {

namespace {

double sumSquares(const std::vector<double>& r)
{
    double s = 0.0;
    for (double v : r)
        s += v * v;
    return s;
}

void clampToBox(const LmProblem& problem, std::vector<double>& x)
{
    for (std::size_t j = 0; j < x.size(); ++j)
        x[j] = std::clamp(x[j], problem.lower[j], problem.upper[j]);
}

/// Central differences, one-sided where a bound is in the way. Row-major m × n.
bool jacobianAt(const LmProblem& problem, const std::vector<double>& x, std::vector<double>& jac)
{
    const std::size_t m = problem.residualCount;
    const std::size_t n = x.size();
    jac.assign(m * n, 0.0);
    std::vector<double> plus(m), minus(m), probe = x;
    for (std::size_t j = 0; j < n; ++j) {
        const double h = 1e-6 * std::max(std::abs(x[j]), problem.typical[j]);
        const double hi = std::min(x[j] + h, problem.upper[j]);
        const double lo = std::max(x[j] - h, problem.lower[j]);
        if (hi <= lo)
            continue;
        probe[j] = hi;
        const bool okPlus = problem.evaluate(probe, plus);
        probe[j] = lo;
        const bool okMinus = problem.evaluate(probe, minus);
        probe[j] = x[j];
        if (!okPlus || !okMinus)
            return false;
        for (std::size_t i = 0; i < m; ++i)
            jac[i * n + j] = (plus[i] - minus[i]) / (hi - lo);
    }
    return true;
}

/// JᵀJ (n × n) and Jᵀr (n).
void normalEquations(const std::vector<double>& jac, const std::vector<double>& r, std::size_t n,
                     std::vector<double>& jtj, std::vector<double>& jtr)
{
    const std::size_t m = r.size();
    jtj.assign(n * n, 0.0);
    jtr.assign(n, 0.0);
    for (std::size_t i = 0; i < m; ++i) {
        const double* row = &jac[i * n];
        for (std::size_t a = 0; a < n; ++a) {
            jtr[a] += row[a] * r[i];
            for (std::size_t b = 0; b < n; ++b)
                jtj[a * n + b] += row[a] * row[b];
        }
    }
}

/// Parameters on a bound whose gradient pushes them further out stay where they are.
std::vector<bool> freeParameters(const LmProblem& problem, const std::vector<double>& x,
                                 const std::vector<double>& gradient)
{
    std::vector<bool> free(x.size(), true);
    for (std::size_t j = 0; j < x.size(); ++j) {
        // The descent direction is −gradient.
        if ((x[j] <= problem.lower[j] && gradient[j] > 0.0) ||
            (x[j] >= problem.upper[j] && gradient[j] < 0.0))
            free[j] = false;
    }
    return free;
}

/// Solves (JᵀJ + λ·diag(JᵀJ))·δ = −Jᵀr over the free parameters.
std::optional<std::vector<double>> dampedStep(const std::vector<double>& jtj,
                                              const std::vector<double>& jtr,
                                              const std::vector<bool>& free, double lambda)
{
    const std::size_t n = jtr.size();
    std::vector<std::size_t> index;
    double maxDiag = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
        if (free[j]) {
            index.push_back(j);
            maxDiag = std::max(maxDiag, jtj[j * n + j]);
        }
    }
    const std::size_t k = index.size();
    std::vector<double> a(k * k), b(k);
    for (std::size_t p = 0; p < k; ++p) {
        for (std::size_t q = 0; q < k; ++q)
            a[p * k + q] = jtj[index[p] * n + index[q]];
        // A floor on the damping keeps a column with no sensitivity from making A singular.
        const double diag = std::max(jtj[index[p] * n + index[p]], 1e-12 * maxDiag + 1e-300);
        a[p * k + p] += lambda * diag;
        b[p] = -jtr[index[p]];
    }
    auto solved = solveSpd(std::move(a), std::move(b));
    if (!solved)
        return std::nullopt;
    std::vector<double> step(n, 0.0);
    for (std::size_t p = 0; p < k; ++p)
        step[index[p]] = (*solved)[p];
    return step;
}

bool smallStep(const LmProblem& problem, const std::vector<double>& before,
               const std::vector<double>& after, double tolerance)
{
    for (std::size_t j = 0; j < before.size(); ++j) {
        const double scale = std::max(std::abs(before[j]), problem.typical[j]);
        if (std::abs(after[j] - before[j]) > tolerance * scale)
            return false;
    }
    return true;
}

Error lmError(const std::string& message)
{
    return makeError(ErrorCode::Internal, "least squares: " + message);
}

} // namespace

std::optional<std::vector<double>> solveSpd(std::vector<double> a, std::vector<double> b)
{
    const std::size_t n = b.size();
    // In-place Cholesky: a = L·Lᵀ, L in the lower triangle.
    for (std::size_t j = 0; j < n; ++j) {
        double d = a[j * n + j];
        for (std::size_t k = 0; k < j; ++k)
            d -= a[j * n + k] * a[j * n + k];
        if (!(d > 0.0) || !std::isfinite(d))
            return std::nullopt;
        const double l = std::sqrt(d);
        a[j * n + j] = l;
        for (std::size_t i = j + 1; i < n; ++i) {
            double s = a[i * n + j];
            for (std::size_t k = 0; k < j; ++k)
                s -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = s / l;
        }
    }
    for (std::size_t i = 0; i < n; ++i) { // L·y = b
        for (std::size_t k = 0; k < i; ++k)
            b[i] -= a[i * n + k] * b[k];
        b[i] /= a[i * n + i];
    }
    for (std::size_t i = n; i-- > 0;) { // Lᵀ·x = y
        for (std::size_t k = i + 1; k < n; ++k)
            b[i] -= a[k * n + i] * b[k];
        b[i] /= a[i * n + i];
    }
    return b;
}

std::optional<std::vector<double>> inverseNormalMatrix(const std::vector<double>& jacobian,
                                                       std::size_t rows, std::size_t cols,
                                                       const std::vector<bool>& use)
{
    std::vector<std::size_t> index;
    for (std::size_t j = 0; j < cols; ++j) {
        if (use[j])
            index.push_back(j);
    }
    const std::size_t k = index.size();
    // Scale columns to unit norm first so the singularity test does not depend on units.
    std::vector<double> norm(k, 0.0);
    for (std::size_t p = 0; p < k; ++p) {
        for (std::size_t i = 0; i < rows; ++i)
            norm[p] += jacobian[i * cols + index[p]] * jacobian[i * cols + index[p]];
        norm[p] = std::sqrt(norm[p]);
        if (!(norm[p] > 0.0))
            return std::nullopt;
    }
    std::vector<double> a(k * k, 0.0);
    for (std::size_t p = 0; p < k; ++p) {
        for (std::size_t q = 0; q < k; ++q) {
            for (std::size_t i = 0; i < rows; ++i)
                a[p * k + q] += jacobian[i * cols + index[p]] * jacobian[i * cols + index[q]];
            a[p * k + q] /= norm[p] * norm[q];
        }
    }
    std::vector<double> inverse(cols * cols, 0.0);
    for (std::size_t q = 0; q < k; ++q) {
        std::vector<double> unit(k, 0.0);
        unit[q] = 1.0;
        auto column = solveSpd(a, unit);
        // A near-singular scaled matrix means a combination of parameters is not determined.
        if (!column || (*column)[q] > 1e12)
            return std::nullopt;
        for (std::size_t p = 0; p < k; ++p)
            inverse[index[p] * cols + index[q]] = (*column)[p] / (norm[p] * norm[q]);
    }
    return inverse;
}

Expected<LmResult> levenbergMarquardt(const LmProblem& problem, std::vector<double> start,
                                      const LmOptions& options)
{
    const std::size_t n = start.size();
    if (problem.lower.size() != n || problem.upper.size() != n || problem.typical.size() != n)
        return lmError("bounds and typical sizes must match the parameter count");
    LmResult result;
    result.x = std::move(start);
    clampToBox(problem, result.x);
    result.residuals.resize(problem.residualCount);
    if (!problem.evaluate(result.x, result.residuals))
        return lmError("the model cannot be evaluated at the starting point");
    result.sumSquares = sumSquares(result.residuals);

    double lambda = 1e-3;
    std::vector<double> jtj, jtr, trial(n), trialResiduals(problem.residualCount);
    while (result.iterations < options.maxIterations && !result.converged) {
        ++result.iterations;
        if (!jacobianAt(problem, result.x, result.jacobian))
            return lmError("the model cannot be evaluated next to the current point");
        normalEquations(result.jacobian, result.residuals, n, jtj, jtr);
        const auto free = freeParameters(problem, result.x, jtr);
        bool improved = false;
        while (!improved && lambda < 1e16) {
            auto step = dampedStep(jtj, jtr, free, lambda);
            if (!step) {
                lambda *= 10.0;
                continue;
            }
            for (std::size_t j = 0; j < n; ++j)
                trial[j] = result.x[j] + (*step)[j];
            clampToBox(problem, trial);
            const bool ok = problem.evaluate(trial, trialResiduals);
            const double s = ok ? sumSquares(trialResiduals) : HUGE_VAL;
            if (ok && s < result.sumSquares) {
                const bool tiny = result.sumSquares - s <= options.relativeTolerance * s ||
                                  smallStep(problem, result.x, trial, options.stepTolerance);
                result.x = trial;
                result.residuals = trialResiduals;
                result.sumSquares = s;
                lambda = std::max(lambda / 3.0, 1e-12);
                improved = true;
                result.converged = tiny;
            } else {
                lambda *= 4.0;
            }
        }
        if (!improved)
            result.converged = true; // no step in any direction lowers Σr²: a minimum.
    }
    if (!jacobianAt(problem, result.x, result.jacobian))
        return lmError("the model cannot be evaluated next to the solution");
    result.atBound.resize(n);
    for (std::size_t j = 0; j < n; ++j)
        result.atBound[j] = result.x[j] <= problem.lower[j] || result.x[j] >= problem.upper[j];
    return result;
}

} // namespace bs::accel
