#pragma once

#include "playbook/reportdocument.h"
#include "util/expected.h"

#include <QString>

namespace bs::render {

/// Writes the report as an A4 PDF with Qt's PDF writer: a title block, numbered sections with
/// step status badges, tables with columns sized to their content and split across pages with
/// their header repeated, figures painted from their SVG as vectors, and "page n of N" on every
/// page (a draft also says DRAFT, with its reasons, at the top of every page). The attachments
/// (reproducer, fix, curve pack files) are listed and written beside the PDF, since the PDF
/// tells its reader to run them.
/// Needs a QGuiApplication (fonts). Errors name the file.
Status writePdfReport(const playbook::ReportDocument& report, const QString& path);

} // namespace bs::render
