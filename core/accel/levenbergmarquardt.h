#pragma once

#include "util/expected.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace bs::accel {

/// A bounded non-linear least-squares problem: minimise Σ r_i(x)² subject to
/// lower ≤ x ≤ upper. Weights are folded into the residuals by the caller (r_i = w_i·e_i).
struct LmProblem
{
    std::size_t residualCount = 0;
    /// Fills `residuals` (residualCount values) at x; false when x cannot be evaluated (the step
    /// is then rejected as if it made things worse).
    std::function<bool(const std::vector<double>& x, std::vector<double>& residuals)> evaluate;
    std::vector<double> lower;
    std::vector<double> upper;
    /// Typical magnitude of each parameter, for finite-difference steps (> 0).
    std::vector<double> typical;
};

struct LmOptions
{
    int maxIterations = 200;
    double relativeTolerance = 1e-12; ///< Stop when Σr² falls by less than this fraction.
    double stepTolerance = 1e-12;     ///< ...or the step is this small relative to x/typical.
};

struct LmResult
{
    std::vector<double> x;
    std::vector<double> residuals;
    double sumSquares = 0.0;
    int iterations = 0;
    bool converged = false;
    std::vector<bool> atBound;    ///< x sits on its lower or upper bound.
    std::vector<double> jacobian; ///< ∂r/∂x at x, row-major residualCount × x.size().
};

/// Levenberg–Marquardt with Marquardt's diagonal scaling (so the units of the parameters do
/// not matter), central-difference Jacobians (one-sided at a bound) and bounds handled by
/// projecting each trial point onto the box and freezing parameters that sit on a bound while
/// the gradient pushes outward. Deterministic: no randomness, a fixed order of operations.
Expected<LmResult> levenbergMarquardt(const LmProblem& problem, std::vector<double> start,
                                      const LmOptions& options = {});

/// (JᵀJ)⁻¹ restricted to the columns with use[j] true (others get 0 rows/columns), row-major
/// n × n; nothing when that matrix is singular (a parameter the data do not determine).
std::optional<std::vector<double>> inverseNormalMatrix(const std::vector<double>& jacobian,
                                                       std::size_t rows, std::size_t cols,
                                                       const std::vector<bool>& use);

/// Eigenvalues (ascending) and unit eigenvectors of the symmetric n × n matrix `a` (row-major),
/// by cyclic Jacobi rotations: `vectors` holds eigenvector k in column k (row-major n × n).
struct SymmetricEigen
{
    std::vector<double> values;
    std::vector<double> vectors;
};
SymmetricEigen symmetricEigen(std::vector<double> a, std::size_t n);

/// The column-scaled normal matrix JᵀJ over the columns with use[j] (scaled so that its
/// diagonal is 1: the units of the parameters do not matter).
struct NormalMatrixAnalysis
{
    /// λ_max/λ_min; +inf when singular (λ_min ≤ 1e-16·λ_max, or a column that no residual
    /// depends on); 0 with no column in use.
    double conditionNumber = 0.0;
    /// The eigenvector of λ_min (the combination of parameters the data see least), one entry
    /// per column (0 for columns not in use), unit length in the scaled coordinates.
    std::vector<double> weakest;
    /// σ_j = sqrt(variance·(JᵀJ)⁻¹_jj); NaN for columns not in use or when the condition
    /// number is infinite.
    std::vector<double> standardErrors;
    /// ρ_jk, n × n row-major; NaN where σ is.
    std::vector<double> correlation;
};
NormalMatrixAnalysis analyseNormalMatrix(const std::vector<double>& jacobian, std::size_t rows,
                                         std::size_t cols, const std::vector<bool>& use,
                                         double variance);

/// Solves the symmetric positive-definite system A·x = b (n × n, row-major) by Cholesky;
/// nothing when A is not positive definite.
std::optional<std::vector<double>> solveSpd(std::vector<double> a, std::vector<double> b);

} // namespace bs::accel
