#pragma once
// Helpers shared by the accelerator-fit tests (tst_accelfit, tst_fitidentifiability):
// header-only, each test is its own executable.

#include "accel/model.h"
#include "accel/presetlibrary.h"

#include <QString>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace bs::test {

/// Standard normal numbers from a fixed generator (std::normal_distribution is
/// implementation-defined; this is the same everywhere).
class Noise
{
public:
    explicit Noise(std::uint64_t seed)
        : m_rng(seed)
    {}
    double normal()
    {
        const double u1 = (double(m_rng() >> 11) + 0.5) * 0x1.0p-53;
        const double u2 = double(m_rng() >> 11) * 0x1.0p-53;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
    }

private:
    std::mt19937_64 m_rng;
};

inline accel::ModelParams a100(accel::Precision precision)
{
    accel::ModelParams p;
    p.accelerator = *accel::PresetLibrary::builtIn().accelerator("a100-sxm-80gb");
    p.precision = precision;
    return p;
}

/// A "workload unknown" truth: time terms on an A100 at fp16 (η_c 0.7, η_m 0.85 from the
/// preset), so the sweep crosses from memory- to compute-bound at b* = 31.25.
struct TimeTruth
{
    double hostS = 1.0e-3;
    double computeSPerItem = 20e-6;
    double weightS = 0.5e-3;
    double activationSPerItem = 4e-6;
    double p = 3.0;
    double idleW = 60.0;
    double dynamicW = 300.0;
    /// The power model's memory-activity factor κ; NaN keeps the parameters' default.
    double memoryActivity = std::numeric_limits<double>::quiet_NaN();
};

inline accel::ModelParams paramsFor(const TimeTruth& t)
{
    accel::ModelParams p = a100(accel::Precision::Fp16);
    const double rate = 312e12 * 0.7;
    const double elementsPerS = 2.039e12 * 0.85 / 2.0;
    p.workload.name = "truth";
    p.workload.flopsPerItem = t.computeSPerItem * rate;
    p.workload.weightElements = t.weightS * elementsPerS;
    p.workload.activationElementsPerItem = t.activationSPerItem * elementsPerS;
    p.hostOverheadS = t.hostS;
    p.smoothMaxP = t.p;
    p.powerIdleW = t.idleW;
    p.powerMaxW = t.idleW + t.dynamicW;
    if (!std::isnan(t.memoryActivity))
        p.memoryActivity = t.memoryActivity;
    return p;
}

/// The real TFT perf_analyzer batch sweep (A100, batch 1..1024) in the shared data folder.
inline QString tftOfflineSweepPath(const QString& shared)
{
    return shared + QStringLiteral("/triton/perf_analyzer/Mutinifni_DeepLearningExamples/"
                                   "PyTorch/Forecasting/TFT/runner_workspace/executor/shared/"
                                   "triton_performance_offline.csv");
}

} // namespace bs::test
