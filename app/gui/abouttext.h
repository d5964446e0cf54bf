#pragma once

#include <QString>

namespace bs::gui {

/// The About box text: what BatchScope is, its version, and the versions of Qt, zlib and
/// nlohmann_json it was built with (for bug reports and review provenance).
QString aboutText();

} // namespace bs::gui
