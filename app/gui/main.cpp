#include "document/autosave.h"
#include "mainwindow.h"
#include "state/settings.h"
#include "util/version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QTemporaryDir>
#include <QTranslator>

#include <algorithm>
#include <cstdio>
#include <memory>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("BatchScope"));
    QApplication::setOrganizationDomain(QStringLiteral("batchscope.invalid"));
    QApplication::setApplicationName(QStringLiteral("BatchScope"));
    QApplication::setApplicationVersion(QString::fromLatin1(bs::kVersionString));
    QApplication::setDesktopFileName(QStringLiteral("batchscope"));
    // BatchScope's own strings (embedded .qm) and Qt's dialogs, in the user's language.
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("batchscope"), QStringLiteral("_"),
                        QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);
    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtTranslator);

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
    const QCommandLineOption recoveryDir(
        QStringLiteral("recovery-dir"),
        QApplication::translate("main", "Folder for crash-recovery copies (default: the "
                                        "application data folder)."),
        QStringLiteral("dir"));
    const QCommandLineOption autosaveInterval(
        QStringLiteral("autosave-interval-ms"),
        QApplication::translate("main", "How often unsaved work is copied for recovery."),
        QStringLiteral("ms"), QStringLiteral("60000"));
    const QCommandLineOption demo(
        QStringLiteral("demo"),
        QApplication::translate("main", "Open a built-in demo instead of a project: \"batch\" "
                                        "(ResNet-50 on Triton, the default) or \"llm\" "
                                        "(Llama-3.1-8B on vLLM)."),
        QStringLiteral("name"));
    parser.addOption(demo);
    parser.addOption(recoveryDir);
    parser.addOption(autosaveInterval);
    parser.addOption(screenshots);
    parser.addOption(largeFonts);
    parser.addOption(size);
    parser.process(app);

    // Screenshots neither read nor change the user's settings (layout, projector mode).
    QTemporaryDir scratch;
    std::unique_ptr<bs::widgets::Settings> scratchSettings;
    if (parser.isSet(screenshots))
        scratchSettings = std::make_unique<bs::widgets::Settings>(
            scratch.filePath(QStringLiteral("settings.ini")));
    bs::gui::MainWindow window(scratchSettings.get());
    if (parser.isSet(largeFonts))
        window.setLargeFontMode(true);
    const QStringList files = parser.positionalArguments();
    if (parser.value(demo) == QStringLiteral("llm") && files.isEmpty())
        window.openLlmDemo();
    else
        window.openInitial(files.isEmpty() ? QString() : files.front());
    if (!parser.isSet(screenshots)) {
        window.enableAutosave(parser.isSet(recoveryDir) ? parser.value(recoveryDir)
                                                        : bs::widgets::Autosave::defaultDirectory(),
                              std::max(100, parser.value(autosaveInterval).toInt()));
    }
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split(QLatin1Char('x'));
        if (parts.size() == 2)
            window.resize(parts[0].toInt(), parts[1].toInt());
    }
    window.show();
    if (!parser.isSet(screenshots))
        window.offerRecovery();
    if (parser.isSet(screenshots)) {
        const QStringList written = window.saveScreenshots(parser.value(screenshots));
        for (const QString& path : written)
            std::printf("%s\n", qPrintable(path));
        return written.isEmpty() ? 1 : 0;
    }
    return QApplication::exec();
}
