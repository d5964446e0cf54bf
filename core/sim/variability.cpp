#include "sim/variability.h"

namespace bs::sim {

const char* variabilityKindName(VariabilityKind kind)
{
    switch (kind) {
    case VariabilityKind::Deterministic:
        return "deterministic";
    case VariabilityKind::Exponential:
        return "exponential";
    case VariabilityKind::Gamma:
        return "gamma";
    case VariabilityKind::Lognormal:
        return "lognormal";
    }
    return "deterministic";
}

VariabilitySampler::VariabilitySampler(const Variability& variability)
    : m_kind(variability.kind)
{
    const double cv = variability.cv;
    if (m_kind == VariabilityKind::Gamma) {
        if (cv <= 0.0) {
            m_kind = VariabilityKind::Deterministic;
        } else {
            m_shape = 1.0 / (cv * cv);
            m_scale = 1.0 / m_shape;
        }
    } else if (m_kind == VariabilityKind::Lognormal) {
        if (cv <= 0.0) {
            m_kind = VariabilityKind::Deterministic;
        } else {
            const double sigma2 = std::log1p(cv * cv);
            m_sigma = std::sqrt(sigma2);
            m_mu = -0.5 * sigma2;
        }
    }
}

} // namespace bs::sim
