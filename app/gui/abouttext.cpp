#include "abouttext.h"

#include "util/version.h"

#include <QObject>
#include <QtGlobal>

#include <nlohmann/json.hpp>
#include <zlib.h>

namespace bs::gui {

QString aboutText()
{
    const QString json = QStringLiteral("%1.%2.%3")
                             .arg(NLOHMANN_JSON_VERSION_MAJOR)
                             .arg(NLOHMANN_JSON_VERSION_MINOR)
                             .arg(NLOHMANN_JSON_VERSION_PATCH);
    return QObject::tr("<h3>BatchScope %1</h3>"
                       "<p>Batch policy workbench for inference accelerators: sweeps, traces and "
                       "power logs in; accelerator and queueing models re-run interactively; "
                       "feasible operating regions and a signed review memo out.</p>"
                       "<p>Built with Qt %2 (running on Qt %3), zlib %4, nlohmann_json %5.</p>")
        .arg(QString::fromLatin1(kVersionString), QStringLiteral(QT_VERSION_STR),
             QString::fromLatin1(qVersion()), QString::fromLatin1(zlibVersion()), json);
}

} // namespace bs::gui
