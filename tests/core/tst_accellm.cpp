#include "accel/levenbergmarquardt.h"

#include <QtTest>

#include <cmath>

using namespace bs;
using namespace bs::accel;

namespace {

LmProblem problemFor(const std::vector<double>& xs, const std::vector<double>& ys,
                     std::function<double(const std::vector<double>&, double)> f,
                     std::size_t parameters)
{
    LmProblem p;
    p.residualCount = xs.size();
    p.evaluate = [xs, ys, f](const std::vector<double>& theta, std::vector<double>& r) {
        for (std::size_t i = 0; i < xs.size(); ++i)
            r[i] = f(theta, xs[i]) - ys[i];
        return true;
    };
    p.lower.assign(parameters, -1e9);
    p.upper.assign(parameters, 1e9);
    p.typical.assign(parameters, 1.0);
    return p;
}

} // namespace

class TestAccelLm : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void solvesSpdSystems();
    void singularSystemIsReported();
    void lineMatchesOrdinaryLeastSquares();
    void exponentialDecayIsRecoveredExactly();
    void boundsHold();
    void unevaluableStartIsAnError();
};

void TestAccelLm::solvesSpdSystems()
{
    // [4 2; 2 3]·x = [2; 1] ⇒ x = [0.5; 0]
    auto x = solveSpd({4, 2, 2, 3}, {2, 1});
    QVERIFY(x);
    QVERIFY(std::abs((*x)[0] - 0.5) < 1e-15);
    QVERIFY(std::abs((*x)[1]) < 1e-15);
    QVERIFY(!solveSpd({1, 2, 2, 1}, {1, 1})); // indefinite
}

void TestAccelLm::singularSystemIsReported()
{
    // Two identical Jacobian columns: the parameters are not separately determined.
    const std::vector<double> jac = {1, 1, 2, 2, 3, 3};
    QVERIFY(!inverseNormalMatrix(jac, 3, 2, {true, true}));
    // With one column left out the other is fine: (JᵀJ)⁻¹ = 1/(1 + 4 + 9).
    auto inverse = inverseNormalMatrix(jac, 3, 2, {true, false});
    QVERIFY(inverse);
    QVERIFY(std::abs((*inverse)[0] - 1.0 / 14.0) < 1e-15);
    QCOMPARE((*inverse)[3], 0.0);
}

void TestAccelLm::lineMatchesOrdinaryLeastSquares()
{
    // y = a + b·x on 5 points; the closed form: b = Sxy/Sxx, a = ȳ − b·x̄,
    // cov = s²·(XᵀX)⁻¹ with s² = SSR/(n − 2).
    const std::vector<double> xs = {0, 1, 2, 3, 4};
    const std::vector<double> ys = {1.1, 2.9, 5.2, 6.8, 9.1};
    auto problem = problemFor(
        xs, ys, [](const std::vector<double>& t, double x) { return t[0] + t[1] * x; }, 2);
    auto fit = levenbergMarquardt(problem, {0.0, 0.0});
    QVERIFY(fit);
    // x̄ = 2, ȳ = 5.02, Sxx = 10, Sxy = 19.9 ⇒ b = 1.99, a = 1.04
    QVERIFY(std::abs(fit->x[1] - 1.99) < 1e-9);
    QVERIFY(std::abs(fit->x[0] - 1.04) < 1e-9);
    QVERIFY(fit->converged);
    // SSR = Σ(y − a − b·x)² = 0.05² + 0.13² + 0.18² + 0.2² + 0.1²... computed directly:
    double ssr = 0.0;
    for (std::size_t i = 0; i < xs.size(); ++i)
        ssr += std::pow(ys[i] - 1.04 - 1.99 * xs[i], 2);
    QVERIFY(std::abs(fit->sumSquares - ssr) < 1e-12);
    // (XᵀX)⁻¹ = [[Σx², −Σx], [−Σx, n]]/(n·Σx² − (Σx)²) = [[30, −10], [−10, 5]]/50
    auto inverse = inverseNormalMatrix(fit->jacobian, xs.size(), 2, {true, true});
    QVERIFY(inverse);
    QVERIFY(std::abs((*inverse)[0] - 0.6) < 1e-6);
    QVERIFY(std::abs((*inverse)[1] + 0.2) < 1e-6);
    QVERIFY(std::abs((*inverse)[3] - 0.1) < 1e-6);
}

void TestAccelLm::exponentialDecayIsRecoveredExactly()
{
    std::vector<double> xs, ys;
    for (int i = 0; i < 12; ++i) {
        xs.push_back(0.5 * i);
        ys.push_back(5.0 * std::exp(-0.7 * 0.5 * i));
    }
    auto problem = problemFor(
        xs, ys, [](const std::vector<double>& t, double x) { return t[0] * std::exp(-t[1] * x); },
        2);
    auto fit = levenbergMarquardt(problem, {1.0, 2.0});
    QVERIFY(fit);
    QVERIFY2(std::abs(fit->x[0] - 5.0) < 1e-8, std::to_string(fit->x[0]).c_str());
    QVERIFY2(std::abs(fit->x[1] - 0.7) < 1e-8, std::to_string(fit->x[1]).c_str());
}

void TestAccelLm::boundsHold()
{
    // y = 2·x, but a ≤ 1: the best bounded fit is a = 1, reported at its bound.
    const std::vector<double> xs = {1, 2, 3};
    const std::vector<double> ys = {2, 4, 6};
    auto problem = problemFor(
        xs, ys, [](const std::vector<double>& t, double x) { return t[0] * x; }, 1);
    problem.lower = {0.0};
    problem.upper = {1.0};
    auto fit = levenbergMarquardt(problem, {0.5});
    QVERIFY(fit);
    QCOMPARE(fit->x[0], 1.0);
    QVERIFY(fit->atBound[0]);
    // A start outside the box is projected into it first.
    auto fromOutside = levenbergMarquardt(problem, {7.0});
    QVERIFY(fromOutside);
    QCOMPARE(fromOutside->x[0], 1.0);
}

void TestAccelLm::unevaluableStartIsAnError()
{
    LmProblem problem;
    problem.residualCount = 1;
    problem.evaluate = [](const std::vector<double>&, std::vector<double>&) { return false; };
    problem.lower = {0.0};
    problem.upper = {1.0};
    problem.typical = {1.0};
    auto fit = levenbergMarquardt(problem, {0.5});
    QVERIFY(!fit);
    QCOMPARE(QString::fromStdString(fit.error().message),
             QStringLiteral("least squares: the model cannot be evaluated at the starting point"));
}

QTEST_APPLESS_MAIN(TestAccelLm)
#include "tst_accellm.moc"
