#pragma once

#include <string>

namespace bs {

/// `value` with at most `digits` significant digits, as an ostream writes it ("4.45e+04",
/// "0.2534"): for figures inside messages, where the magnitude matters more than the digits.
std::string significant(double value, int digits);

} // namespace bs
