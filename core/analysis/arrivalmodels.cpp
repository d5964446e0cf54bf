#include "analysis/arrivalmodels.h"

#include <cmath>
#include <limits>

namespace bs::analysis {

namespace {

/// P(a, x) by its power series, for x < a + 1.
double gammaPSeries(double a, double x)
{
    double term = 1.0 / a;
    double sum = term;
    for (int n = 1; n < 10000; ++n) {
        term *= x / (a + n);
        sum += term;
        if (std::fabs(term) < std::fabs(sum) * 1e-16)
            break;
    }
    return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

/// Q(a, x) = 1 - P(a, x) by Lentz's continued fraction, for x >= a + 1.
double gammaQContinuedFraction(double a, double x)
{
    constexpr double tiny = 1e-300;
    double b = x + 1.0 - a;
    double c = 1.0 / tiny;
    double d = 1.0 / b;
    double h = d;
    for (int i = 1; i < 10000; ++i) {
        const double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        d = std::fabs(d) < tiny ? tiny : d;
        c = b + an / c;
        c = std::fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        const double delta = d * c;
        h *= delta;
        if (std::fabs(delta - 1.0) < 1e-16)
            break;
    }
    return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

} // namespace

double regularizedGammaP(double a, double x)
{
    if (!(a > 0.0) || std::isnan(x))
        return std::numeric_limits<double>::quiet_NaN();
    if (x <= 0.0)
        return 0.0;
    if (std::isinf(x))
        return 1.0;
    if (x < a + 1.0)
        return gammaPSeries(a, x);
    return 1.0 - gammaQContinuedFraction(a, x);
}

double Mmpp2Params::meanRatePerS() const
{
    const double total = meanDwellS[0] + meanDwellS[1];
    return (ratesPerS[0] * meanDwellS[0] + ratesPerS[1] * meanDwellS[1]) / total;
}

double Mmpp2Params::switchRatePerS() const
{
    return 1.0 / meanDwellS[0] + 1.0 / meanDwellS[1];
}

double Mmpp2GapLaw::cdf(double gapS) const
{
    if (gapS <= 0.0)
        return 0.0;
    return 1.0 - weight[0] * std::exp(-decayPerS[0] * gapS) -
           weight[1] * std::exp(-decayPerS[1] * gapS);
}

double Mmpp2GapLaw::mean() const
{
    return weight[0] / decayPerS[0] + weight[1] / decayPerS[1];
}

double Mmpp2GapLaw::scv() const
{
    const double m = mean();
    const double second = 2.0 * (weight[0] / (decayPerS[0] * decayPerS[0]) +
                                 weight[1] / (decayPerS[1] * decayPerS[1]));
    return second / (m * m) - 1.0;
}

Mmpp2GapLaw mmpp2GapLaw(const Mmpp2Params& params)
{
    const double r0 = 1.0 / params.meanDwellS[0];
    const double r1 = 1.0 / params.meanDwellS[1];
    const double l0 = params.ratesPerS[0];
    const double l1 = params.ratesPerS[1];
    const double pi0 = r1 / (r0 + r1);
    const double pi1 = 1.0 - pi0;
    const double mean = pi0 * l0 + pi1 * l1;
    // phi Lambda 1: the rate seen by an arrival, (pi0 l0^2 + pi1 l1^2) / mean rate.
    const double phiLambda = (pi0 * l0 * l0 + pi1 * l1 * l1) / mean;
    // Eigenvalues of D0 = [[-r0 - l0, r0], [r1, -r1 - l1]] (real and negative: r0 r1 > 0).
    const double a = -r0 - l0;
    const double d = -r1 - l1;
    const double half = 0.5 * (a - d);
    const double root = std::sqrt(half * half + r0 * r1);
    const double muPlus = 0.5 * (a + d) + root;
    const double muMinus = 0.5 * (a + d) - root;
    Mmpp2GapLaw law;
    // phi exp(D0 t) 1 = [e^(mu+ t) phi (D0 - mu- I) 1 - e^(mu- t) phi (D0 - mu+ I) 1] / (mu+ - mu-)
    // and phi (D0 - mu I) 1 = -phiLambda - mu.
    law.weight[0] = (-phiLambda - muMinus) / (muPlus - muMinus);
    law.weight[1] = (phiLambda + muPlus) / (muPlus - muMinus);
    law.decayPerS[0] = -muPlus;
    law.decayPerS[1] = -muMinus;
    return law;
}

double mmpp2IdcShape(double excess, double switchRatePerS, double windowS)
{
    const double gt = switchRatePerS * windowS;
    if (gt <= 0.0)
        return 1.0;
    const double shape = gt < 1e-6 ? 0.5 * gt : 1.0 - (1.0 - std::exp(-gt)) / gt;
    return 1.0 + excess * shape;
}

double mmpp2Idc(const Mmpp2Params& params, double windowS)
{
    const double g = params.switchRatePerS();
    const double pi0 = (1.0 / params.meanDwellS[1]) / g;
    const double delta = params.ratesPerS[1] - params.ratesPerS[0];
    const double excess = 2.0 * delta * delta * pi0 * (1.0 - pi0) / (g * params.meanRatePerS());
    return mmpp2IdcShape(excess, g, windowS);
}

} // namespace bs::analysis
