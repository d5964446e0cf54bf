#include "panels/sliderscale.h"

#include <algorithm>
#include <cmath>

namespace bs::widgets {

namespace {
/// Mantissa steps are 0.1 wide, from 1.0 to 9.9.
constexpr double kMantissaStep = 0.1;
} // namespace

bool SliderScale::isLogarithmic() const
{
    return logarithmic && maximum > 0.0 && (minimum > 0.0 || logFloor > 0.0) &&
           maximum > lowestPositive();
}

double SliderScale::lowestPositive() const
{
    return minimum > 0.0 ? minimum : logFloor;
}

int SliderScale::firstLogPosition() const
{
    return minimum > 0.0 ? 0 : 1;
}

int SliderScale::maximumPosition() const
{
    if (!isLogarithmic())
        return kLinearSteps;
    const double decades = std::log10(maximum / lowestPositive());
    return firstLogPosition() + int(std::ceil(decades * kStepsPerDecade - 1e-9));
}

int SliderScale::toPosition(double value) const
{
    if (!isLogarithmic()) {
        const double span = maximum - minimum;
        const double t = span > 0.0 ? (value - minimum) / span : 0.0;
        return int(std::lround(std::clamp(t, 0.0, 1.0) * kLinearSteps));
    }
    if (firstLogPosition() == 1 && value < lowestPositive() / 2.0)
        return 0;
    const double v = std::clamp(value, lowestPositive(), maximum);
    // Whole decades above the floor, then the mantissa step within the decade: the inverse of
    // toValue's mantissa ladder, rounded to the nearest rung.
    const double decadesAbove = std::log10(v / lowestPositive());
    int decade = int(std::floor(decadesAbove + 1e-12));
    const double decadeStart = lowestPositive() * std::pow(10.0, decade);
    double rung = std::round((v / decadeStart - 1.0) / kMantissaStep);
    if (rung >= kStepsPerDecade) {
        rung = 0.0;
        ++decade;
    }
    const int position = firstLogPosition() + decade * kStepsPerDecade + int(rung);
    return std::clamp(position, 0, maximumPosition());
}

double SliderScale::toValue(int position) const
{
    const int clamped = std::clamp(position, 0, maximumPosition());
    if (!isLogarithmic())
        return minimum + (maximum - minimum) * double(clamped) / kLinearSteps;
    if (clamped < firstLogPosition())
        return 0.0;
    const int step = clamped - firstLogPosition();
    const int decade = step / kStepsPerDecade;
    const int rung = step % kStepsPerDecade;
    const double decadeStart = lowestPositive() * std::pow(10.0, decade);
    // Rounded so that 1.5 × 10 reads 15, not 15.000000000000002.
    const double mantissa = std::round((1.0 + rung * kMantissaStep) * 10.0) / 10.0;
    return std::min(maximum, decadeStart * mantissa);
}

} // namespace bs::widgets
