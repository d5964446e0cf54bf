#include "figure/palette.h"

#include <cstdio>

namespace bs::figure {

std::string Rgb::hex() const
{
    char text[8];
    std::snprintf(text, sizeof text, "#%02x%02x%02x", red, green, blue);
    return text;
}

} // namespace bs::figure
