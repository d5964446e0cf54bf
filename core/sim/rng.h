#pragma once

#include <cmath>
#include <cstdint>

namespace bs::sim {

/// One step of splitmix64 (Steele, Lea, Flood 2014): advances `state` and returns a well mixed
/// 64-bit value. Used only to seed Rng, as the xoshiro authors recommend.
constexpr std::uint64_t splitMix64(std::uint64_t& state)
{
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// The seed of one replication, derived from the scenario seed (reported in the result so a
/// single replication can be re-run by itself).
constexpr std::uint64_t replicationSeed(std::uint64_t seed, std::uint64_t replication)
{
    std::uint64_t state = seed ^ 0x5851f42d4c957f2dULL;
    std::uint64_t mixed = splitMix64(state);
    state = mixed + replication * 0xd1342543de82ef95ULL;
    return splitMix64(state);
}

/// Random stream numbers within a replication. Arrivals, service and placement draw from
/// separate streams, so changing the policy or the service model leaves the arrival sequence
/// unchanged (common random numbers: what-if comparisons see the same traffic).
enum RngStream : std::uint64_t
{
    kServiceStream = 0,
    kPlacementStream = 1,
    kFirstArrivalStream = 16, ///< Arrival stream s uses kFirstArrivalStream + s.
};

/// xoshiro256** 1.0 (Blackman and Vigna): fast, 256 bits of state, passes BigCrush. One Rng per
/// (replication, stream), never shared between threads.
class Rng
{
public:
    /// Seeds the four state words with splitmix64 from (replication seed, stream).
    Rng(std::uint64_t replicationSeedValue, std::uint64_t stream)
    {
        std::uint64_t state = replicationSeedValue ^ (stream * 0x9e3779b97f4a7c15ULL);
        state = splitMix64(state) ^ stream;
        for (auto& word : m_s)
            word = splitMix64(state);
    }

    std::uint64_t next()
    {
        const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }

    /// Uniform on [0, 1) with 53 random bits.
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }
    /// Uniform on (0, 1]: never 0, so its logarithm is finite.
    double uniformOpen() { return double((next() >> 11) + 1) * 0x1.0p-53; }
    /// Exponential with mean 1, by inversion: -log(U) with U on (0, 1].
    double exponential() { return -std::log(uniformOpen()); }
    /// Standard normal (Marsaglia's polar method; the second value of each pair is kept).
    double normal();
    /// Gamma with the given shape and scale 1 (Marsaglia and Tsang 2000; shape < 1 by the
    /// U^(1/shape) boost).
    double gamma(double shape);

private:
    static constexpr std::uint64_t rotl(std::uint64_t x, int k)
    {
        return (x << k) | (x >> (64 - k));
    }

    std::uint64_t m_s[4];
    double m_spareNormal = 0.0;
    bool m_hasSpare = false;
};

} // namespace bs::sim
