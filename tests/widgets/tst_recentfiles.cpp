#include "state/recentfiles.h"
#include "state/settings.h"

#include <QtTest>

using namespace bs::widgets;

class TestRecentFiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void mostRecentFirstWithoutDuplicates();
    void cappedAtCapacity();
    void pathsAreAbsoluteAndClean();
    void missingFilesAreDropped();
    void settingsKeepTheListAndVersionTheLayout();

private:
    QString touch(const QString& name)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        file.open(QIODevice::WriteOnly);
        return QFileInfo(path).absoluteFilePath();
    }
    QTemporaryDir m_dir;
};

void TestRecentFiles::mostRecentFirstWithoutDuplicates()
{
    const QString a = touch(QStringLiteral("a.bsproj"));
    const QString b = touch(QStringLiteral("b.bsproj"));
    RecentFiles recent;
    recent.add(a);
    recent.add(b);
    recent.add(a);
    QCOMPARE(recent.existing(), QStringList({a, b}));
}

void TestRecentFiles::cappedAtCapacity()
{
    RecentFiles recent({}, 10);
    QStringList added;
    for (int i = 0; i < 14; ++i) {
        added.prepend(touch(QStringLiteral("p%1.bsproj").arg(i)));
        recent.add(added.front());
    }
    QCOMPARE(recent.existing().size(), 10);
    QCOMPARE(recent.existing(), added.mid(0, 10));
}

void TestRecentFiles::pathsAreAbsoluteAndClean()
{
    const QString a = touch(QStringLiteral("c.bsproj"));
    RecentFiles recent;
    recent.add(m_dir.path() + QStringLiteral("/./sub/../c.bsproj"));
    recent.add(a);
    QCOMPARE(recent.existing(), QStringList({a}));
}

void TestRecentFiles::missingFilesAreDropped()
{
    const QString a = touch(QStringLiteral("d.bsproj"));
    const QString gone = touch(QStringLiteral("gone.bsproj"));
    RecentFiles recent({gone, a});
    QFile::remove(gone);
    QCOMPARE(recent.existing(), QStringList({a}));
    QCOMPARE(recent.paths(), QStringList({a}));
}

void TestRecentFiles::settingsKeepTheListAndVersionTheLayout()
{
    const QString ini = m_dir.filePath(QStringLiteral("settings.ini"));
    {
        Settings settings(ini);
        settings.setRecentFiles({QStringLiteral("/x/y.bsproj")});
        settings.setWindowState(QByteArray("layout"));
    }
    {
        Settings settings(ini);
        QCOMPARE(settings.recentFiles(), QStringList({QStringLiteral("/x/y.bsproj")}));
        QCOMPARE(settings.windowState(), QByteArray("layout"));
        // A layout saved by a build with another dock set is not restored.
        settings.raw().setValue(QStringLiteral("window/stateVersion"),
                                Settings::kWindowStateVersion + 1);
        QVERIFY(settings.windowState().isEmpty());
    }
}

QTEST_GUILESS_MAIN(TestRecentFiles)
#include "tst_recentfiles.moc"
