#include "io/backgroundhasher.h"

#include <cstring>

namespace bs::io {

BackgroundHasher::BackgroundHasher()
    : m_thread([this] { run(); })
{}

BackgroundHasher::~BackgroundHasher()
{
    {
        std::lock_guard lock(m_mutex);
        m_done = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void BackgroundHasher::feed(const char* bytes, std::size_t size)
{
    std::unique_lock lock(m_mutex);
    m_wake.wait(lock, [this] { return m_queue.size() < kMaxQueued; });
    std::vector<char> chunk;
    if (!m_spare.empty()) {
        chunk = std::move(m_spare.back());
        m_spare.pop_back();
    }
    chunk.resize(size);
    std::memcpy(chunk.data(), bytes, size);
    m_queue.push_back(std::move(chunk));
    lock.unlock();
    m_wake.notify_all();
}

void BackgroundHasher::run()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_done || !m_queue.empty(); });
        if (m_queue.empty() && m_done)
            return;
        std::vector<char> chunk = std::move(m_queue.front());
        m_queue.pop_front();
        lock.unlock();
        m_wake.notify_all();
        m_hash.update(chunk.data(), chunk.size());
        lock.lock();
        if (m_spare.size() < kMaxQueued)
            m_spare.push_back(std::move(chunk));
    }
}

std::string BackgroundHasher::finish()
{
    {
        std::lock_guard lock(m_mutex);
        m_done = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    return m_hash.hexDigest();
}

} // namespace bs::io
