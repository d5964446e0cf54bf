#include "util/threadpool.h"

#include "util/threadpriority.h"

#include <atomic>
#include <exception>
#include <memory>

namespace bs {

namespace {
thread_local bool t_insideWorker = false;

/// Shared state of one parallelFor call.
struct ForLoop
{
    std::size_t n = 0;
    const std::function<void(std::size_t)>* body = nullptr;
    CancelToken cancel;
    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    std::condition_variable done;
    std::size_t activeRunners = 0;
    std::size_t failedIndex = SIZE_MAX;
    std::exception_ptr failure;

    void run()
    {
        for (;;) {
            if (cancel.isCancelled())
                return;
            const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
            if (i >= n)
                return;
            try {
                (*body)(i);
            } catch (...) {
                std::lock_guard lock(mutex);
                if (i < failedIndex) {
                    failedIndex = i;
                    failure = std::current_exception();
                }
            }
        }
    }
};
} // namespace

ThreadPool::ThreadPool(std::size_t threadCount, Priority priority)
{
    if (threadCount == 0)
        threadCount = std::max(1u, std::thread::hardware_concurrency());
    // The caller participates in every loop, so start one thread fewer than asked for.
    for (std::size_t i = 1; i < threadCount; ++i)
        m_workers.emplace_back([this, priority] { workerLoop(priority); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (auto& worker : m_workers)
        worker.join();
}

void ThreadPool::workerLoop(Priority priority)
{
    t_insideWorker = true;
    if (priority == Priority::Background)
        lowerThisThreadPriority();
    for (;;) {
        std::function<void()> task;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || !m_tasks.empty(); });
            if (m_stopping && m_tasks.empty())
                return;
            task = std::move(m_tasks.front());
            m_tasks.pop_front();
        }
        task();
    }
}

void ThreadPool::parallelFor(std::size_t n, const std::function<void(std::size_t)>& body,
                             const CancelToken& cancel)
{
    if (n == 0)
        return;
    auto loop = std::make_shared<ForLoop>();
    loop->n = n;
    loop->body = &body;
    loop->cancel = cancel;

    const bool nested = t_insideWorker;
    const std::size_t helpers = nested ? 0 : std::min(m_workers.size(), n - 1);
    if (helpers > 0) {
        {
            std::lock_guard lock(m_mutex);
            loop->activeRunners = helpers;
            for (std::size_t h = 0; h < helpers; ++h) {
                m_tasks.emplace_back([loop] {
                    loop->run();
                    std::lock_guard runnerLock(loop->mutex);
                    if (--loop->activeRunners == 0)
                        loop->done.notify_all();
                });
            }
        }
        m_wake.notify_all();
    }

    loop->run();
    {
        std::unique_lock lock(loop->mutex);
        loop->done.wait(lock, [&] { return loop->activeRunners == 0; });
    }
    if (loop->failure)
        std::rethrow_exception(loop->failure);
}

} // namespace bs
