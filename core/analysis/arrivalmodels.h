#pragma once

#include <array>
#include <cstddef>
#include <span>

namespace bs::analysis {

/// The regularised lower incomplete gamma function P(a, x) (series below a + 1, Lentz's
/// continued fraction above), accurate to ~1e-14. The CDF of a gamma gap with shape a and
/// scale 1 at x.
double regularizedGammaP(double a, double x);

/// A two-state Markov-modulated Poisson process: rate ratesPerS[i] while in state i, leaving
/// state i at rate 1 / meanDwellS[i]. State 0 is the low-rate state (simulator convention).
struct Mmpp2Params
{
    std::array<double, 2> ratesPerS{0.0, 0.0};
    std::array<double, 2> meanDwellS{0.0, 0.0};

    double meanRatePerS() const;
    /// The time constant of the modulation: 1/dwell0 + 1/dwell1 (per second).
    double switchRatePerS() const;
};

/// The inter-arrival time distribution of a stationary MMPP-2, seen from an arrival (the
/// phase-type law phi exp(D0 t) 1 with phi = pi Lambda / mean rate): a mixture of two
/// exponentials, survival weight[0] e^(-decay[0] t) + weight[1] e^(-decay[1] t).
struct Mmpp2GapLaw
{
    std::array<double, 2> weight{1.0, 0.0};
    std::array<double, 2> decayPerS{1.0, 1.0};

    double cdf(double gapS) const;
    double mean() const;
    /// Squared coefficient of variation of the gaps.
    double scv() const;
};

Mmpp2GapLaw mmpp2GapLaw(const Mmpp2Params& params);

/// The index of dispersion of counts Var N(t) / E N(t) of an MMPP-2 over windows of t seconds
/// (Heffes & Lucantoni 1986): 1 + A (1 - (1 - e^(-g t)) / (g t)), A = 2 (l1 - l0)^2 pi0 pi1 /
/// (g mean rate), g = switchRatePerS.
double mmpp2Idc(const Mmpp2Params& params, double windowS);
/// The same from its two shape numbers: the asymptote excess A and the switch rate g.
double mmpp2IdcShape(double excess, double switchRatePerS, double windowS);

/// The Kolmogorov-Smirnov distance between the empirical CDF of `sorted` gaps and `cdf`,
/// evaluated at up to `maxPoints` evenly spaced order statistics (all of them when n is
/// smaller). With a subsample the true distance exceeds the returned one by at most
/// 1/maxPoints (the empirical CDF rises by at most that between evaluated points).
template <typename Cdf>
double ksDistance(std::span<const double> sorted, Cdf cdf, std::size_t maxPoints = 100000)
{
    const std::size_t n = sorted.size();
    if (n == 0)
        return 1.0;
    const std::size_t step = n <= maxPoints ? 1 : (n + maxPoints - 1) / maxPoints;
    double d = 0.0;
    for (std::size_t i = 0; i < n; i += step) {
        const double f = cdf(sorted[i]);
        const double above = double(i + 1) / double(n) - f;
        const double below = f - double(i) / double(n);
        d = above > d ? above : d;
        d = below > d ? below : d;
    }
    return d;
}

} // namespace bs::analysis
