#pragma once

#include "sim/scenario.h"

#include <cstddef>
#include <vector>

namespace bs::sim {

/// The time change of a RateProfile: maps operational time tau = Lambda(t) = integral from 0 to
/// t of m(s) ds back to real time t. An arrival process generated in operational time and mapped
/// through this has rate m(t) times its own rate at real time t, whatever its kind.
///
/// realTime() keeps a cursor, so calls must come with non-decreasing tau (as arrival times do).
class ProfileTimeMap
{
public:
    explicit ProfileTimeMap(const RateProfile& profile);

    /// Real time t >= 0 with Lambda(t) = tau (tau >= 0).
    double realTime(double tau);

    /// m(t).
    static double multiplierAt(const RateProfile& profile, double t);
    /// The largest m(t) over t >= 0 (transient overload check).
    static double peakMultiplier(const RateProfile& profile);
    /// The long-run mean of m: 1 for diurnal (a full period), the last multiplier for a ramp.
    static double longRunMultiplier(const RateProfile& profile);

private:
    double diurnalLambda(double t) const;
    double diurnalRealTime(double tau);
    double rampRealTime(double tau);

    RateProfile m_profile;
    double m_omega = 0.0;
    double m_sinAtZero = 0.0;
    // Ramp: breakpoints from t = 0 on, the multiplier there and Lambda there.
    std::vector<double> m_breakS;
    std::vector<double> m_breakMultiplier;
    std::vector<double> m_breakLambda;
    std::size_t m_cursor = 0;
    double m_lastTau = 0.0;
    double m_lastT = 0.0;
};

} // namespace bs::sim
