#include "sim/latencystore.h"

#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace bs::sim {

double* LatencyStore::allocate(std::size_t n)
{
    const std::size_t bytes = n * sizeof(double);
#if defined(__linux__)
    constexpr std::size_t kHugePage = std::size_t(2) << 20;
    if (bytes >= 2 * kHugePage) {
        const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        if (void* p = std::aligned_alloc(kHugePage, rounded)) {
            // Advice only: without transparent huge pages the memory is simply used as is.
            madvise(p, rounded, MADV_HUGEPAGE);
            return static_cast<double*>(p);
        }
    }
#endif
    void* p = std::malloc(bytes == 0 ? 1 : bytes);
    if (!p)
        throw std::bad_alloc();
    return static_cast<double*>(p);
}

} // namespace bs::sim
