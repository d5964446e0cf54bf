#pragma once

#include "charts/axisscale.h"
#include "charts/chartcontent.h"

#include <QFont>
#include <QString>

#include <utility>

class QAbstractAxis;

namespace bs::widgets {

/// `text` as it fits `widthPx` in `font`: as it is, or as rich text on more lines: broken
/// before its unit "(…)" when both halves fit, else wrapped word by word (three lines at most).
/// Qt Charts would cut it to "Latency dis…".
QString fitToWidth(const QString& text, const QFont& font, int widthPx);

/// The smallest and largest x (or y) of the series' finite points, the reference lines left out;
/// positive ones only for a logarithmic axis.
std::pair<double, double> seriesRange(const ChartContent& content, bool y, bool positiveOnly);

/// The content as drawn at `viewWidthPx`: an automatic log y axis decided, a log x axis's base
/// widened and a linear x axis's tick count lowered until their labels (in `labelFont`) fit.
ChartContent resolveAxes(ChartContent content, int viewWidthPx, const QFont& labelFont);

/// A new QLogValueAxis (with `base`) or QValueAxis over `scale`, titled.
QAbstractAxis* makeAxis(bool log, double base, const AxisScale& scale, const QString& title);

} // namespace bs::widgets
