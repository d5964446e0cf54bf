// Service-time spread from measured percentiles (core/sim/README.md, "service"): each row of a
// `table` service that states p50/p90/p95/p99 becomes a lognormal with the row's mean, so the
// simulator draws service times with the spread the sweep measured rather than only its mean.
#include "sim/servicespread.h"

#include "util/numbertext.h"

#include <algorithm>
#include <cmath>

namespace bs::sim {

namespace {

/// Sum of squared log errors of the quantiles for one sigma.
double logSquaredError(double meanS, double sigma, const std::vector<ServiceQuantile>& quantiles)
{
    double sum = 0.0;
    for (const auto& q : quantiles) {
        const double predicted = std::log(meanS) - 0.5 * sigma * sigma +
                                 normalQuantileOfPercentile(q.percentile) * sigma;
        const double e = predicted - std::log(q.valueS);
        sum += e * e;
    }
    return sum;
}

double lognormalQuantile(double meanS, double sigma, int percentile)
{
    return meanS * std::exp(-0.5 * sigma * sigma + normalQuantileOfPercentile(percentile) * sigma);
}

std::vector<ServiceQuantile> rowQuantiles(const ServiceSpec& service, std::size_t row)
{
    std::vector<ServiceQuantile> out;
    for (const auto& column : service.tablePercentiles)
        out.push_back({column.percentile, column.latencyS[row]});
    return out;
}

} // namespace

double interpolateInTable(const std::vector<double>& x, const std::vector<double>& y, double batch,
                          bool extendLastSegment)
{
    if (batch <= x.front() || x.size() == 1)
        return batch <= x.front() ? y.front() : y.back();
    const std::size_t n = x.size();
    if (batch >= x.back())
        return extendLastSegment
                   ? y[n - 1] + (batch - x[n - 1]) * (y[n - 1] - y[n - 2]) / (x[n - 1] - x[n - 2])
                   : y.back();
    const auto hi = std::size_t(std::upper_bound(x.begin(), x.end(), batch) - x.begin());
    const double f = (batch - x[hi - 1]) / (x[hi] - x[hi - 1]);
    return y[hi - 1] + f * (y[hi] - y[hi - 1]);
}

double normalQuantileOfPercentile(int percentile)
{
    switch (percentile) {
    case 50:
        return 0.0;
    case 90:
        return 1.2815515655446004;
    case 95:
        return 1.6448536269514722;
    case 99:
        return 2.3263478740408408;
    default:
        return std::nan("");
    }
}

double lognormalSigmaFromQuantiles(double meanS, const std::vector<ServiceQuantile>& quantiles)
{
    if (quantiles.empty() || !(meanS > 0.0))
        return 0.0;
    // One parameter on a short interval: a coarse scan finds the basin (the error is a quartic
    // in sigma, so it may have two), golden-section search polishes it.
    constexpr double kMaxSigma = 3.0;
    constexpr int kScan = 300;
    double best = 0.0;
    double bestError = logSquaredError(meanS, 0.0, quantiles);
    for (int i = 1; i <= kScan; ++i) {
        const double sigma = kMaxSigma * i / kScan;
        const double e = logSquaredError(meanS, sigma, quantiles);
        if (e < bestError) {
            bestError = e;
            best = sigma;
        }
    }
    double lo = std::max(0.0, best - kMaxSigma / kScan);
    double hi = std::min(kMaxSigma, best + kMaxSigma / kScan);
    const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
    for (int i = 0; i < 100 && hi - lo > 1e-12; ++i) {
        const double a = hi - ratio * (hi - lo);
        const double b = lo + ratio * (hi - lo);
        if (logSquaredError(meanS, a, quantiles) <= logSquaredError(meanS, b, quantiles))
            hi = b;
        else
            lo = a;
    }
    return 0.5 * (lo + hi);
}

TableSpreadFit fitTableSpread(const ServiceSpec& service)
{
    TableSpreadFit fit;
    if (service.tablePercentiles.empty())
        return fit;
    for (std::size_t row = 0; row < service.tableBatch.size(); ++row) {
        const double meanS = service.tableLatencyS[row];
        const auto quantiles = rowQuantiles(service, row);
        const double sigma = lognormalSigmaFromQuantiles(meanS, quantiles);
        fit.sigmaPerRow.push_back(sigma);
        for (const auto& q : quantiles) {
            const double error =
                std::abs(lognormalQuantile(meanS, sigma, q.percentile) / q.valueS - 1.0);
            if (error > fit.worstQuantileError) {
                fit.worstQuantileError = error;
                fit.worstBatch = int(service.tableBatch[row]);
                fit.worstPercentile = q.percentile;
            }
        }
    }
    return fit;
}

std::vector<double> tableSigmas(const ServiceSpec& service, int maxBatch,
                                std::vector<std::string>& warnings)
{
    const TableSpreadFit fit = fitTableSpread(service);
    if (fit.sigmaPerRow.empty())
        return {};
    const auto& x = service.tableBatch;
    const auto& s = fit.sigmaPerRow;
    std::vector<double> sigmas(std::size_t(maxBatch) + 1, 0.0);
    for (int b = 1; b <= maxBatch; ++b)
        sigmas[std::size_t(b)] = interpolateInTable(x, s, b, false);
    // A lognormal fits two or more quantiles only approximately: say how far the worst is off.
    if (fit.worstQuantileError > 0.1)
        warnings.push_back("scenario.service.p" + std::to_string(fit.worstPercentile) +
                           "_ms: a lognormal with the row's mean misses the measured p" +
                           std::to_string(fit.worstPercentile) + " at batch " +
                           std::to_string(fit.worstBatch) + " by " +
                           significant(100.0 * fit.worstQuantileError, 3) +
                           "% (the spread is fitted to all stated percentiles at once)");
    return sigmas;
}

} // namespace bs::sim
