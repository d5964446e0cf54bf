#include "jobs/jobrunner.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>

namespace bs::widgets {

JobRunner::JobRunner(QObject* parent)
    : QObject(parent)
{
    // As many jobs at once as the global pool allowed before (one per core); lanes beyond that
    // queue, as they did there.
    m_pool.setMaxThreadCount(QThread::idealThreadCount());
}

JobRunner::~JobRunner()
{
    cancelAll();
    // Running workers hold a QPointer to us and stop reporting once we are gone; their results
    // land in shared state nobody reads. Wait briefly so they do not outlive the application.
    m_pool.waitForDone(5000);
}

quint64 JobRunner::beginJob(const QString& lane, const QString& title)
{
    Lane& state = m_lanes[lane];
    if (state.running)
        state.cancel.cancel();
    state.cancel = CancelToken();
    state.currentId = m_nextId++;
    state.running = true;
    state.title = title;
    state.phase.clear();
    state.phaseClock.start();
    Q_EMIT jobStarted(lane, title);
    return state.currentId;
}

bool JobRunner::finishJob(const QString& lane, quint64 id)
{
    Lane& state = m_lanes[lane];
    if (id != state.currentId)
        return false; // superseded: a newer job of this lane owns the status now
    state.running = false;
    const bool cancelled = state.cancel.isCancelled();
    Q_EMIT jobEnded(lane, cancelled);
    return !cancelled;
}

void JobRunner::reportProgress(const QString& lane, quint64 id, const ProgressUpdate& update)
{
    Lane& state = m_lanes[lane];
    if (id != state.currentId || !state.running)
        return;
    const QString phase = QString::fromStdString(update.phase);
    if (phase != state.phase) {
        state.phase = phase;
        state.phaseClock.restart();
    }
    JobProgress progress{lane, state.title, phase, update.done, update.total, -1.0};
    const double elapsed = double(state.phaseClock.elapsed()) / 1000.0;
    if (update.total > 0 && update.done > 0 && elapsed > 0.5) {
        const double rate = double(update.done) / elapsed;
        progress.etaSeconds = double(update.total - std::min(update.done, update.total)) / rate;
    }
    Q_EMIT jobProgress(progress);
}

void JobRunner::cancel(const QString& lane)
{
    auto it = m_lanes.find(lane);
    if (it != m_lanes.end() && it->running)
        it->cancel.cancel();
}

void JobRunner::cancelAll()
{
    for (auto& lane : m_lanes) {
        if (lane.running)
            lane.cancel.cancel();
    }
}

bool JobRunner::isRunning(const QString& lane) const
{
    const auto it = m_lanes.constFind(lane);
    return it != m_lanes.constEnd() && it->running;
}

bool JobRunner::isAnyRunning() const
{
    for (const auto& lane : m_lanes) {
        if (lane.running)
            return true;
    }
    return false;
}

bool JobRunner::waitForIdle(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (isAnyRunning() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(1);
    }
    return !isAnyRunning();
}

} // namespace bs::widgets
