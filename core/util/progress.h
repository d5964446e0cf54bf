#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace bs {

/// One progress report: the phase in words, and how far it is (bytes or steps).
struct ProgressUpdate
{
    std::string phase;
    std::uint64_t done = 0;
    std::uint64_t total = 0; ///< 0 when the total is unknown.
};

/// Progress sink for long jobs. Workers call setPhase()/advance() as often as they like; the
/// callback fires at most every `interval` (default 100 ms, so about 10 updates a second) plus
/// once at every phase change and at finish(). Thread contract: a Progress is used by one
/// worker thread at a time; the callback runs on that thread.
class Progress
{
public:
    using Callback = std::function<void(const ProgressUpdate&)>;

    Progress() = default;
    explicit Progress(Callback callback,
                      std::chrono::milliseconds interval = std::chrono::milliseconds(100));

    void setPhase(std::string phase, std::uint64_t total);
    void advanceTo(std::uint64_t done);
    void finish();

    const ProgressUpdate& current() const { return m_current; }
    /// How many times the callback was called (tests use this to check throttling).
    std::uint64_t reportCount() const { return m_reports; }

    /// A sink that discards everything, for callers that do not show progress.
    static Progress& null();

private:
    void report();

    Callback m_callback;
    std::chrono::milliseconds m_interval{100};
    std::chrono::steady_clock::time_point m_lastReport{};
    ProgressUpdate m_current;
    std::uint64_t m_reports = 0;
};

} // namespace bs
