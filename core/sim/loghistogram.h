#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace bs::sim {

/// A streaming sketch of non-negative values (seconds): counts in log-linear buckets, 2^7 per
/// power of two, from 2^-30 s (about 1 ns) to 2^24 s. Quantiles come back as bucket midpoints,
/// so their relative error is at most 2^-8 (0.39%); values below 2^-30 s count as 0, values
/// above 2^24 s as 2^24 s. Memory is fixed (55 KB), whatever the number of values; add() is a
/// few integer operations. Mergeable, so replications can be pooled.
class LogHistogram
{
public:
    static constexpr int kSubBits = 7;
    static constexpr int kMinExponent = -30;
    static constexpr int kMaxExponent = 24;
    static constexpr double kRelativeError = 1.0 / 256.0;

    LogHistogram();

    void add(double value)
    {
        const std::uint64_t bits = std::bit_cast<std::uint64_t>(value);
        std::size_t index = 0;
        if (bits >= kMinBits) {
            index = std::size_t((bits - kMinBits) >> (52 - kSubBits)) + 1;
            if (index >= m_counts.size())
                index = m_counts.size() - 1;
        }
        ++m_counts[index];
    }

    void merge(const LogHistogram& other);
    std::uint64_t count() const;
    /// numpy-style linear interpolation between the representatives of the order statistics
    /// around (count - 1) * p; NaN when empty.
    double quantile(double p) const;
    /// The bucket counts coarsened to `perBinade` buckets per power of two (a power of two up to
    /// 128), over the non-empty range only: edges has counts.size() + 1 entries (seconds). The
    /// zero bucket, when used, is the bucket [0, 2^-30).
    void coarsen(int perBinade, std::vector<double>& edgesS,
                 std::vector<std::uint64_t>& counts) const;
    /// The empirical CDF at the sketch's resolution: for every non-empty bucket its
    /// representative (the value quantile() returns for it) and the share of all values in it
    /// or below. Both empty when nothing was added.
    void cdf(std::vector<double>& valuesS, std::vector<double>& probability) const;

private:
    static constexpr std::uint64_t kMinBits = std::uint64_t(1023 + kMinExponent) << 52;
    double lowerEdge(std::size_t index) const;
    double representative(std::size_t index) const;

    std::vector<std::uint64_t> m_counts;
};

} // namespace bs::sim
