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

#include <QAbstractItemView>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
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
    void controlCharactersInNamesAreShownVisibly();

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
    // The window answers at once: opening and visiting every page stays on the UI thread.
    QVERIFY2(timer.elapsed() < 10000, QByteArray::number(timer.elapsed()).constData());
    // The background jobs end. A refused project shows the demo, whose feasible region is a
    // few seconds of work when its page comes up before the loop moves on (how far the loop
    // gets before the region page's deferred start fires depends on the machine's load), so
    // they get the bound of real work, not of a blink.
    QVERIFY(window.jobs()->waitForIdle(60000));
}

namespace {

/// A C0 or C1 control, DEL or a bidirectional override: what displayText makes visible.
bool hidesOrDisguises(QChar c)
{
    const char16_t u = c.unicode();
    return u < 0x20 || u == 0x7F || (u >= 0x80 && u <= 0x9F) || (u >= 0x202A && u <= 0x202E) ||
           (u >= 0x2066 && u <= 0x2069);
}

/// Where `text` (one line: a name or title) holds such a character, "WHERE: text".
void collectHidden(const QString& where, const QString& text, QStringList& found)
{
    if (std::any_of(text.begin(), text.end(), hidesOrDisguises))
        found << where + QStringLiteral(": ") +
                     QString::fromLatin1(text.toUtf8().toPercentEncoding(" :/()-"));
}

} // namespace

void TestHostileGui::controlCharactersInNamesAreShownVisibly()
{
    // The demo with an OSC 52 clipboard write in its title, a CSI in a dataset name and a
    // right-to-left override in a scenario name, as a hostile sender would mail it.
    QFile demo(test::sourceDir() + QStringLiteral("/resources/demo/demo.bsproj"));
    QVERIFY(demo.open(QIODevice::ReadOnly));
    QJsonObject project = QJsonDocument::fromJson(demo.readAll()).object();
    project[QStringLiteral("title")] = QStringLiteral("T\x1b]52;c;ZWNobyBoaQ==\x07 review");
    QJsonArray datasets = project[QStringLiteral("datasets")].toArray();
    QJsonObject first = datasets[0].toObject();
    first[QStringLiteral("name")] = QStringLiteral("Baseline\x1b[2J\n400 W");
    datasets[0] = first;
    project[QStringLiteral("datasets")] = datasets;
    QJsonArray scenarios = project[QStringLiteral("scenarios")].toArray();
    QJsonObject scenario = scenarios[0].toObject();
    scenario[QStringLiteral("name")] = QStringLiteral("A100 \u202Efdp.exe");
    scenarios[0] = scenario;
    project[QStringLiteral("scenarios")] = scenarios;
    const QString path = m_dir.filePath(QStringLiteral("control-names.bsproj"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(project).toJson());
    out.close();

    widgets::Settings settings(m_dir.filePath(QStringLiteral("control-names.ini")));
    gui::MainWindow window(&settings);
    window.show();
    window.openInitial(path);
    QVERIFY(window.jobs()->waitForIdle(60000));
    QCOMPARE(window.document()->project().datasets.size(), std::size_t(4));

    QStringList found;
    collectHidden(QStringLiteral("window title"), window.windowTitle(), found);
    for (auto* tabs : window.findChildren<QTabWidget*>()) {
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QCoreApplication::processEvents();
        }
    }
    QVERIFY(window.jobs()->waitForIdle(60000));
    for (auto* label : window.findChildren<QLabel*>())
        collectHidden(QStringLiteral("label ") + label->objectName(),
                      QString(label->text()).remove(QLatin1Char('\n')), found);
    for (auto* combo : window.findChildren<QComboBox*>())
        for (int i = 0; i < combo->count(); ++i)
            collectHidden(QStringLiteral("combo ") + combo->objectName(), combo->itemText(i),
                          found);
    for (auto* view : window.findChildren<QAbstractItemView*>()) {
        const QAbstractItemModel* model = view->model();
        if (!model)
            continue;
        for (int row = 0; row < model->rowCount(); ++row)
            for (int column = 0; column < model->columnCount(); ++column)
                collectHidden(QStringLiteral("view ") + view->objectName(),
                              model->data(model->index(row, column)).toString(), found);
    }
    QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    QVERIFY2(window.windowTitle().contains(QStringLiteral("T\\u001B]52;c;")),
             qPrintable(window.windowTitle()));
}

QTEST_MAIN(TestHostileGui)
#include "tst_hostile_gui.moc"
