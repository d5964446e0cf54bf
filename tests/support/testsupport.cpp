#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QtTest>

namespace bs::test {

QString sourceDir()
{
    const QByteArray env = qgetenv("BATCHSCOPE_SOURCE_DIR");
    return env.isEmpty() ? QStringLiteral(BATCHSCOPE_SOURCE_DIR_DEFAULT)
                         : QString::fromLocal8Bit(env);
}

QString testDataPath(const QString& relative)
{
    return sourceDir() + QStringLiteral("/tests/data/") + relative;
}

QString sharedDataDir()
{
    const QByteArray env = qgetenv("BATCHSCOPE_SHARED_DATA");
    const QString dir = env.isEmpty() ? QStringLiteral(BATCHSCOPE_SHARED_DATA_DEFAULT)
                                      : QString::fromLocal8Bit(env);
    if (!QDir(dir).exists())
        return {};
    return QDir(dir).canonicalPath();
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

bool matchesGolden(const QByteArray& actual, const QString& relative)
{
    const QString golden = testDataPath(relative);
    const QByteArray expected = readFile(golden);
    if (expected == actual)
        return true;
    const QString actualPath = golden + QStringLiteral(".actual");
    QFile out(actualPath);
    if (out.open(QIODevice::WriteOnly))
        out.write(actual);
    out.close();
    QProcess diff;
    diff.start(QStringLiteral("diff"), {QStringLiteral("-u"), golden, actualPath});
    diff.waitForFinished(10000);
    qWarning().noquote() << "Golden mismatch for" << relative << "\n"
                         << QString::fromUtf8(diff.readAllStandardOutput());
    return false;
}

} // namespace bs::test
