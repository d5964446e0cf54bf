#pragma once

#include "util/canceltoken.h"
#include "util/progress.h"
#include "util/threadpriority.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent>

#include <functional>
#include <memory>
#include <optional>

namespace bs::widgets {

/// Progress of the running job of a lane, as shown in the status bar.
struct JobProgress
{
    QString lane;
    QString title;
    QString phase;
    quint64 done = 0;
    quint64 total = 0;
    double etaSeconds = -1.0; ///< -1 when not known yet.
};

/// Runs heavy work off the GUI thread (QtConcurrent + QFutureWatcher).
///
/// Jobs run on the runner's own thread pool, never on QThreadPool::globalInstance(): Qt's
/// raster paint engine splits large fills and line drawing into chunks on the global pool and
/// blocks the GUI thread until they ran, so a simulation holding those threads would freeze
/// every repaint until it ended. Jobs also run at background priority, so that painting gets a
/// core first while a slider drag keeps every core simulating.
///
/// Jobs run in lanes ("simulation", "import", "region", ...). Within a lane the newest job
/// wins: starting a job cancels the previous one through its CancelToken and drops its result
/// by id, so a slider drag never shows a stale answer. Workers never touch widgets: `work` runs
/// on a pool thread with a Progress (throttled to ~10 updates/s) and a CancelToken; `onDone`
/// runs on the GUI thread, only for the lane's current job and only if not cancelled.
class JobRunner : public QObject
{
    Q_OBJECT
public:
    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override;

    struct Context
    {
        Progress& progress;
        CancelToken cancel;
    };

    template <typename Result>
    quint64 run(const QString& lane, const QString& title, std::function<Result(Context&)> work,
                std::function<void(Result)> onDone)
    {
        const quint64 id = beginJob(lane, title);
        auto token = m_lanes[lane].cancel;
        auto result = std::make_shared<std::optional<Result>>();
        QPointer<JobRunner> self(this);
        auto* watcher = new QFutureWatcher<void>(this);
        connect(watcher, &QFutureWatcher<void>::finished, this,
                [this, watcher, lane, id, result, onDone = std::move(onDone)]() {
                    watcher->deleteLater();
                    if (finishJob(lane, id) && result->has_value())
                        onDone(std::move(**result));
                });
        watcher->setFuture(
            QtConcurrent::run(&m_pool, [self, lane, id, token, result, work = std::move(work)]() {
                lowerThisThreadPriority();
                Progress progress([self, lane, id](const ProgressUpdate& update) {
                    if (self)
                        QMetaObject::invokeMethod(
                            self.data(),
                            [self, lane, id, update]() {
                                if (self)
                                    self->reportProgress(lane, id, update);
                            },
                            Qt::QueuedConnection);
                });
                Context context{progress, token};
                *result = work(context);
            }));
        return id;
    }

    /// Cancels the running job of a lane (its result will be dropped).
    void cancel(const QString& lane);
    void cancelAll();
    bool isRunning(const QString& lane) const;
    bool isAnyRunning() const;
    /// Waits (processing events) until no job runs or the timeout passes; for tests and quit.
    bool waitForIdle(int timeoutMs);

Q_SIGNALS:
    void jobStarted(const QString& lane, const QString& title);
    void jobProgress(const bs::widgets::JobProgress& progress);
    /// The lane's current job ended (finished, failed inside its result, or cancelled).
    void jobEnded(const QString& lane, bool cancelled);

private:
    struct Lane
    {
        quint64 currentId = 0;
        bool running = false;
        QString title;
        CancelToken cancel;
        QElapsedTimer phaseClock;
        QString phase;
    };

    quint64 beginJob(const QString& lane, const QString& title);
    bool finishJob(const QString& lane, quint64 id);
    void reportProgress(const QString& lane, quint64 id, const ProgressUpdate& update);

    QHash<QString, Lane> m_lanes;
    quint64 m_nextId = 1;
    QThreadPool m_pool;
};

} // namespace bs::widgets
