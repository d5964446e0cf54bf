#pragma once

// Importing a file into the main window as File ▸ Import does, for the app tests.
#include "import/importcontroller.h"
#include "jobs/jobrunner.h"
#include "mainwindow.h"

#include <QSignalSpy>
#include <QTabWidget>

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

/// Every tab widget above `page` (the main views, a view's pages) shows the tab it is in.
inline void bringToFront(QWidget* page)
{
    for (QWidget* w = page->parentWidget(); w; w = w->parentWidget())
        if (auto* tabs = qobject_cast<QTabWidget*>(w))
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->widget(i)->isAncestorOf(page))
                    tabs->setCurrentIndex(i);
    QCoreApplication::processEvents();
}

} // namespace bs::test
