#pragma once

#include "util/expected.h"

#include <QImage>
#include <QString>

#include <string>

namespace bs::render {

/// Renders an SVG document (as written by figure::renderFigureSvg) into an image at `scale`
/// times its nominal size, on white. Errors: SVG Qt cannot parse.
Expected<QImage> rasterizeSvg(const std::string& svg, double scale = 2.0);

/// rasterizeSvg, then writes a PNG; errors name the file.
Status writeSvgAsPng(const std::string& svg, const QString& path, double scale = 2.0);

} // namespace bs::render
