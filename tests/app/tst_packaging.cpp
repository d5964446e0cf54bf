#include "testsupport.h"

#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

namespace {

struct Run
{
    int exitCode = -1;
    QString output;
};

Run run(const QString& program, const QStringList& args,
        const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, args);
    if (!process.waitForFinished(300000))
        return {-1, QStringLiteral("timed out")};
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAll())};
}

} // namespace

/// Installs the build into a temporary DESTDIR and checks what a Linux desktop expects.
class TestPackaging : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void installContainsEveryFile_data();
    void installContainsEveryFile();
    void desktopFileValidates();
    void metainfoValidates();
    void installedCliRuns();
    void manPageAndCompletionListEveryCommand();

private:
    QString installed(const QString& relative) const
    {
        return m_root + QStringLiteral("/usr/") + relative;
    }
    QTemporaryDir m_dir;
    QString m_root;
};

void TestPackaging::initTestCase()
{
    m_root = m_dir.filePath(QStringLiteral("root"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DESTDIR"), m_root);
    const QString binary = QString::fromLocal8Bit(qgetenv("BATCHSCOPE_BINARY_DIR"));
    QVERIFY2(!binary.isEmpty(), "BATCHSCOPE_BINARY_DIR is not set");
    const Run install = run(
        QStringLiteral("cmake"),
        {QStringLiteral("--install"), binary, QStringLiteral("--prefix"), QStringLiteral("/usr")},
        env);
    QVERIFY2(install.exitCode == 0, qPrintable(install.output));
}

void TestPackaging::installContainsEveryFile_data()
{
    QTest::addColumn<QString>("path");
    for (const char* path :
         {"bin/batchscope", "bin/batchscope-cli", "share/applications/batchscope.desktop",
          "share/metainfo/io.batchscope.BatchScope.metainfo.xml",
          "share/mime/packages/batchscope.xml", "share/icons/hicolor/scalable/apps/batchscope.svg",
          "share/icons/hicolor/16x16/apps/batchscope.png",
          "share/icons/hicolor/48x48/apps/batchscope.png",
          "share/icons/hicolor/256x256/apps/batchscope.png",
          "share/icons/hicolor/512x512/apps/batchscope.png", "share/man/man1/batchscope.1",
          "share/man/man1/batchscope-cli.1", "share/bash-completion/completions/batchscope-cli",
          "share/batchscope/demo/demo.bsproj", "share/doc/batchscope/copyright",
          "share/doc/batchscope/changelog.Debian.gz"})
        QTest::newRow(path) << QString::fromLatin1(path);
}

void TestPackaging::installContainsEveryFile()
{
    QFETCH(QString, path);
    QVERIFY2(QFileInfo::exists(installed(path)), qPrintable(installed(path)));
}

void TestPackaging::desktopFileValidates()
{
    if (QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate")).isEmpty())
        QSKIP("desktop-file-validate is not installed (scripts/bootstrap installs "
              "desktop-file-utils)");
    const Run check = run(QStringLiteral("desktop-file-validate"),
                          {installed(QStringLiteral("share/applications/batchscope.desktop"))});
    QVERIFY2(check.exitCode == 0 && check.output.trimmed().isEmpty(), qPrintable(check.output));
}

void TestPackaging::metainfoValidates()
{
    if (QStandardPaths::findExecutable(QStringLiteral("appstreamcli")).isEmpty())
        QSKIP("appstreamcli is not installed (scripts/bootstrap installs appstream)");
    const Run check =
        run(QStringLiteral("appstreamcli"),
            {QStringLiteral("validate"), QStringLiteral("--no-net"), QStringLiteral("--pedantic"),
             installed(QStringLiteral("share/metainfo/io.batchscope.BatchScope.metainfo.xml"))});
    QVERIFY2(check.exitCode == 0, qPrintable(check.output));
}

void TestPackaging::installedCliRuns()
{
    const Run version =
        run(installed(QStringLiteral("bin/batchscope-cli")), {QStringLiteral("--version")});
    QCOMPARE(version.exitCode, 0);
    QVERIFY(version.output.startsWith(QStringLiteral("batchscope-cli ")));
    const Run gui = run(installed(QStringLiteral("bin/batchscope")), {QStringLiteral("--version")});
    QCOMPARE(gui.exitCode, 0);
    QVERIFY2(gui.output.contains(QStringLiteral("BatchScope")), qPrintable(gui.output));
    const Run info = run(installed(QStringLiteral("bin/batchscope-cli")),
                         {QStringLiteral("project"), QStringLiteral("info"),
                          installed(QStringLiteral("share/batchscope/demo/demo.bsproj"))});
    QVERIFY2(info.exitCode == 0, qPrintable(info.output));
    // The installed CLI writes the review report of the installed demo (presets found next to
    // it, the PDF through Qt's offscreen platform).
    for (const QString& format : {QStringLiteral("md"), QStringLiteral("pdf")}) {
        const QString out = m_root + QStringLiteral("/demo-report.") + format;
        const Run report = run(installed(QStringLiteral("bin/batchscope-cli")),
                               {QStringLiteral("report"),
                                installed(QStringLiteral("share/batchscope/demo/demo.bsproj")),
                                QStringLiteral("--format"), format, QStringLiteral("-o"), out});
        QVERIFY2(report.exitCode == 0, qPrintable(report.output));
        QVERIFY(QFileInfo(out).size() > 1000);
    }
}

void TestPackaging::manPageAndCompletionListEveryCommand()
{
    const Run help =
        run(installed(QStringLiteral("bin/batchscope-cli")), {QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    const QString man = QString::fromUtf8(
        bs::test::readFile(installed(QStringLiteral("share/man/man1/batchscope-cli.1"))));
    const QString completion = QString::fromUtf8(bs::test::readFile(
        installed(QStringLiteral("share/bash-completion/completions/batchscope-cli"))));
    const QStringList lines = help.output.split(QLatin1Char('\n'));
    int commands = 0;
    bool inCommands = false;
    for (const QString& line : lines) {
        if (line.startsWith(QStringLiteral("Commands:"))) {
            inCommands = true;
            continue;
        }
        if (!inCommands || !line.startsWith(QStringLiteral("  ")))
            continue;
        const QString name = line.trimmed().section(QLatin1Char(' '), 0, 0);
        QVERIFY2(man.contains(QStringLiteral(".SS \"") + name), qPrintable(name));
        QVERIFY2(completion.contains(QStringLiteral("        ") + name + QStringLiteral(")")),
                 qPrintable(name));
        ++commands;
    }
    QVERIFY(commands >= 1);
    if (!QStandardPaths::findExecutable(QStringLiteral("man")).isEmpty()) {
        const Run render = run(QStringLiteral("man"),
                               {QStringLiteral("--warnings"), QStringLiteral("-l"),
                                installed(QStringLiteral("share/man/man1/batchscope-cli.1"))});
        QVERIFY2(render.exitCode == 0, qPrintable(render.output));
    }
}

QTEST_GUILESS_MAIN(TestPackaging)
#include "tst_packaging.moc"
