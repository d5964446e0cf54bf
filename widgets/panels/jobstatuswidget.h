#pragma once

#include "jobs/jobrunner.h"

#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace bs::widgets {

/// Status-bar strip for long jobs: title and phase, a progress bar, the estimated time left
/// and a Cancel button. Shows the most recently updated running lane; hides when all are idle.
class JobStatusWidget : public QWidget
{
    Q_OBJECT
public:
    explicit JobStatusWidget(JobRunner* runner, QWidget* parent = nullptr);

    QString text() const;

private:
    void onStarted(const QString& lane, const QString& title);
    void onProgress(const JobProgress& progress);
    void onEnded(const QString& lane, bool cancelled);

    JobRunner* m_runner;
    QLabel* m_label;
    QProgressBar* m_bar;
    QToolButton* m_cancel;
    QString m_lane;
};

/// "1 min 5 s", "12 s", "< 1 s" for an estimate of time left.
QString formatDuration(double seconds);

} // namespace bs::widgets
