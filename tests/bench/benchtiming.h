#pragma once

// Timing for the benchmarks: wall time and the calling thread's CPU time, and medians of
// several runs. On a shared machine the CPU time is what one core actually spent; the wall time
// also includes waiting for a core.

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <vector>

namespace bs::bench {

struct Timing
{
    double wallS = 0.0;
    double cpuS = 0.0;
};

/// CPU time of the calling thread, user + system.
inline double threadCpuS()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

/// Monotonic wall clock in seconds.
inline double wallNowS()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline Timing timed(const std::function<void()>& body)
{
    const double wall = wallNowS();
    const double cpu = threadCpuS();
    body();
    return {wallNowS() - wall, threadCpuS() - cpu};
}

/// The median wall time and the median CPU time, each over all runs.
inline Timing median(const std::vector<Timing>& runs)
{
    std::vector<double> wall;
    std::vector<double> cpu;
    for (const auto& r : runs) {
        wall.push_back(r.wallS);
        cpu.push_back(r.cpuS);
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

/// Runs `body` `runs` times and returns the medians.
inline Timing medianOf(int runs, const std::function<void()>& body)
{
    std::vector<Timing> times;
    for (int i = 0; i < runs; ++i)
        times.push_back(timed(body));
    return median(times);
}

} // namespace bs::bench
