#pragma once

#include "util/canceltoken.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace bs {

/// A small fixed-size pool of worker threads.
///
/// parallelFor(n, body) calls body(i) exactly once for every i in [0, n). Which thread runs an
/// index is unspecified, so determinism comes from the contract: body(i) may only write results
/// it owns (slot i of an output array) and must derive any randomness from i, never from the
/// thread. Reductions are then done by the caller in index order, which makes every result
/// independent of the thread count. The calling thread helps, so a pool of 1 thread plus the
/// caller never deadlocks, and a parallelFor issued from inside a worker runs inline.
class ThreadPool
{
public:
    enum class Priority
    {
        Normal,
        Background, ///< Workers run at lowered priority (util/threadpriority.h).
    };

    /// threadCount 0 means std::thread::hardware_concurrency().
    explicit ThreadPool(std::size_t threadCount = 0, Priority priority = Priority::Normal);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    /// Number of threads that execute work, the caller included.
    std::size_t concurrency() const { return m_workers.size() + 1; }

    /// Runs body(i) for i in [0, n). Stops handing out new indices once cancel is set. If a body
    /// throws, the exception of the lowest failing index is rethrown after all started work ends.
    void parallelFor(std::size_t n, const std::function<void(std::size_t)>& body,
                     const CancelToken& cancel = CancelToken());

private:
    void workerLoop(Priority priority);

    std::vector<std::thread> m_workers;
    std::deque<std::function<void()>> m_tasks;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
};

} // namespace bs
