#include "analysis/orderstatistics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace bs::analysis {

namespace {

/// The binomial distribution's mass over the ranks where it is not negligible, as a CDF.
/// Terms are built by the ratio recurrence outward from the mode and normalised by their sum,
/// which needs no factorials and stays accurate for n in the billions. Terms below 1e-20 of
/// the mode's are dropped (the dropped tails sum to far less than 1e-17).
class BinomialMass
{
public:
    BinomialMass(std::uint64_t n, double p)
    {
        const double q = 1.0 - p;
        const auto mode = std::min<std::uint64_t>(n, std::uint64_t(std::floor(double(n + 1) * p)));
        std::vector<double> below; // pmf(mode - 1), pmf(mode - 2), ... relative to pmf(mode)
        double v = 1.0;
        for (std::uint64_t k = mode; k > 0; --k) {
            v *= double(k) / double(n - k + 1) * (q / p); // pmf(k-1) / pmf(k)
            if (v < 1e-20)
                break;
            below.push_back(v);
        }
        std::vector<double> above; // pmf(mode + 1), ...
        v = 1.0;
        for (std::uint64_t k = mode; k < n; ++k) {
            v *= double(n - k) / double(k + 1) * (p / q); // pmf(k+1) / pmf(k)
            if (v < 1e-20)
                break;
            above.push_back(v);
        }
        m_lo = mode - below.size();
        m_hi = mode + above.size();
        m_cdf.reserve(below.size() + 1 + above.size());
        for (auto it = below.rbegin(); it != below.rend(); ++it)
            m_cdf.push_back(*it);
        m_cdf.push_back(1.0);
        m_cdf.insert(m_cdf.end(), above.begin(), above.end());
        double sum = 0.0;
        for (double& x : m_cdf) {
            sum += x;
            x = sum;
        }
        for (double& x : m_cdf)
            x /= sum;
    }

    /// P(B <= k); k may be -1.
    double cdf(std::int64_t k) const
    {
        if (k < std::int64_t(m_lo))
            return 0.0;
        if (k >= std::int64_t(m_hi))
            return 1.0;
        return m_cdf[std::size_t(k - std::int64_t(m_lo))];
    }
    std::uint64_t lo() const { return m_lo; }
    std::uint64_t hi() const { return m_hi; }

private:
    std::uint64_t m_lo = 0;
    std::uint64_t m_hi = 0;
    std::vector<double> m_cdf;
};

} // namespace

OrderStatisticInterval orderStatisticInterval(std::uint64_t n, double probability,
                                              double confidence)
{
    OrderStatisticInterval out;
    out.n = n;
    out.probability = probability;
    out.confidence = confidence;
    out.upperRank = n + 1;
    if (n == 0 || !(probability > 0.0 && probability < 1.0) ||
        !(confidence > 0.0 && confidence < 1.0)) {
        out.coverage = 1.0;
        return out;
    }
    const BinomialMass mass(n, probability);
    const double tail = 0.5 * (1.0 - confidence);
    const auto last = std::int64_t(n) - 1; // ranks are 1..n, so k = rank - 1 is 0..n-1
    // Largest k in [-1, n-1] with F(k) <= tail; every k below the stored range qualifies.
    std::int64_t kLow = std::min<std::int64_t>(std::int64_t(mass.lo()) - 1, last);
    for (std::int64_t k = std::max<std::int64_t>(kLow + 1, 0); k <= last; ++k) {
        if (mass.cdf(k) > tail)
            break;
        kLow = k;
    }
    // Smallest k in [0, n-1] with F(k) >= 1 - tail; n when there is none.
    std::int64_t kHigh = std::int64_t(n);
    for (std::int64_t k = std::int64_t(mass.lo());
         k <= std::min<std::int64_t>(last, std::int64_t(mass.hi())); ++k) {
        if (mass.cdf(k) >= 1.0 - tail) {
            kHigh = k;
            break;
        }
    }
    out.lowerRank = std::uint64_t(kLow + 1);
    out.upperRank = std::uint64_t(kHigh + 1);
    out.coverage = mass.cdf(kHigh) - mass.cdf(kLow);
    return out;
}

std::uint64_t minimumSamplesForPercentile(double probability, double confidence)
{
    if (!(probability > 0.0 && probability < 1.0) || !(confidence > 0.0 && confidence < 1.0))
        return 0;
    const double limit = 1.0 - confidence;
    auto n = std::uint64_t(std::max(1.0, std::ceil(std::log(limit) / std::log(probability))));
    // Guard the rounding of the logarithms: the answer is the least n with p^n <= 1 - c.
    while (std::pow(probability, double(n)) > limit)
        ++n;
    while (n > 1 && std::pow(probability, double(n - 1)) <= limit)
        --n;
    return n;
}

double binomialCdf(std::uint64_t n, double p, std::uint64_t k)
{
    if (k >= n)
        return 1.0;
    if (p <= 0.0)
        return 1.0;
    if (p >= 1.0)
        return 0.0;
    return BinomialMass(n, p).cdf(std::int64_t(k));
}

} // namespace bs::analysis
