// The hostile-project corpus (tests/data/hostile, issue 22) opened in the main window,
// offscreen: every project either opens or shows an inline error, every page can be shown and
// every computation ends within 10 s; nothing aborts (region.robust "yes" or objective 5 threw
// from the Region view while the project opened).
#include "document/projectdocument.h"
#include "jobs/jobrunner.h"
#include "mainwindow.h"
#include "panels/messagebar.h"
#include "state/settings.h"
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace bs;

class TestHostileGui : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyCorpusProjectOpensOrSaysWhy_data();
    void everyCorpusProjectOpensOrSaysWhy();

private:
    QTemporaryDir m_dir;
};

void TestHostileGui::everyCorpusProjectOpensOrSaysWhy_data()
{
    QTest::addColumn<QString>("path");
    const QDir folder(test::testDataPath(QStringLiteral("hostile")));
    for (const QString& name : folder.entryList({QStringLiteral("*.bsproj")}))
        QTest::newRow(name.toUtf8().constData()) << folder.filePath(name);
}

void TestHostileGui::everyCorpusProjectOpensOrSaysWhy()
{
    QFETCH(QString, path);
    widgets::Settings settings(m_dir.filePath(QFileInfo(path).fileName() + QStringLiteral(".ini")));
    QElapsedTimer timer;
    timer.start();
    gui::MainWindow window(&settings);
    window.show();
    window.openInitial(path);
    // Opened (the corpus projects have no datasets) or refused with the reason inline (and the
    // demo, with its four datasets, shown instead).
    const bool opened = window.document()->project().datasets.empty();
    if (!opened) {
        QVERIFY(window.messageBar()->isVisible());
        QVERIFY2(window.messageBar()->text().contains(path),
                 qPrintable(window.messageBar()->text()));
    }
    // Every page once, so each view reads the project's sections.
    for (auto* tabs : window.findChildren<QTabWidget*>()) {
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QCoreApplication::processEvents();
        }
    }
    QVERIFY(window.jobs()->waitForIdle(10000));
    QVERIFY2(timer.elapsed() < 10000, QByteArray::number(timer.elapsed()).constData());
}

QTEST_MAIN(TestHostileGui)
#include "tst_hostile_gui.moc"
