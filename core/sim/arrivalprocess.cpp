#include "sim/arrivalprocess.h"

#include "sim/profiletimemap.h"
#include "sim/rng.h"

#include <algorithm>
#include <limits>

namespace bs::sim {

namespace {

class PoissonArrivals final : public ArrivalProcess
{
public:
    PoissonArrivals(double ratePerS, Rng rng)
        : m_meanGapS(1.0 / ratePerS)
        , m_rng(rng)
    {}
    void generate(double* out, std::size_t n) override
    {
        double t = m_t;
        for (std::size_t i = 0; i < n; ++i) {
            t += m_rng.exponential() * m_meanGapS;
            out[i] = t;
        }
        m_t = t;
    }

private:
    double m_meanGapS;
    double m_t = 0.0;
    Rng m_rng;
};

class DeterministicArrivals final : public ArrivalProcess
{
public:
    explicit DeterministicArrivals(double ratePerS)
        : m_gapS(1.0 / ratePerS)
    {}
    void generate(double* out, std::size_t n) override
    {
        // n * gap rather than a running sum, so times do not drift over millions of requests.
        for (std::size_t i = 0; i < n; ++i)
            out[i] = double(++m_count) * m_gapS;
    }

private:
    double m_gapS;
    std::uint64_t m_count = 0;
};

class GammaArrivals final : public ArrivalProcess
{
public:
    GammaArrivals(double ratePerS, double cv, Rng rng)
        : m_shape(1.0 / (cv * cv))
        , m_scaleS(1.0 / ratePerS / m_shape)
        , m_rng(rng)
    {}
    void generate(double* out, std::size_t n) override
    {
        for (std::size_t i = 0; i < n; ++i) {
            m_t += m_rng.gamma(m_shape) * m_scaleS;
            out[i] = m_t;
        }
    }

private:
    double m_shape;
    double m_scaleS;
    double m_t = 0.0;
    Rng m_rng;
};

/// Two-state MMPP: Poisson with rate ratesPerS[state]; the state switches after exponential
/// dwell times. Memorylessness lets us redraw the next gap after every switch.
class Mmpp2Arrivals final : public ArrivalProcess
{
public:
    Mmpp2Arrivals(const ArrivalSpec& spec, Rng rng)
        : m_rate(spec.ratesPerS)
        , m_dwell(spec.meanDwellS)
        , m_rng(rng)
    {
        // Start in the stationary distribution, so the run has no start-up transient.
        const double pHigh = m_dwell[1] / (m_dwell[0] + m_dwell[1]);
        m_state = m_rng.uniform() < pHigh ? 1 : 0;
        m_remainingS = m_rng.exponential() * m_dwell[m_state];
    }
    void generate(double* out, std::size_t n) override
    {
        for (std::size_t i = 0; i < n; ++i) {
            for (;;) {
                const double rate = m_rate[m_state];
                const double gap = rate > 0.0 ? m_rng.exponential() / rate
                                              : std::numeric_limits<double>::infinity();
                if (gap < m_remainingS) {
                    m_t += gap;
                    m_remainingS -= gap;
                    out[i] = m_t;
                    break;
                }
                m_t += m_remainingS;
                m_state ^= 1;
                m_remainingS = m_rng.exponential() * m_dwell[m_state];
            }
        }
    }

private:
    std::array<double, 2> m_rate;
    std::array<double, 2> m_dwell;
    Rng m_rng;
    int m_state = 0;
    double m_remainingS = 0.0;
    double m_t = 0.0;
};

class ReplayArrivals final : public ArrivalProcess
{
public:
    explicit ReplayArrivals(const ReplayTimes& replay)
        : m_replay(replay)
    {}
    void generate(double* out, std::size_t n) override
    {
        const auto& times = m_replay.timesS;
        for (std::size_t i = 0; i < n; ++i) {
            if (m_index == times.size()) {
                if (!m_replay.loop) {
                    std::fill(out + i, out + n, std::numeric_limits<double>::infinity());
                    return;
                }
                m_index = 0;
                ++m_copy;
            }
            out[i] = double(m_copy) * m_replay.periodS + times[m_index++];
        }
    }

private:
    const ReplayTimes& m_replay;
    std::size_t m_index = 0;
    std::uint64_t m_copy = 0;
};

/// Runs a process in operational time and maps its times through the profile's time change.
class ProfiledArrivals final : public ArrivalProcess
{
public:
    ProfiledArrivals(std::unique_ptr<ArrivalProcess> base, const RateProfile& profile)
        : m_base(std::move(base))
        , m_map(profile)
    {}
    void generate(double* out, std::size_t n) override
    {
        m_base->generate(out, n);
        for (std::size_t i = 0; i < n; ++i) {
            if (out[i] < std::numeric_limits<double>::infinity())
                out[i] = m_map.realTime(out[i]);
        }
    }

private:
    std::unique_ptr<ArrivalProcess> m_base;
    ProfileTimeMap m_map;
};

double baseMeanRate(const ArrivalSpec& spec, const ReplayTimes* replay)
{
    switch (spec.kind) {
    case ArrivalSpec::Kind::Poisson:
    case ArrivalSpec::Kind::Deterministic:
    case ArrivalSpec::Kind::Gamma:
        return spec.ratePerS;
    case ArrivalSpec::Kind::Mmpp2:
        return (spec.ratesPerS[0] * spec.meanDwellS[0] + spec.ratesPerS[1] * spec.meanDwellS[1]) /
               (spec.meanDwellS[0] + spec.meanDwellS[1]);
    case ArrivalSpec::Kind::Replay:
        return replay ? replay->meanRatePerS() : 0.0;
    case ArrivalSpec::Kind::ClosedLoop:
        return 0.0; // follows the system's own throughput (assessStability bounds it)
    }
    return 0.0;
}

} // namespace

std::unique_ptr<ArrivalProcess> makeArrivalProcess(const ArrivalSpec& spec,
                                                   const ReplayTimes* replay,
                                                   std::uint64_t replicationSeedValue,
                                                   std::uint64_t stream)
{
    const Rng rng(replicationSeedValue, kFirstArrivalStream + stream);
    std::unique_ptr<ArrivalProcess> process;
    switch (spec.kind) {
    case ArrivalSpec::Kind::Poisson:
        process = std::make_unique<PoissonArrivals>(spec.ratePerS, rng);
        break;
    case ArrivalSpec::Kind::Deterministic:
        process = std::make_unique<DeterministicArrivals>(spec.ratePerS);
        break;
    case ArrivalSpec::Kind::Gamma:
        if (spec.cv > 0.0)
            process = std::make_unique<GammaArrivals>(spec.ratePerS, spec.cv, rng);
        else
            process = std::make_unique<DeterministicArrivals>(spec.ratePerS);
        break;
    case ArrivalSpec::Kind::Mmpp2:
        process = std::make_unique<Mmpp2Arrivals>(spec, rng);
        break;
    case ArrivalSpec::Kind::Replay:
        process = std::make_unique<ReplayArrivals>(*replay);
        break;
    case ArrivalSpec::Kind::ClosedLoop:
        return nullptr; // arrivals follow completions: ClosedLoopEngine makes them
    }
    if (spec.profile.kind != RateProfile::Kind::None)
        process = std::make_unique<ProfiledArrivals>(std::move(process), spec.profile);
    return process;
}

double meanRatePerS(const ArrivalSpec& spec, const ReplayTimes* replay)
{
    return baseMeanRate(spec, replay) * ProfileTimeMap::longRunMultiplier(spec.profile);
}

double peakRatePerS(const ArrivalSpec& spec, const ReplayTimes* replay)
{
    double base = baseMeanRate(spec, replay);
    if (spec.kind == ArrivalSpec::Kind::Mmpp2)
        base = std::max(spec.ratesPerS[0], spec.ratesPerS[1]);
    return base * ProfileTimeMap::peakMultiplier(spec.profile);
}

} // namespace bs::sim
