#include "panels/jobstatuswidget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

#include <cmath>

namespace bs::widgets {

QString formatDuration(double seconds)
{
    if (seconds < 1.0)
        return QObject::tr("< 1 s");
    const auto total = qint64(std::llround(seconds));
    if (total < 60)
        return QObject::tr("%1 s").arg(total);
    if (total < 3600)
        return QObject::tr("%1 min %2 s").arg(total / 60).arg(total % 60);
    return QObject::tr("%1 h %2 min").arg(total / 3600).arg((total % 3600) / 60);
}

JobStatusWidget::JobStatusWidget(JobRunner* runner, QWidget* parent)
    : QWidget(parent)
    , m_runner(runner)
    , m_label(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QToolButton(this))
{
    m_bar->setMaximumWidth(180);
    m_bar->setTextVisible(false);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setAutoRaise(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    // Shown and hidden around every job, so on each slider step: the status bar keeps its
    // height either way, or the window's central area would resize by a few pixels and every
    // chart lay itself out and repaint whole (one of the slider's longest event-loop stalls).
    QSizePolicy policy = sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    setSizePolicy(policy);
    hide();
    connect(runner, &JobRunner::jobStarted, this, &JobStatusWidget::onStarted);
    connect(runner, &JobRunner::jobProgress, this, &JobStatusWidget::onProgress);
    connect(runner, &JobRunner::jobEnded, this, &JobStatusWidget::onEnded);
    connect(m_cancel, &QToolButton::clicked, this, [this]() { m_runner->cancel(m_lane); });
}

QString JobStatusWidget::text() const
{
    return m_label->text();
}

void JobStatusWidget::onStarted(const QString& lane, const QString& title)
{
    m_lane = lane;
    m_label->setText(title);
    m_bar->setRange(0, 0); // busy until the first progress report
    show();
}

void JobStatusWidget::onProgress(const JobProgress& progress)
{
    m_lane = progress.lane;
    QString text = progress.title;
    if (!progress.phase.isEmpty())
        text += QStringLiteral(" — ") + progress.phase;
    if (progress.etaSeconds >= 0)
        text += tr(" (about %1 left)").arg(formatDuration(progress.etaSeconds));
    m_label->setText(text);
    if (progress.total > 0) {
        // Scale to 0..1000 so byte counts beyond int range still display.
        m_bar->setRange(0, 1000);
        m_bar->setValue(
            int(1000.0 * double(std::min(progress.done, progress.total)) / double(progress.total)));
    } else {
        m_bar->setRange(0, 0);
    }
    show();
}

void JobStatusWidget::onEnded(const QString& lane, bool cancelled)
{
    Q_UNUSED(cancelled)
    if (lane == m_lane && !m_runner->isAnyRunning())
        hide();
}

} // namespace bs::widgets
