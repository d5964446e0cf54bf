#include "accel/levenbergmarquardt.h"

#include <algorithm>
#include <cmath>
#include <limits>
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

SymmetricEigen symmetricEigen(std::vector<double> a, std::size_t n)
{
    std::vector<double> v(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        v[i * n + i] = 1.0;
    for (int sweep = 0; sweep < 100; ++sweep) {
        double off = 0.0;
        double total = 0.0;
        for (std::size_t p = 0; p < n; ++p) {
            for (std::size_t q = 0; q < n; ++q) {
                total += a[p * n + q] * a[p * n + q];
                if (p != q)
                    off += a[p * n + q] * a[p * n + q];
            }
        }
        if (!(off > 1e-30 * total))
            break;
        for (std::size_t p = 0; p + 1 < n; ++p) {
            for (std::size_t q = p + 1; q < n; ++q) {
                const double apq = a[p * n + q];
                if (apq == 0.0)
                    continue;
                // The rotation that zeroes a[p][q] (Rutishauser's stable form).
                const double theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                const double t = (theta >= 0.0 ? 1.0 : -1.0) /
                                 (std::abs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0);
                const double s = t * c;
                for (std::size_t k = 0; k < n; ++k) { // columns p, q
                    const double akp = a[k * n + p];
                    const double akq = a[k * n + q];
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for (std::size_t k = 0; k < n; ++k) { // rows p, q
                    const double apk = a[p * n + k];
                    const double aqk = a[q * n + k];
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for (std::size_t k = 0; k < n; ++k) {
                    const double vkp = v[k * n + p];
                    const double vkq = v[k * n + q];
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t x, std::size_t y) { return a[x * n + x] < a[y * n + y]; });
    SymmetricEigen out;
    out.values.resize(n);
    out.vectors.resize(n * n);
    for (std::size_t k = 0; k < n; ++k) {
        out.values[k] = a[order[k] * n + order[k]];
        for (std::size_t i = 0; i < n; ++i)
            out.vectors[i * n + k] = v[i * n + order[k]];
    }
    return out;
}

NormalMatrixAnalysis analyseNormalMatrix(const std::vector<double>& jacobian, std::size_t rows,
                                         std::size_t cols, const std::vector<bool>& use,
                                         double variance)
{
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    NormalMatrixAnalysis out;
    out.weakest.assign(cols, 0.0);
    out.standardErrors.assign(cols, nan);
    out.correlation.assign(cols * cols, nan);
    std::vector<std::size_t> index;
    for (std::size_t j = 0; j < cols; ++j) {
        if (use[j])
            index.push_back(j);
    }
    const std::size_t k = index.size();
    if (k == 0)
        return out;
    std::vector<double> norm(k, 0.0);
    for (std::size_t p = 0; p < k; ++p) {
        for (std::size_t i = 0; i < rows; ++i)
            norm[p] += jacobian[i * cols + index[p]] * jacobian[i * cols + index[p]];
        norm[p] = std::sqrt(norm[p]);
        if (!(norm[p] > 0.0) || !std::isfinite(norm[p])) {
            // No residual depends on this parameter: the most singular direction there is.
            out.conditionNumber = std::numeric_limits<double>::infinity();
            out.weakest[index[p]] = 1.0;
            return out;
        }
    }
    std::vector<double> a(k * k, 0.0);
    for (std::size_t p = 0; p < k; ++p) {
        for (std::size_t q = p; q < k; ++q) {
            double sum = 0.0;
            for (std::size_t i = 0; i < rows; ++i)
                sum += jacobian[i * cols + index[p]] * jacobian[i * cols + index[q]];
            a[p * k + q] = a[q * k + p] = sum / (norm[p] * norm[q]);
        }
    }
    const SymmetricEigen eigen = symmetricEigen(a, k);
    const double largest = eigen.values.back();
    const double smallest = eigen.values.front();
    const bool singular = !(smallest > 1e-16 * largest);
    out.conditionNumber = singular ? std::numeric_limits<double>::infinity() : largest / smallest;
    for (std::size_t p = 0; p < k; ++p)
        out.weakest[index[p]] = eigen.vectors[p * k + 0];
    if (singular)
        return out;
    // (JᵀJ)⁻¹ = D⁻¹·V·Λ⁻¹·Vᵀ·D⁻¹ with D the column norms.
    std::vector<double> inverse(k * k, 0.0);
    for (std::size_t p = 0; p < k; ++p) {
        for (std::size_t q = 0; q < k; ++q) {
            double sum = 0.0;
            for (std::size_t e = 0; e < k; ++e)
                sum += eigen.vectors[p * k + e] * eigen.vectors[q * k + e] / eigen.values[e];
            inverse[p * k + q] = sum / (norm[p] * norm[q]);
        }
    }
    for (std::size_t p = 0; p < k; ++p) {
        if (variance >= 0.0)
            out.standardErrors[index[p]] = std::sqrt(variance * inverse[p * k + p]);
        for (std::size_t q = 0; q < k; ++q)
            out.correlation[index[p] * cols + index[q]] =
                inverse[p * k + q] / std::sqrt(inverse[p * k + p] * inverse[q * k + q]);
    }
    return out;
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
