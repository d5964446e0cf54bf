#pragma once

// Memory figures for the benchmarks, from /proc/self (Linux): the resident set and its
// high-water mark, which can be reset to measure the peak of one step.

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace bs::bench {

/// A field of /proc/self/status in bytes ("VmHWM:", "VmRSS:").
inline double statusBytes(const char* field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind(field, 0) == 0)
            return std::atof(line.c_str() + std::strlen(field) + 1) * 1024.0;
    }
    return 0.0;
}

/// Resets VmHWM to the current resident set; false where the kernel does not allow it.
inline bool resetPeakMemory()
{
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
    return bool(clear);
}

} // namespace bs::bench
