#pragma once

#include "data/runtags.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bs::data {

/// Category of a trace event, normalised over the Kineto generations ("kernel" and the older
/// "Kernel" both become Kernel).
enum class EventCategory : std::uint8_t
{
    Kernel,         ///< Device kernel execution.
    Memcpy,         ///< Device memory copy.
    Memset,         ///< Device memory set.
    Runtime,        ///< Host runtime/driver call (cudaLaunchKernel, hipLaunchKernel, ...).
    CpuOp,          ///< Framework operator on the host (aten::...).
    UserAnnotation, ///< record_function ranges, ProfilerStep#N.
    GpuAnnotation,  ///< gpu_user_annotation: the device-side span of an annotation.
    Python,         ///< Python function events.
    Flow,           ///< ac2g and other flow start/finish events.
    Other,
};

/// How the event was written: a complete span (ph X, or a matched B/E pair), an instant
/// (ph i/I), or a flow endpoint (ph s/f).
enum class EventPhase : std::uint8_t
{
    Complete,
    Instant,
    FlowStart,
    FlowEnd,
};

/// One event, kept to 56 bytes so ten million events fit in about half a gigabyte.
/// Times are seconds relative to KernelTrace::originUs.
struct KernelEvent
{
    double startS = 0.0;
    double durationS = 0.0;
    std::int64_t correlation = -1; ///< Runtime call <-> kernel join key; -1 when absent.
    std::int64_t externalId = -1;  ///< CPU op <-> runtime call join key; -1 when absent.
    std::uint32_t nameId = 0;      ///< Index into KernelTrace::names (interned).
    std::int32_t pid = 0;
    std::int32_t tid = 0;     ///< Thread id, or the device stream for device events.
    std::int32_t stream = -1; ///< Device stream from args; -1 when absent.
    std::int16_t device = -1; ///< Device index from args or pid; -1 for host events.
    EventCategory category = EventCategory::Other;
    EventPhase phase = EventPhase::Complete;
};

/// A kernel/profiler trace (Chrome trace event format, PyTorch Kineto).
struct KernelTrace
{
    std::string name;
    double originUs = 0.0; ///< The trace's own timestamp (µs) of t = 0.
    std::vector<std::string> names;
    std::vector<KernelEvent> events;
    std::map<std::string, std::string> metadata; ///< e.g. distributedInfo, deviceProperties.
    RunTags tags;

    const std::string& nameOf(const KernelEvent& event) const { return names[event.nameId]; }
};

const char* eventCategoryName(EventCategory category);

} // namespace bs::data
