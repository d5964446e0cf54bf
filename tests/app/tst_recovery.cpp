#include "document/autosave.h"
#include "document/projectdocument.h"
#include "filecontroller.h"
#include "io/projectfile.h"
#include "mainwindow.h"
#include "panels/memoeditor.h"
#include "playbook/memo.h"
#include "state/settings.h"
#include "testsupport.h"

#include <QApplication>
#include <QPlainTextEdit>
#include <QProcess>
#include <QtTest>

#include <iostream>

using namespace bs;

namespace {

const char* kMemoText = "p99 above the 15 ms SLA at batch 128 under the 250 W cap <kept>";

/// The child: a real main window that edits the memo through its editor widget (or saves in a
/// loop), tells the parent it is ready, then waits to be killed.
int runChild(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QString mode = qEnvironmentVariable("BS_RECOVERY_CHILD");
    const QString dir = qEnvironmentVariable("BS_RECOVERY_DIR");
    const QString project = qEnvironmentVariable("BS_RECOVERY_PROJECT");
    widgets::Settings settings(dir + QStringLiteral("/child-settings.ini"));
    gui::MainWindow window(&settings);
    window.openInitial(project);
    if (mode == QLatin1String("edit")) {
        window.enableAutosave(dir, 100);
        auto* field = window.findChild<QPlainTextEdit*>(QStringLiteral("failing_metric"));
        if (!field)
            return 3;
        field->setPlainText(QString::fromUtf8(kMemoText));
        QObject::connect(window.autosave(), &widgets::Autosave::saved, &app,
                         []() { std::cout << "ready" << std::endl; });
    } else {
        QTimer* timer = new QTimer(&app);
        int n = 0;
        QObject::connect(timer, &QTimer::timeout, &app, [&]() {
            window.document()->setTitle(QStringLiteral("version %1").arg(++n));
            window.files()->save();
            if (n == 3)
                std::cout << "ready" << std::endl;
        });
        timer->start(0);
    }
    return QApplication::exec();
}

} // namespace

class TestRecovery : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void killedMidEditRecoversTheMemo();
    void killedMidSaveLeavesAWholeProject();
    void cleanCloseLeavesNothingToRecover();

private:
    bool startChild(QProcess& child, const QString& mode, const QString& dir,
                    const QString& project);
};

bool TestRecovery::startChild(QProcess& child, const QString& mode, const QString& dir,
                              const QString& project)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("BS_RECOVERY_CHILD"), mode);
    env.insert(QStringLiteral("BS_RECOVERY_DIR"), dir);
    env.insert(QStringLiteral("BS_RECOVERY_PROJECT"), project);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {});
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 60000) {
        if (!child.waitForReadyRead(1000) && child.state() != QProcess::Running)
            return false;
        if (child.readAllStandardOutput().contains("ready"))
            return true;
    }
    return false;
}

void TestRecovery::killedMidEditRecoversTheMemo()
{
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("review.bsproj"));
    QVERIFY(
        QFile::copy(test::sourceDir() + QStringLiteral("/resources/demo/demo.bsproj"), project));
    QProcess child;
    QVERIFY2(startChild(child, QStringLiteral("edit"), dir.path(), project),
             child.readAllStandardError().constData());
    child.kill(); // SIGKILL: no chance to clean up
    QVERIFY(child.waitForFinished(10000));

    // The project file itself was never written by the child.
    QVERIFY(io::loadProject(project.toStdString())->memo.empty());
    widgets::Settings settings(dir.filePath(QStringLiteral("settings.ini")));
    gui::MainWindow window(&settings);
    window.enableAutosave(dir.path(), 60000);
    QVERIFY(window.offerRecovery(false));
    QCOMPARE(window.document()->filePath(), project);
    QVERIFY(window.document()->isModified());
    auto memo = playbook::memoFromJson(window.document()->project().memo);
    QVERIFY(memo);
    QCOMPARE(QString::fromStdString(memo->failingMetric.text), QString::fromUtf8(kMemoText));
    QVERIFY(memo->failingMetric.edited);
    QCOMPARE(window.findChild<QPlainTextEdit*>(QStringLiteral("failing_metric"))->toPlainText(),
             QString::fromUtf8(kMemoText));
    // Recovered once: the copy of the dead process is gone.
    QVERIFY(widgets::Autosave::findRecoverable(dir.path()).isEmpty());
}

void TestRecovery::killedMidSaveLeavesAWholeProject()
{
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("review.bsproj"));
    QVERIFY(
        QFile::copy(test::sourceDir() + QStringLiteral("/resources/demo/demo.bsproj"), project));
    QFile::setPermissions(project, QFile::ReadOwner | QFile::WriteOwner);
    for (int attempt = 0; attempt < 3; ++attempt) {
        QProcess child;
        QVERIFY(startChild(child, QStringLiteral("save"), dir.path(), project));
        QTest::qWait(20 + 37 * attempt);
        child.kill();
        QVERIFY(child.waitForFinished(10000));
        auto loaded = io::loadProject(project.toStdString());
        QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
        QVERIFY(QString::fromStdString(loaded->title).startsWith(QStringLiteral("version ")));
        QCOMPARE(loaded->datasets.size(), std::size_t(4));
        QVERIFY(io::loadProject(project.toStdString() + ".bak"));
    }
}

void TestRecovery::cleanCloseLeavesNothingToRecover()
{
    QTemporaryDir dir;
    widgets::Settings settings(dir.filePath(QStringLiteral("settings.ini")));
    {
        gui::MainWindow window(&settings);
        window.openInitial({});
        window.enableAutosave(dir.path(), 60000);
        window.document()->setTitle(QStringLiteral("edited"));
        QVERIFY(window.autosave()->saveNow());
        QVERIFY(QFileInfo::exists(window.autosave()->recoveryPath()));
        window.document()->undoStack();
        window.autosave()->discard();
        QVERIFY(!QFileInfo::exists(window.autosave()->recoveryPath()));
    }
    QVERIFY(widgets::Autosave::findRecoverable(dir.path()).isEmpty());
}

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsSet("BS_RECOVERY_CHILD"))
        return runChild(argc, argv);
    QApplication app(argc, argv);
    TestRecovery test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_recovery.moc"
