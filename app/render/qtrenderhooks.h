#pragma once

#include <memory>

class QGuiApplication;

namespace bs::render {

/// Installs the Qt implementations of the CLI's render hooks (PNG figures, PDF report) for its
/// lifetime. The first use creates a QGuiApplication, on the offscreen platform when no display
/// is set, so batchscope-cli works on a headless machine. Keep the session alive in main: the
/// application is destroyed with it, before static destruction (Qt cannot be torn down then).
class QtRenderSession
{
public:
    QtRenderSession(int& argc, char** argv);
    ~QtRenderSession();
    QtRenderSession(const QtRenderSession&) = delete;
    QtRenderSession& operator=(const QtRenderSession&) = delete;

private:
    void ensureGuiApplication();

    int& m_argc;
    char** m_argv;
    std::unique_ptr<QGuiApplication> m_app;
};

} // namespace bs::render
