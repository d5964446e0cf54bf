#include "qtrenderhooks.h"

#include "pdfreport.h"
#include "renderhooks.h"
#include "svgraster.h"

#include <QGuiApplication>

#include <cstdlib>
#include <memory>

namespace bs::render {

namespace {

struct AppArguments
{
    int* argc = nullptr;
    char** argv = nullptr;
};

AppArguments& arguments()
{
    static AppArguments args;
    return args;
}

/// Fonts and painting need a QGuiApplication; the CLI only creates one when it draws.
void ensureGuiApplication()
{
    static std::unique_ptr<QGuiApplication> app;
    if (QGuiApplication::instance())
        return;
    if (std::getenv("QT_QPA_PLATFORM") == nullptr && std::getenv("DISPLAY") == nullptr &&
        std::getenv("WAYLAND_DISPLAY") == nullptr)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    app = std::make_unique<QGuiApplication>(*arguments().argc, arguments().argv);
}

} // namespace

void installQtRenderHooks(int& argc, char** argv)
{
    arguments() = {&argc, argv};
    auto& hooks = cli::renderHooks();
    hooks.writePng = [](const std::string& svg, const std::string& path) {
        ensureGuiApplication();
        return writeSvgAsPng(svg, QString::fromStdString(path));
    };
    hooks.writePdf = [](const playbook::ReportDocument& report, const std::string& path) {
        ensureGuiApplication();
        return writePdfReport(report, QString::fromStdString(path));
    };
}

} // namespace bs::render
