#include "models/displaytext.h"

namespace bs::widgets {

namespace {

bool hidesOrDisguises(char16_t c, TextLines lines)
{
    if (lines == TextLines::Many && (c == u'\n' || c == u'\t'))
        return false;
    const bool c0OrDel = c < 0x20 || c == 0x7F;
    const bool c1 = c >= 0x80 && c <= 0x9F;
    const bool bidiOverride = (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
    return c0OrDel || c1 || bidiOverride;
}

} // namespace

QString displayText(const QString& text, TextLines lines)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (hidesOrDisguises(c.unicode(), lines))
            out += QStringLiteral("\\u") +
                   QString::number(c.unicode(), 16).rightJustified(4, QLatin1Char('0')).toUpper();
        else
            out += c;
    }
    return out;
}

QString displayText(const std::string& utf8, TextLines lines)
{
    return displayText(QString::fromStdString(utf8), lines);
}

} // namespace bs::widgets
