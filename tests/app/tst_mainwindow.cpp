#include "charts/chartpanel.h"
#include "charts/chartview.h"
#include "document/projectdocument.h"
#include "filecontroller.h"
#include "jobs/jobrunner.h"
#include "mainwindow.h"
#include "panels/messagebar.h"
#include "state/settings.h"
#include "testsupport.h"
#include "views/sweepview.h"

#include <QApplication>
#include <QChart>
#include <QDockWidget>
#include <QMenuBar>
#include <QTabWidget>
#include <QtTest>

using namespace bs;

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void opensTheDemoWithEveryDockAndMenu();
    void opensAProjectFileAndRemembersIt();
    void badProjectShowsAnInlineError();
    void dockLayoutIsRestored();
    void chartsFollowTheSystemPalette();
    void fitsTheScreenInEitherFontMode_data();
    void fitsTheScreenInEitherFontMode();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<widgets::Settings> m_settings;
    int m_settingsFiles = 0; ///< Each test starts from fresh settings (no layout left over).
};

void TestMainWindow::init()
{
    m_settings = std::make_unique<widgets::Settings>(
        m_dir.filePath(QStringLiteral("settings-%1.ini").arg(++m_settingsFiles)));
}

void TestMainWindow::opensTheDemoWithEveryDockAndMenu()
{
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.document()->project().datasets.size(), std::size_t(4));
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("Demo: ResNet-50")));
    QVERIFY(window.jobs()->waitForIdle(60000));

    QStringList docks;
    for (auto* dock : window.findChildren<QDockWidget*>())
        docks << dock->objectName();
    docks.sort();
    QCOMPARE(docks, QStringList({QStringLiteral("datasetsDock"), QStringLiteral("modelDock"),
                                 QStringLiteral("playbookDock")}));

    QStringList menus;
    for (QAction* action : window.menuBar()->actions())
        menus << action->text().remove(QLatin1Char('&'));
    QCOMPARE(menus,
             QStringList({QStringLiteral("File"), QStringLiteral("Edit"), QStringLiteral("View"),
                          QStringLiteral("Model"), QStringLiteral("Help")}));
    QStringList fileItems;
    for (QAction* action : window.menuBar()->actions().front()->menu()->actions()) {
        if (!action->isSeparator())
            fileItems << action->text().remove(QLatin1Char('&'));
    }
    for (const char* expected : {"New", "Open…", "Open Recent", "Save", "Save As…", "Quit"})
        QVERIFY2(fileItems.contains(QString::fromUtf8(expected)), expected);

    // The sweep view draws both demo sweeps (besides model and simulation overlays).
    const auto panels = window.sweepView()->panels();
    QCOMPARE(panels.size(), 4);
    QStringList names;
    for (const auto& series : panels[0]->content().series)
        names << series.data.name;
    QVERIFY2(names.contains(QStringLiteral("Baseline: 400 W")) &&
                 names.contains(QStringLiteral("Candidate: 250 W cap")),
             qPrintable(names.join(QStringLiteral(", "))));
    QVERIFY(!window.messageBar()->isVisible());
}

void TestMainWindow::opensAProjectFileAndRemembersIt()
{
    const QString copy = m_dir.filePath(QStringLiteral("copy.bsproj"));
    QVERIFY(QFile::copy(test::sourceDir() + QStringLiteral("/resources/demo/demo.bsproj"), copy));
    gui::MainWindow window(m_settings.get());
    window.openInitial(copy);
    QCOMPARE(window.document()->filePath(), copy);
    QCOMPARE(m_settings->recentFiles(), QStringList({copy}));
    // Edit, save, reopen: the edit is in the file.
    window.document()->setTitle(QStringLiteral("Edited title"));
    QVERIFY(window.document()->isModified());
    QVERIFY(window.files()->save());
    QVERIFY(!window.document()->isModified());
    gui::MainWindow second(m_settings.get());
    second.openInitial(copy);
    QCOMPARE(second.document()->displayName(), QStringLiteral("Edited title"));
}

void TestMainWindow::badProjectShowsAnInlineError()
{
    const QString bad = m_dir.filePath(QStringLiteral("bad.bsproj"));
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"schema\": 99}");
    file.close();
    gui::MainWindow window(m_settings.get());
    window.show();
    window.openInitial(bad);
    QVERIFY(window.messageBar()->isVisible());
    QVERIFY2(window.messageBar()->text().contains(
                 bad + QStringLiteral(": written by a newer BatchScope")),
             qPrintable(window.messageBar()->text()));
    // The demo is shown instead, so the window is never empty.
    QCOMPARE(window.document()->project().datasets.size(), std::size_t(4));
}

void TestMainWindow::dockLayoutIsRestored()
{
    {
        gui::MainWindow window(m_settings.get());
        window.openInitial({});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* datasets = window.findChild<QDockWidget*>(QStringLiteral("datasetsDock"));
        auto* model = window.findChild<QDockWidget*>(QStringLiteral("modelDock"));
        datasets->hide();
        window.resizeDocks({model}, {420}, Qt::Horizontal);
        QVERIFY(window.close()); // the demo is unmodified: nothing to ask
    }
    gui::MainWindow reopened(m_settings.get());
    reopened.openInitial({});
    reopened.show();
    QVERIFY(QTest::qWaitForWindowExposed(&reopened));
    auto* datasets = reopened.findChild<QDockWidget*>(QStringLiteral("datasetsDock"));
    auto* model = reopened.findChild<QDockWidget*>(QStringLiteral("modelDock"));
    QVERIFY(!datasets->isVisible());
    QVERIFY(model->isVisible());
    QVERIFY2(std::abs(model->width() - 420) <= 8, qPrintable(QString::number(model->width())));
}

void TestMainWindow::chartsFollowTheSystemPalette()
{
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto views = window.findChildren<widgets::ChartView*>();
    QVERIFY(!views.isEmpty());
    const QPalette light = QApplication::palette();
    QPalette dark = light;
    dark.setColor(QPalette::Window, QColor(30, 30, 30));
    dark.setColor(QPalette::Base, QColor(20, 20, 20));
    dark.setColor(QPalette::Text, QColor(230, 230, 230));
    dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
    QApplication::setPalette(dark);
    QCoreApplication::processEvents();
    for (widgets::ChartView* view : views) {
        QCOMPARE(view->chart()->theme(), QChart::ChartThemeDark);
        QCOMPARE(view->chart()->backgroundBrush().color(), QColor(20, 20, 20));
    }
    QApplication::setPalette(light);
    QCoreApplication::processEvents();
    for (widgets::ChartView* view : views)
        QCOMPARE(view->chart()->theme(), QChart::ChartThemeLight);
}

void TestMainWindow::fitsTheScreenInEitherFontMode_data()
{
    QTest::addColumn<bool>("projector");
    QTest::addColumn<QSize>("screen");
    // A laptop at its desk, and a 1080p projector in projector mode (room for a title bar).
    QTest::newRow("desk 1366x768") << false << QSize(1366, 740);
    QTest::newRow("projector 1920x1080") << true << QSize(1920, 1040);
}

void TestMainWindow::fitsTheScreenInEitherFontMode()
{
    QFETCH(bool, projector);
    QFETCH(QSize, screen);
    gui::MainWindow window(m_settings.get());
    window.openInitial({});
    window.setLargeFontMode(projector);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.jobs()->waitForIdle(60000));
    QCoreApplication::processEvents();
    const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
    QString parts;
    for (QWidget* child : window.findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        parts +=
            QStringLiteral("\n  %1 %2: min %3x%4")
                .arg(QString::fromLatin1(child->metaObject()->className()), child->objectName())
                .arg(child->minimumSizeHint().width())
                .arg(child->minimumSizeHint().height());
    for (auto* tabs : window.findChildren<QTabWidget*>()) {
        for (int i = 0; i < tabs->count(); ++i)
            parts += QStringLiteral("\n  tab %1: min %2x%3")
                         .arg(tabs->tabText(i))
                         .arg(tabs->widget(i)->minimumSizeHint().width())
                         .arg(tabs->widget(i)->minimumSizeHint().height());
    }
    window.setLargeFontMode(false);
    QVERIFY2(minimum.width() <= screen.width() && minimum.height() <= screen.height(),
             qPrintable(QStringLiteral("minimum %1x%2 does not fit %3x%4:%5")
                            .arg(minimum.width())
                            .arg(minimum.height())
                            .arg(screen.width())
                            .arg(screen.height())
                            .arg(parts)));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
