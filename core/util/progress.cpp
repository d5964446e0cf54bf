#include "util/progress.h"

namespace bs {

Progress::Progress(Callback callback, std::chrono::milliseconds interval)
    : m_callback(std::move(callback))
    , m_interval(interval)
{}

void Progress::setPhase(std::string phase, std::uint64_t total)
{
    m_current = ProgressUpdate{std::move(phase), 0, total};
    report();
}

void Progress::advanceTo(std::uint64_t done)
{
    m_current.done = done;
    if (!m_callback)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (now - m_lastReport >= m_interval)
        report();
}

void Progress::finish()
{
    if (m_current.total > 0)
        m_current.done = m_current.total;
    report();
}

void Progress::report()
{
    if (!m_callback)
        return;
    m_lastReport = std::chrono::steady_clock::now();
    ++m_reports;
    m_callback(m_current);
}

Progress& Progress::null()
{
    // Each thread gets its own discarding sink, so the "one thread at a time" contract holds.
    thread_local Progress sink;
    return sink;
}

} // namespace bs
