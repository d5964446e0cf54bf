#pragma once

#include <QDateTime>
#include <QObject>
#include <QString>

class QTimer;

namespace bs::widgets {

class ProjectDocument;

/// Keeps a recovery copy of the open project (memo included) so a crash loses at most a minute:
/// written every `intervalMs` while there are unsaved changes, and at once when a playbook step
/// changes. The copy is written atomically like any save, next to a small JSON note naming the
/// process, the original file and the time. A clean close removes both.
class Autosave : public QObject
{
    Q_OBJECT
public:
    /// A recovery copy left by a process that is no longer running.
    struct Recoverable
    {
        QString recoveryPath;
        QString originalPath; ///< Empty for a project never saved.
        QString title;
        QDateTime savedAt;
    };

    Autosave(ProjectDocument* document, const QString& recoveryDir, int intervalMs = 60000,
             QObject* parent = nullptr);
    ~Autosave() override;

    /// Writes the recovery copy now (also when unmodified if `force`). False on an I/O error,
    /// which is reported through saveFailed.
    bool saveNow(bool force = false);
    /// Removes this process's recovery copy (clean close, or after a normal save).
    void discard();
    QString recoveryPath() const;
    QString notePath() const;

    /// Recovery copies in `dir` whose process has ended (a crash or a kill).
    static QList<Recoverable> findRecoverable(const QString& dir);
    /// Deletes a recovery copy and its note (after it was recovered or declined).
    static void remove(const Recoverable& recoverable);
    /// Default folder: <app local data>/recovery.
    static QString defaultDirectory();

Q_SIGNALS:
    void saved(const QString& path);
    void saveFailed(const QString& message);

private:
    ProjectDocument* m_document;
    QString m_dir;
    QTimer* m_timer;
};

} // namespace bs::widgets
