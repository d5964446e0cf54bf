#pragma once

#include "util/expected.h"

#include <functional>
#include <string>

namespace bs::playbook {
struct ReportDocument;
}

namespace bs::cli {

/// What the headless commands need from Qt's GUI module: PNG images of SVG figures and the PDF
/// report. The command library stays free of Qt; batchscope-cli's main installs the Qt
/// implementations (app/render), so a build without Qt simply reports that these outputs are
/// unavailable.
struct RenderHooks
{
    std::function<Status(const std::string& svg, const std::string& pngPath)> writePng;
    std::function<Status(const playbook::ReportDocument& report, const std::string& pdfPath)>
        writePdf;
};

/// The installed hooks (empty until installed).
RenderHooks& renderHooks();

} // namespace bs::cli
