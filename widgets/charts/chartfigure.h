#pragma once

#include "charts/chartcontent.h"
#include "figure/figure.h"

namespace bs::widgets {

/// The chart as core's plain Figure (display units kept), so a chart attached to the memo is
/// redrawn identically in the Markdown, HTML and PDF reports. Colours map to the report
/// palette by series position; dashed and step styles are kept.
figure::Figure figureOf(const ChartContent& content);

} // namespace bs::widgets
