#pragma once

#include <QStringList>

class QPainter;
class QRect;

namespace bs::widgets {

/// Draws the first of `choices` that fits `box` (centred), shrinking the painter's font down to
/// 60% of its size (6 pt at least) before moving on to the next choice; draws nothing when none
/// fits, so a narrow heatmap cell leaves its text to the tooltip rather than overlap its
/// neighbours. The painter's font is left as it was. Returns the text drawn.
QString drawFittedText(QPainter& painter, const QRect& box, const QStringList& choices);

} // namespace bs::widgets
