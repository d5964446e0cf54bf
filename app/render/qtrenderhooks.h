#pragma once

namespace bs::render {

/// Installs the Qt implementations of the CLI's render hooks (PNG figures, PDF report). The
/// first use creates a QGuiApplication, on the offscreen platform when no display is set, so
/// batchscope-cli works on a headless machine.
void installQtRenderHooks(int& argc, char** argv);

} // namespace bs::render
