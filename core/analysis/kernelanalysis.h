#pragma once

#include "analysis/distribution.h"
#include "analysis/kernelclass.h"
#include "data/kerneltrace.h"
#include "util/canceltoken.h"
#include "util/expected.h"
#include "util/progress.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace bs::analysis {

struct KernelAnalysisOptions
{
    /// Steps are host user annotations whose name contains this text (record_function ranges);
    /// empty: "ProfilerStep#N" annotations, or the whole trace as one step when there are none
    /// (the device span, the same window as KernelAnalysis::total).
    /// Matches that contain another match are dropped, so steps never nest.
    std::string stepAnnotation;
    /// Items (batch size) processed per step; > 0 adds kernels and launches per item.
    double itemsPerStep = 0.0;
    /// Names (case-insensitive substrings of kernel or CPU op names) the user marks as fallbacks.
    std::vector<std::string> fallbackNames;
    /// Flag GEMM/convolution kernels without a tensor-core variant as mapping fallback.
    bool expectTensorCores = true;
    /// CPU ops shorter than this are not considered as fallback candidates (seconds).
    double minCpuFallbackS = 50e-6;
    std::size_t topKernels = 20;
};

/// The temporal breakdown of one step (or of the whole trace). Times in seconds.
struct StepBreakdown
{
    std::string name;
    double startS = kNaN; ///< Host annotation start (trace seconds).
    double endS = kNaN;   ///< Host annotation end.
    /// Start to the later of the annotation's end and its last device activity's end: the
    /// time the step occupies the device.
    double wallS = 0.0;
    double busyS = 0.0; ///< Union of its device activity (any device).
    double idleS = 0.0; ///< wallS - busyS.
    double busyFraction = kNaN;
    std::array<double, kKernelClassCount> classS{}; ///< Device time by KernelClass (summed).
    std::uint64_t kernels = 0;
    std::uint64_t memoryOps = 0;  ///< memcpy / memset activities.
    std::uint64_t launches = 0;   ///< Host runtime calls joined to device activity.
    double kernelsPerItem = kNaN; ///< With itemsPerStep: the fusion effect.
    double launchesPerItem = kNaN;
    double launchOverheadMeanS = kNaN; ///< Runtime call start -> device start, by correlation.
    double launchOverheadMaxS = kNaN;
    double hostGapS = 0.0; ///< Device idle gaps that end with work launched after the gap began.
    std::uint64_t hostGaps = 0;
    double imbalanceS = 0.0; ///< Max minus mean device busy time (traces with >= 2 devices).
    double cpuFallbackExposedS = 0.0; ///< Device idle time during CPU-path ops of the step.
    double noTensorCoreS = 0.0;       ///< GEMM/conv kernels without a tensor-core variant.
    double userMarkedS = 0.0;         ///< Kernels matching the user's fallback names.
    double fallbackS = 0.0;           ///< The three above together.
    double fallbackShare = kNaN;      ///< fallbackS / wallS.
};

struct StreamUse
{
    int device = -1;
    int stream = -1;
    std::uint64_t events = 0;
    double busyS = 0.0;       ///< Sum of its activity durations.
    double utilisation = 0.0; ///< busyS / device span.
};

struct DeviceUse
{
    int device = -1;
    std::uint64_t events = 0;
    double busyS = 0.0; ///< Union of its activity.
    double utilisation = 0.0;
    double streamJain = kNaN; ///< Jain's index over its streams' busy time.
    std::vector<StreamUse> streams;
};

struct TopKernel
{
    std::string name;
    KernelClass kernelClass = KernelClass::Other;
    bool tensorCore = false;          ///< The name shows a tensor/matrix-core implementation.
    bool noTensorCoreVariant = false; ///< Counted as mapping fallback.
    std::uint64_t count = 0;
    double totalS = 0.0;
    double meanS = 0.0;
    double maxS = 0.0;
    double share = 0.0; ///< Of all device activity time.
};

/// One kind of slower-than-intended path, by name.
struct FallbackEntry
{
    std::string kind; ///< "cpu_op", "no_tensor_core", "user_marked".
    std::string name;
    std::uint64_t count = 0;
    double timeS = 0.0; ///< Summed duration (host for CPU ops, device for kernels).
    double exposedS =
        0.0;            ///< The part that lengthened steps (device idle meanwhile / kernel time).
    double share = 0.0; ///< exposedS / summed step wall time.
};

struct KernelAnalysis
{
    std::string name;
    bool deviceActivity = false;
    std::string note; ///< e.g. "no device activity: ..." for CPU-only traces.
    std::uint64_t events = 0;
    std::uint64_t kernels = 0;
    std::uint64_t memoryOps = 0;
    std::uint64_t launchesJoined = 0;    ///< Device activities joined to a runtime call.
    std::uint64_t otherDeviceEvents = 0; ///< Device-side events of other kinds (not analysed).
    std::string stepSource;              ///< "ProfilerStep#", "annotation 'X'", "whole trace".
    std::vector<StepBreakdown> steps;
    /// The whole trace: wall = device span (first device activity's start to the last one's
    /// end). Without steps, steps holds this same window once.
    StepBreakdown total;
    double deviceSpanS = 0.0;
    std::vector<DeviceUse> devices;
    double deviceJainBusy = kNaN; ///< Core-level fairness over devices.
    double deviceMaxToMeanBusy = kNaN;
    Distribution launchOverheadS;
    std::vector<TopKernel> topKernels;
    std::vector<FallbackEntry> fallbacks;
    std::string classification; ///< The name rules, for the report.
    std::vector<std::string> notes;
};

/// Analyses a kernel trace: per step and whole-trace temporal breakdown, per device/stream
/// utilisation, launch overhead, top kernels, mapping fallback. A trace without kernel, memcpy
/// or memset events gives deviceActivity = false and a note, not an error. Errors: non-finite
/// or negative times, cancellation. Cost: linear passes plus one radix sort of the device
/// events by start (skipped when already in order).
Expected<KernelAnalysis> analyzeKernels(const data::KernelTrace& trace,
                                        const KernelAnalysisOptions& options = {},
                                        Progress& progress = Progress::null(),
                                        const CancelToken& cancel = CancelToken());

} // namespace bs::analysis
