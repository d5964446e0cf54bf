#pragma once

#include <cstdint>
#include <string>

namespace bs::figure {

/// A colour as plain RGB, so core can say which colour a meaning has without Qt.
struct Rgb
{
    std::uint8_t red = 0, green = 0, blue = 0;

    std::string hex() const; ///< "#009e73"
};

/// One colour per meaning of the feasible-region charts, used by the GUI (widgets/charts) and
/// by the report's figures (SVG, hence Markdown, HTML and PDF), so "feasible", "Pareto front"
/// and "recommended" look the same wherever a reviewer sees them. Colour-blind safe (Okabe–Ito).
namespace palette {
inline constexpr Rgb kFeasible{0x00, 0x9e, 0x73};
inline constexpr Rgb kUnstable{0x99, 0x99, 0x99};
inline constexpr Rgb kError{0x33, 0x33, 0x33};
inline constexpr Rgb kParetoFront{0x14, 0x14, 0x14};
/// The recommended point: a large yellow marker with a dark outline, on top of everything.
inline constexpr Rgb kRecommended{0xff, 0xd4, 0x00};
inline constexpr Rgb kRecommendedOutline{0x00, 0x00, 0x00};
} // namespace palette

} // namespace bs::figure
