#include "sim/profiletimemap.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace bs::sim {

ProfileTimeMap::ProfileTimeMap(const RateProfile& profile)
    : m_profile(profile)
{
    if (profile.kind == RateProfile::Kind::Diurnal) {
        m_omega = 2.0 * std::numbers::pi / profile.periodS;
        m_sinAtZero = std::sin(-m_omega * profile.peakS);
    } else if (profile.kind == RateProfile::Kind::Ramp) {
        m_breakS.push_back(0.0);
        m_breakMultiplier.push_back(multiplierAt(profile, 0.0));
        for (std::size_t i = 0; i < profile.timesS.size(); ++i) {
            if (profile.timesS[i] > 0.0) {
                m_breakS.push_back(profile.timesS[i]);
                m_breakMultiplier.push_back(profile.multipliers[i]);
            }
        }
        m_breakLambda.push_back(0.0);
        for (std::size_t j = 1; j < m_breakS.size(); ++j) {
            const double width = m_breakS[j] - m_breakS[j - 1];
            m_breakLambda.push_back(m_breakLambda[j - 1] +
                                    0.5 * width *
                                        (m_breakMultiplier[j - 1] + m_breakMultiplier[j]));
        }
    }
}

double ProfileTimeMap::multiplierAt(const RateProfile& profile, double t)
{
    switch (profile.kind) {
    case RateProfile::Kind::None:
        return 1.0;
    case RateProfile::Kind::Diurnal:
        return 1.0 + profile.amplitude *
                         std::cos(2.0 * std::numbers::pi * (t - profile.peakS) / profile.periodS);
    case RateProfile::Kind::Ramp: {
        const auto& x = profile.timesS;
        const auto& m = profile.multipliers;
        if (t <= x.front())
            return m.front();
        if (t >= x.back())
            return m.back();
        const auto hi = std::size_t(std::upper_bound(x.begin(), x.end(), t) - x.begin());
        const double f = (t - x[hi - 1]) / (x[hi] - x[hi - 1]);
        return m[hi - 1] + f * (m[hi] - m[hi - 1]);
    }
    }
    return 1.0;
}

double ProfileTimeMap::peakMultiplier(const RateProfile& profile)
{
    if (profile.kind == RateProfile::Kind::Diurnal)
        return 1.0 + profile.amplitude;
    if (profile.kind == RateProfile::Kind::Ramp)
        return *std::max_element(profile.multipliers.begin(), profile.multipliers.end());
    return 1.0;
}

double ProfileTimeMap::longRunMultiplier(const RateProfile& profile)
{
    if (profile.kind == RateProfile::Kind::Ramp)
        return profile.multipliers.back();
    return 1.0;
}

double ProfileTimeMap::realTime(double tau)
{
    switch (m_profile.kind) {
    case RateProfile::Kind::None:
        return tau;
    case RateProfile::Kind::Diurnal:
        return diurnalRealTime(tau);
    case RateProfile::Kind::Ramp:
        return rampRealTime(tau);
    }
    return tau;
}

double ProfileTimeMap::diurnalLambda(double t) const
{
    const double a = m_profile.amplitude;
    return t + a / m_omega * (std::sin(m_omega * (t - m_profile.peakS)) - m_sinAtZero);
}

double ProfileTimeMap::diurnalRealTime(double tau)
{
    // Lambda' = m in [1 - a, 1 + a], so the root lies in [lo, hi] below; safeguarded Newton.
    const double a = m_profile.amplitude;
    const double dTau = std::max(0.0, tau - m_lastTau);
    double lo = m_lastT;
    double hi = m_lastT + dTau / (1.0 - a);
    double t = m_lastT + dTau / multiplierAt(m_profile, m_lastT);
    for (int i = 0; i < 60; ++i) {
        const double f = diurnalLambda(t) - tau;
        if (std::abs(f) <= 1e-13 * std::max(1.0, std::abs(tau)))
            break;
        (f > 0.0 ? hi : lo) = t;
        double next = t - f / multiplierAt(m_profile, t);
        if (!(next > lo && next < hi))
            next = 0.5 * (lo + hi);
        t = next;
    }
    m_lastTau = tau;
    m_lastT = t;
    return t;
}

double ProfileTimeMap::rampRealTime(double tau)
{
    while (m_cursor + 1 < m_breakS.size() && m_breakLambda[m_cursor + 1] <= tau)
        ++m_cursor;
    const std::size_t j = m_cursor;
    const double m0 = m_breakMultiplier[j];
    const double delta = tau - m_breakLambda[j];
    if (j + 1 == m_breakS.size())
        return m_breakS[j] + delta / m0;
    // m(t) = m0 + s x on the segment: Lambda = m0 x + s x^2 / 2 = delta, solved in the form
    // that does not cancel when s is small or negative.
    const double slope = (m_breakMultiplier[j + 1] - m0) / (m_breakS[j + 1] - m_breakS[j]);
    const double root = std::sqrt(std::max(0.0, m0 * m0 + 2.0 * slope * delta));
    return m_breakS[j] + 2.0 * delta / (m0 + root);
}

} // namespace bs::sim
