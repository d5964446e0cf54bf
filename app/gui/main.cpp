#include "mainwindow.h"
#include "util/version.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("BatchScope"));
    QApplication::setOrganizationDomain(QStringLiteral("batchscope.invalid"));
    QApplication::setApplicationName(QStringLiteral("BatchScope"));
    QApplication::setApplicationVersion(QString::fromLatin1(bs::kVersionString));
    QApplication::setDesktopFileName(QStringLiteral("batchscope"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Batch policy workbench for inference accelerators"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("project"),
                                 QApplication::translate("main", "A .bsproj file to open (default: "
                                                                 "the built-in demo project)"));
    const QCommandLineOption screenshots(
        QStringLiteral("screenshot-dir"),
        QApplication::translate("main", "Save a screenshot of every view into <dir> and quit."),
        QStringLiteral("dir"));
    const QCommandLineOption largeFonts(
        QStringLiteral("large-fonts"),
        QApplication::translate("main", "Projector mode: larger fonts and thicker lines."));
    const QCommandLineOption size(QStringLiteral("window-size"),
                                  QApplication::translate("main", "Window size as WIDTHxHEIGHT."),
                                  QStringLiteral("size"));
    parser.addOption(screenshots);
    parser.addOption(largeFonts);
    parser.addOption(size);
    parser.process(app);

    bs::gui::MainWindow window;
    if (parser.isSet(largeFonts))
        window.setLargeFontMode(true);
    const QStringList files = parser.positionalArguments();
    window.openInitial(files.isEmpty() ? QString() : files.front());
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split(QLatin1Char('x'));
        if (parts.size() == 2)
            window.resize(parts[0].toInt(), parts[1].toInt());
    }
    window.show();
    if (parser.isSet(screenshots)) {
        const QStringList written = window.saveScreenshots(parser.value(screenshots));
        for (const QString& path : written)
            std::printf("%s\n", qPrintable(path));
        return written.isEmpty() ? 1 : 0;
    }
    return QApplication::exec();
}
