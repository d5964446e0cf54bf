#include "data/kerneltrace.h"

namespace bs::data {

static_assert(sizeof(KernelEvent) <= 56, "KernelEvent must stay compact (see the memory goal)");

const char* eventCategoryName(EventCategory category)
{
    switch (category) {
    case EventCategory::Kernel:
        return "kernel";
    case EventCategory::Memcpy:
        return "memcpy";
    case EventCategory::Memset:
        return "memset";
    case EventCategory::Runtime:
        return "runtime";
    case EventCategory::CpuOp:
        return "cpu_op";
    case EventCategory::UserAnnotation:
        return "user_annotation";
    case EventCategory::GpuAnnotation:
        return "gpu_annotation";
    case EventCategory::Python:
        return "python";
    case EventCategory::Flow:
        return "flow";
    case EventCategory::Other:
        return "other";
    }
    return "other";
}

} // namespace bs::data
