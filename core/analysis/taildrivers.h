#pragma once

#include "analysis/kernelanalysis.h"
#include "analysis/requestanalysis.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bs::analysis {

/// One cause of the tail, with how much of the p99-over-median excess it explains.
struct TailDriver
{
    /// "queueing_delay", "batch_formation", "service_variability", "core_imbalance",
    /// "mapping_fallback", "host_launch_gaps".
    std::string name;
    double excessS = kNaN; ///< Its part of (tail mean - median-band mean), seconds.
    double share = kNaN;   ///< excessS / total excess (can be negative: it shrinks the tail).
    double ciLowS = kNaN;  ///< 95% interval of excessS.
    double ciHighS = kNaN;
    std::string evidence; ///< Where the number comes from.
};

/// The ranked bar chart of the playbook: what makes p99 exceed the median.
struct TailDrivers
{
    bool available = false;
    std::string reason;
    std::string source; ///< "request trace", "kernel trace steps", or both.
    double p50S = kNaN;
    double p99S = kNaN;
    double excessS = kNaN; ///< Mean of the tail set minus mean of the median band.
    /// Whether the p99 behind the tail set has enough samples (see orderstatistics.h).
    bool sufficient = false;
    std::vector<TailDriver> drivers; ///< Largest excess first.
    std::string method;
    std::string uncertainty;
    std::vector<std::string> notes;
};

/// Drivers from the kernel trace alone: steps at or above the p99 step time against the median
/// band (p45..p55, at least the step nearest the median), each step's time split into mapping
/// fallback, core imbalance, host/launch gaps and the rest (kernel time variability).
/// Intervals: bootstrap over steps (fixed seed).
TailDrivers tailDriversFromSteps(const KernelAnalysis& kernels, std::uint64_t seed = 1,
                                 int replicates = 200);

/// Drivers for a request trace (queueing, batch formation, service), optionally refined with a
/// kernel trace of the same service: the service excess is split in the proportions the step
/// analysis finds (an assumption the method text states). Either pointer may be null.
TailDrivers tailDrivers(const RequestAnalysis* requests, const KernelAnalysis* kernels,
                        std::uint64_t seed = 1, int replicates = 200);

} // namespace bs::analysis
