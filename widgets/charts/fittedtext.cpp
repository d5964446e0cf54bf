#include "charts/fittedtext.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace bs::widgets {

QString drawFittedText(QPainter& painter, const QRect& box, const QStringList& choices)
{
    const QFont original = painter.font();
    const qreal smallestSize = std::max(6.0, original.pointSizeF() * 0.6);
    for (const QString& text : choices) {
        if (text.isEmpty())
            continue;
        QFont font = original;
        const auto fits = [&] {
            const QRect needed = QFontMetrics(font).boundingRect(box, Qt::AlignCenter, text);
            return needed.width() <= box.width() - 2 && needed.height() <= box.height();
        };
        while (!fits() && font.pointSizeF() > smallestSize)
            font.setPointSizeF(font.pointSizeF() - 0.5);
        if (!fits())
            continue;
        painter.setFont(font);
        painter.drawText(box, Qt::AlignCenter, text);
        painter.setFont(original);
        return text;
    }
    return {};
}

} // namespace bs::widgets
