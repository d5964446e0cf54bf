#pragma once
// Internal pieces of analyzeKernels (kernelanalysis.cpp), one concept per source file.

#include "analysis/kernelanalysis.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace bs::analysis::detail {

enum NameFlag : std::uint8_t
{
    kNoTensorCore = 1, ///< GEMM/conv without a tensor-core variant (when expected).
    kUserMarked = 2,   ///< Matches one of the user's fallback names.
};

struct StepSpan
{
    std::string name;
    double startS = 0.0;
    double endS = 0.0;
};

/// Shared state of one analysis. Per-device-activity vectors are parallel to `device`, which
/// lists the device activities (kernel, memcpy, memset) in start order.
struct KernelWork
{
    const data::KernelTrace& trace;
    const KernelAnalysisOptions& options;
    std::vector<std::uint8_t> nameClass; ///< KernelClass per name id.
    std::vector<std::uint8_t> nameFlags; ///< NameFlag bits per name id.
    std::vector<StepSpan> steps;
    bool wholeTrace = false;
    std::vector<std::uint32_t> device; ///< Event indices, by start time.
    std::vector<double> launchS;       ///< Start of the joined runtime call, NaN when none.
    std::vector<std::int32_t> stepOf;  ///< Step index, or steps.size() for "outside every step".
    std::vector<std::uint32_t> launchCalls;      ///< Runtime events joined to device activity.
    std::vector<std::pair<double, double>> busy; ///< Merged busy intervals, any device.
    std::vector<double> busyBefore;              ///< Busy time before interval k (prefix sums).
    std::vector<double> stepLastEndS;            ///< Per step: the end of its last device activity.
};

/// Steps by the options' rule (see KernelAnalysisOptions::stepAnnotation); `source` says which.
/// Without matching annotations, one step spanning every event, and wholeTrace is set.
std::vector<StepSpan> findSteps(const data::KernelTrace& trace, const std::string& pattern,
                                std::string& source, bool& wholeTrace);
/// Fills launchS and launchCalls by joining device activity to runtime calls on correlation.
void joinLaunches(KernelWork& work);
/// The step each device activity belongs to: the step whose host span holds its launch call
/// (its own start when it has none).
void assignSteps(KernelWork& work);
/// Busy/idle, host gaps, per-device and per-stream use, imbalance; fills work.busy.
void walkTimeline(KernelWork& work, std::vector<StepBreakdown>& steps, KernelAnalysis& out);
/// CPU-path ops, kernels without tensor-core variants and user-marked names.
void findFallbacks(KernelWork& work, std::vector<StepBreakdown>& steps, KernelAnalysis& out);
/// Device time [a, b] during which no device was busy.
double idleWithin(const KernelWork& work, double a, double b);

} // namespace bs::analysis::detail
