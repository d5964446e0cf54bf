#include "sim/rng.h"

namespace bs::sim {

double Rng::normal()
{
    if (m_hasSpare) {
        m_hasSpare = false;
        return m_spareNormal;
    }
    for (;;) {
        const double u = 2.0 * uniform() - 1.0;
        const double v = 2.0 * uniform() - 1.0;
        const double s = u * u + v * v;
        if (s >= 1.0 || s == 0.0)
            continue;
        const double factor = std::sqrt(-2.0 * std::log(s) / s);
        m_spareNormal = v * factor;
        m_hasSpare = true;
        return u * factor;
    }
}

double Rng::gamma(double shape)
{
    if (shape < 1.0) {
        // Gamma(a) = Gamma(a + 1) * U^(1/a) (Marsaglia and Tsang, section 6).
        const double boosted = gamma(shape + 1.0);
        return boosted * std::pow(uniformOpen(), 1.0 / shape);
    }
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        double x = 0.0;
        double v = 0.0;
        do {
            x = normal();
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        const double u = uniformOpen();
        if (u < 1.0 - 0.0331 * (x * x) * (x * x))
            return d * v;
        if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v)))
            return d * v;
    }
}

} // namespace bs::sim
