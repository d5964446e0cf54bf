#include "charts/chartcontent.h"

namespace bs::widgets {

QColor baselineColour()
{
    return QColor(0x1f, 0x77, 0xb4);
}

QColor candidateColour()
{
    return QColor(0xe3, 0x6c, 0x0a);
}

QColor neutralColour(int index)
{
    // Colour-blind-safe palette (Okabe–Ito), cycled.
    static const QColor palette[] = {QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00),
                                     QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                     QColor(0x56, 0xb4, 0xe9), QColor(0xd5, 0x5e, 0x00),
                                     QColor(0x7f, 0x7f, 0x7f)};
    return palette[index % int(std::size(palette))];
}

} // namespace bs::widgets
