#include "qtrenderhooks.h"

#include "pdfreport.h"
#include "renderhooks.h"
#include "svgraster.h"

#include <QGuiApplication>

#include <cstdlib>

namespace bs::render {

QtRenderSession::QtRenderSession(int& argc, char** argv)
    : m_argc(argc)
    , m_argv(argv)
{
    auto& hooks = cli::renderHooks();
    hooks.writePng = [this](const std::string& svg, const std::string& path) {
        ensureGuiApplication();
        return writeSvgAsPng(svg, QString::fromStdString(path));
    };
    hooks.writePdf = [this](const playbook::ReportDocument& report, const std::string& path) {
        ensureGuiApplication();
        return writePdfReport(report, QString::fromStdString(path));
    };
}

QtRenderSession::~QtRenderSession()
{
    cli::renderHooks() = {};
    m_app.reset();
}

void QtRenderSession::ensureGuiApplication()
{
    // Fonts and painting need a QGuiApplication; the CLI only creates one when it draws.
    if (QGuiApplication::instance())
        return;
    if (std::getenv("QT_QPA_PLATFORM") == nullptr && std::getenv("DISPLAY") == nullptr &&
        std::getenv("WAYLAND_DISPLAY") == nullptr)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    m_app = std::make_unique<QGuiApplication>(m_argc, m_argv);
}

} // namespace bs::render
