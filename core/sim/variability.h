#pragma once

#include "sim/rng.h"

namespace bs::sim {

/// How a service time varies around its mean. Draws are multipliers with mean exactly 1, so
/// the service model decides the mean and the variability only the shape.
enum class VariabilityKind
{
    Deterministic, ///< Always the mean.
    Exponential,   ///< Coefficient of variation 1.
    Gamma,         ///< Shape 1/cv^2; cv 0 is deterministic.
    Lognormal,     ///< sigma^2 = ln(1 + cv^2), mu = -sigma^2/2.
};

/// Stable lowercase name, as in the scenario JSON.
const char* variabilityKindName(VariabilityKind kind);

/// The "distribution" of a service model: a kind and, for gamma and lognormal, the coefficient
/// of variation (standard deviation / mean).
struct Variability
{
    VariabilityKind kind = VariabilityKind::Deterministic;
    double cv = 0.0;

    friend bool operator==(const Variability&, const Variability&) = default;
};

/// Draws mean-1 multipliers of one Variability. Cheap to copy; the parameters are derived once.
class VariabilitySampler
{
public:
    explicit VariabilitySampler(const Variability& variability = {});

    /// A multiplier with mean 1 (exactly 1.0 for deterministic, so no random number is used).
    double draw(Rng& rng) const
    {
        switch (m_kind) {
        case VariabilityKind::Deterministic:
            return 1.0;
        case VariabilityKind::Exponential:
            return rng.exponential();
        case VariabilityKind::Gamma:
            return rng.gamma(m_shape) * m_scale;
        case VariabilityKind::Lognormal:
            return std::exp(m_mu + m_sigma * rng.normal());
        }
        return 1.0;
    }

    bool isDeterministic() const { return m_kind == VariabilityKind::Deterministic; }

private:
    VariabilityKind m_kind = VariabilityKind::Deterministic;
    double m_shape = 1.0;
    double m_scale = 1.0;
    double m_mu = 0.0;
    double m_sigma = 0.0;
};

} // namespace bs::sim
