#include "sim/loghistogram.h"

#include <cmath>
#include <limits>

namespace bs::sim {

LogHistogram::LogHistogram()
    : m_counts((std::size_t(kMaxExponent - kMinExponent) << kSubBits) + 2, 0)
{}

void LogHistogram::merge(const LogHistogram& other)
{
    for (std::size_t i = 0; i < m_counts.size(); ++i)
        m_counts[i] += other.m_counts[i];
}

std::uint64_t LogHistogram::count() const
{
    std::uint64_t total = 0;
    for (auto c : m_counts)
        total += c;
    return total;
}

double LogHistogram::lowerEdge(std::size_t index) const
{
    if (index == 0)
        return 0.0;
    return std::bit_cast<double>(kMinBits + (std::uint64_t(index - 1) << (52 - kSubBits)));
}

double LogHistogram::representative(std::size_t index) const
{
    if (index == 0)
        return 0.0;
    return 0.5 * (lowerEdge(index) + lowerEdge(index + 1));
}

double LogHistogram::quantile(double p) const
{
    const std::uint64_t n = count();
    if (n == 0)
        return std::numeric_limits<double>::quiet_NaN();
    const double h = double(n - 1) * p;
    const auto k = std::uint64_t(std::floor(h));
    const double gamma = h - double(k);
    auto bucketOfRank = [this](std::uint64_t rank) {
        std::uint64_t seen = 0;
        for (std::size_t i = 0; i < m_counts.size(); ++i) {
            seen += m_counts[i];
            if (seen > rank)
                return i;
        }
        return m_counts.size() - 1;
    };
    const double below = representative(bucketOfRank(k));
    const double above = k + 1 < n ? representative(bucketOfRank(k + 1)) : below;
    return below + (above - below) * gamma;
}

void LogHistogram::coarsen(int perBinade, std::vector<double>& edgesS,
                           std::vector<std::uint64_t>& counts) const
{
    edgesS.clear();
    counts.clear();
    const std::size_t group = (std::size_t(1) << kSubBits) / std::size_t(perBinade);
    std::size_t first = m_counts.size();
    std::size_t last = 0;
    for (std::size_t i = 0; i < m_counts.size(); ++i) {
        if (m_counts[i] != 0) {
            first = std::min(first, i);
            last = i;
        }
    }
    if (first == m_counts.size())
        return;
    // Group fine buckets 1.. in runs of `group`; the zero bucket stays alone.
    auto groupOf = [group](std::size_t i) { return i == 0 ? 0 : (i - 1) / group + 1; };
    auto groupStart = [group](std::size_t g) { return g == 0 ? 0 : (g - 1) * group + 1; };
    for (std::size_t g = groupOf(first); g <= groupOf(last); ++g) {
        const std::size_t begin = groupStart(g);
        const std::size_t end = g == 0 ? 1 : std::min(begin + group, m_counts.size());
        std::uint64_t sum = 0;
        for (std::size_t i = begin; i < end; ++i)
            sum += m_counts[i];
        edgesS.push_back(lowerEdge(begin));
        counts.push_back(sum);
    }
    edgesS.push_back(lowerEdge(groupStart(groupOf(last) + 1)));
}

void LogHistogram::cdf(std::vector<double>& valuesS, std::vector<double>& probability) const
{
    valuesS.clear();
    probability.clear();
    const std::uint64_t n = count();
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < m_counts.size(); ++i) {
        if (m_counts[i] == 0)
            continue;
        seen += m_counts[i];
        valuesS.push_back(representative(i));
        probability.push_back(double(seen) / double(n));
    }
}

} // namespace bs::sim
