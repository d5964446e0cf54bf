#include "util/threadpriority.h"

#include <algorithm>

#if defined(__linux__)
#include <sys/resource.h>
#endif

namespace bs {

namespace {
/// Ten steps of nice: a CPU-bound thread then gets about a tenth of the share of a thread at
/// the original priority, so the GUI thread is rarely kept waiting for a core.
constexpr int kBackgroundNiceIncrement = 10;
constexpr int kLowestNice = 19;
thread_local bool t_lowered = false;
} // namespace

void lowerThisThreadPriority()
{
    // Once per thread: a pool thread that runs job after job keeps one step down.
    if (t_lowered)
        return;
    t_lowered = true;
#if defined(__linux__)
    // On Linux the nice value belongs to the thread: PRIO_PROCESS with 0 names the caller's
    // thread, not the whole process. Failure (a sandbox that forbids it) leaves the priority
    // as it was, which is only slower to respond, never wrong.
    const int current = getpriority(PRIO_PROCESS, 0);
    (void)setpriority(PRIO_PROCESS, 0, std::min(kLowestNice, current + kBackgroundNiceIncrement));
#endif
}

} // namespace bs
