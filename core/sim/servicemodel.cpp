#include "sim/servicemodel.h"

#include "accel/model.h"
#include "sim/acceleratorservicemodel.h"
#include "sim/servicespread.h"
#include "sim/variability.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace bs::sim {

namespace {

/// linear, table and exponential: a mean per batch size, looked up in a table built once, times
/// a mean-1 variability multiplier (one for all sizes, or one per size when a table states its
/// measured percentiles).
class MeanTableServiceModel final : public ServiceModel
{
public:
    MeanTableServiceModel(std::vector<double> meanS, std::vector<VariabilitySampler> samplers)
        : m_meanS(std::move(meanS))
        , m_samplers(std::move(samplers))
    {}
    double meanServiceS(int batch) const override { return m_meanS[std::size_t(batch)]; }
    BatchService serve(int batch, ServerState*, double, Rng& rng) const override
    {
        const auto& sampler =
            m_samplers.size() == 1 ? m_samplers[0] : m_samplers[std::size_t(batch)];
        return {m_meanS[std::size_t(batch)] * sampler.draw(rng)};
    }

private:
    std::vector<double> m_meanS;                ///< Index = batch size; [0] unused.
    std::vector<VariabilitySampler> m_samplers; ///< One for every size, or index = batch size.
};

/// A mean-1 lognormal of log-standard-deviation sigma (deterministic for sigma 0).
VariabilitySampler lognormalSampler(double sigma)
{
    if (sigma <= 0.0)
        return VariabilitySampler(Variability{});
    return VariabilitySampler(
        Variability{VariabilityKind::Lognormal, std::sqrt(std::expm1(sigma * sigma))});
}

std::vector<VariabilitySampler> samplersOf(const ServiceSpec& service, int maxBatch,
                                           std::vector<std::string>& warnings)
{
    const std::vector<double> sigmas = service.kind == ServiceSpec::Kind::Table
                                           ? tableSigmas(service, maxBatch, warnings)
                                           : std::vector<double>{};
    if (sigmas.empty())
        return {VariabilitySampler(service.distribution)};
    std::vector<VariabilitySampler> samplers;
    samplers.reserve(sigmas.size());
    for (double sigma : sigmas)
        samplers.push_back(lognormalSampler(sigma));
    return samplers;
}

std::string describe(double v)
{
    std::ostringstream out;
    out << v;
    return out.str();
}

/// Linear interpolation in the measured sweep; below the first size its latency, above the last
/// the straight line through the last two points (a single point stays flat).
std::vector<double> tableMeans(const ServiceSpec& service, int maxBatch,
                               std::vector<std::string>& warnings)
{
    const auto& x = service.tableBatch;
    const auto& y = service.tableLatencyS;
    std::vector<double> means(std::size_t(maxBatch) + 1, 0.0);
    for (int b = 1; b <= maxBatch; ++b)
        means[std::size_t(b)] = std::max(interpolateInTable(x, y, b, true), 1e-12);
    if (double(maxBatch) > x.back())
        warnings.push_back("scenario.service.batch: the policy allows batches up to " +
                           std::to_string(maxBatch) + " but the table ends at " +
                           describe(x.back()) + "; larger batches are extrapolated" +
                           (x.size() > 1 ? " along the last segment" : " flat"));
    if (x.front() > 1.0)
        warnings.push_back("scenario.service.batch: the table starts at batch " +
                           describe(x.front()) + "; smaller batches use its latency");
    return means;
}

} // namespace

Expected<std::shared_ptr<const ServiceModel>>
makeServiceModel(const ServiceSpec& service, int maxBatch, std::vector<std::string>& warnings)
{
    std::vector<double> means(std::size_t(maxBatch) + 1, 0.0);
    switch (service.kind) {
    case ServiceSpec::Kind::Linear:
        for (int b = 1; b <= maxBatch; ++b)
            means[std::size_t(b)] = service.baseS + service.perItemS * double(b);
        break;
    case ServiceSpec::Kind::Exponential:
        std::fill(means.begin() + 1, means.end(), service.meanS);
        break;
    case ServiceSpec::Kind::Table:
        means = tableMeans(service, maxBatch, warnings);
        break;
    case ServiceSpec::Kind::Accelerator: {
        auto model = accel::modelFromJson(service.acceleratorModel, "scenario.service.model", {});
        if (!model)
            return model.error();
        return std::shared_ptr<const ServiceModel>(
            std::make_shared<AcceleratorServiceModel>(std::move(*model)));
    }
    }
    return std::shared_ptr<const ServiceModel>(std::make_shared<MeanTableServiceModel>(
        std::move(means), samplersOf(service, maxBatch, warnings)));
}

} // namespace bs::sim
