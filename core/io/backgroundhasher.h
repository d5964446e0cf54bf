#pragma once

#include "io/fastsha256.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace bs::io {

/// Computes the SHA-256 of a file's stored bytes on a helper thread while a reader parses them,
/// so provenance hashing does not slow the parse down (FastSha256: hardware SHA where the CPU
/// has it; the portable one runs at ~100 MB/s, slower than the readers). feed() copies each chunk
/// into a bounded queue; the reader thread only waits when the hasher falls more than a few chunks
/// behind. Thread contract: feed() and finish() are called from one thread (the reader's).
class BackgroundHasher
{
public:
    BackgroundHasher();
    ~BackgroundHasher();
    BackgroundHasher(const BackgroundHasher&) = delete;
    BackgroundHasher& operator=(const BackgroundHasher&) = delete;

    void feed(const char* bytes, std::size_t size);
    /// Waits for the queued bytes and returns the hex digest. Call once.
    std::string finish();

private:
    void run();

    static constexpr std::size_t kMaxQueued = 16;
    FastSha256 m_hash;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::vector<char>> m_queue;
    std::vector<std::vector<char>> m_spare; ///< Reused chunk buffers.
    bool m_done = false;
    std::thread m_thread;
};

} // namespace bs::io
