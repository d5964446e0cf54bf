#include "document/autosave.h"

#include "document/projectdocument.h"
#include "io/atomicfile.h"
#include "io/projectfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTimer>

#include <cerrno>
#include <csignal>

namespace bs::widgets {

namespace {

bool processIsRunning(qint64 pid)
{
    if (pid <= 0)
        return false;
    // Signal 0 checks existence only. EPERM means it exists but belongs to someone else.
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

} // namespace

Autosave::Autosave(ProjectDocument* document, const QString& recoveryDir, int intervalMs,
                   QObject* parent)
    : QObject(parent)
    , m_document(document)
    , m_dir(recoveryDir)
    , m_timer(new QTimer(this))
{
    QDir().mkpath(m_dir);
    m_timer->setInterval(intervalMs);
    connect(m_timer, &QTimer::timeout, this, [this]() { saveNow(); });
    m_timer->start();
    // A step of the playbook is a milestone: keep it at once.
    connect(m_document, &ProjectDocument::sectionChanged, this, [this](ProjectSection section) {
        if (section == ProjectSection::Playbook)
            saveNow();
    });
    // After a normal save the file on disk is the truth; the copy would only confuse a restart.
    connect(m_document, &ProjectDocument::modifiedChanged, this, [this](bool modified) {
        if (!modified)
            discard();
    });
}

Autosave::~Autosave() = default;

QString Autosave::recoveryPath() const
{
    return m_dir + QStringLiteral("/session-%1.bsproj").arg(QCoreApplication::applicationPid());
}

QString Autosave::notePath() const
{
    return m_dir + QStringLiteral("/session-%1.json").arg(QCoreApplication::applicationPid());
}

bool Autosave::saveNow(bool force)
{
    if (!force && !m_document->isModified())
        return true;
    io::ProjectSaveOptions options;
    options.keepBackup = false;
    auto status = io::saveProject(m_document->project(), recoveryPath().toStdString(), options);
    if (!status) {
        Q_EMIT saveFailed(QString::fromStdString(status.error().toString()));
        return false;
    }
    QJsonObject note;
    note[QStringLiteral("pid")] = QCoreApplication::applicationPid();
    note[QStringLiteral("original_path")] = m_document->filePath();
    note[QStringLiteral("title")] = m_document->displayName();
    note[QStringLiteral("saved_at")] = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    auto noted = io::writeFileAtomically(notePath().toStdString(),
                                         QJsonDocument(note).toJson().toStdString(), {false});
    if (!noted) {
        Q_EMIT saveFailed(QString::fromStdString(noted.error().toString()));
        return false;
    }
    Q_EMIT saved(recoveryPath());
    return true;
}

void Autosave::discard()
{
    QFile::remove(recoveryPath());
    QFile::remove(notePath());
}

QList<Autosave::Recoverable> Autosave::findRecoverable(const QString& dir)
{
    QList<Recoverable> out;
    const auto notes =
        QDir(dir).entryInfoList({QStringLiteral("session-*.json")}, QDir::Files, QDir::Time);
    for (const QFileInfo& info : notes) {
        QFile file(info.absoluteFilePath());
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject note = QJsonDocument::fromJson(file.readAll()).object();
        const qint64 pid = note.value(QStringLiteral("pid")).toInteger();
        if (pid == QCoreApplication::applicationPid() || processIsRunning(pid))
            continue;
        Recoverable r;
        r.recoveryPath = info.absolutePath() + QLatin1Char('/') + info.completeBaseName() +
                         QStringLiteral(".bsproj");
        if (!QFileInfo::exists(r.recoveryPath))
            continue;
        r.originalPath = note.value(QStringLiteral("original_path")).toString();
        r.title = note.value(QStringLiteral("title")).toString();
        r.savedAt = QDateTime::fromString(note.value(QStringLiteral("saved_at")).toString(),
                                          Qt::ISODateWithMs);
        out.append(r);
    }
    return out;
}

void Autosave::remove(const Recoverable& recoverable)
{
    QFile::remove(recoverable.recoveryPath);
    QString note = recoverable.recoveryPath;
    note.replace(note.size() - 7, 7, QStringLiteral(".json"));
    QFile::remove(note);
}

QString Autosave::defaultDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
           QStringLiteral("/recovery");
}

} // namespace bs::widgets
