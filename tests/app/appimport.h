#pragma once

// Importing a file into the main window as File ▸ Import does, for the app tests.
#include "import/importcontroller.h"
#include "jobs/jobrunner.h"
#include "mainwindow.h"

#include <QSignalSpy>

namespace bs::test {

/// Imports `path` (with `role`) and waits for the import and the analyses it starts; false when
/// the file was not imported.
inline bool importInto(gui::MainWindow& window, const QString& path,
                       data::DatasetRole role = data::DatasetRole::None)
{
    QSignalSpy finished(window.importer(), &widgets::ImportController::importFinished);
    widgets::ImportRequest request;
    request.path = path;
    request.role = role;
    window.importer()->importFiles({request});
    if (!finished.wait(30000) || finished.at(0).at(0).toInt() != 1)
        return false;
    return window.jobs()->waitForIdle(60000);
}

} // namespace bs::test
