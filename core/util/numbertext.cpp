#include "util/numbertext.h"

#include <sstream>

namespace bs {

std::string significant(double value, int digits)
{
    std::ostringstream out;
    out.precision(digits);
    out << value;
    return out.str();
}

} // namespace bs
