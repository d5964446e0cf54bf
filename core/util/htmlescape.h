#pragma once

#include <string>
#include <string_view>

namespace bs {

/// `text` safe inside HTML or SVG (XML) text and attribute values: &, <, >, " and ' escaped.
std::string htmlEscape(std::string_view text);

} // namespace bs
