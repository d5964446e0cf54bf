#pragma once

namespace bs::widgets {

/// The mapping between a parameter value and a slider position. Linear, or logarithmic for a
/// parameter that spans decades (SLA, arrival rate, queue delay): there every decade gets the
/// same number of positions (so the same pixels) and positions land on round values with two
/// significant digits (…, 14, 15, 16, …), so a typed value such as 15 ms is reachable by the
/// slider too. A logarithmic scale whose minimum is 0 keeps position 0 for exactly 0 and starts
/// its decades at `logFloor`. Plain maths, unit tested; ParameterControl only applies it.
struct SliderScale
{
    double minimum = 0.0;
    double maximum = 100.0;
    bool logarithmic = false;
    /// Logarithmic with minimum 0: the smallest positive value on the slider.
    double logFloor = 0.0;

    /// Positions per decade of a logarithmic scale: the mantissas 1.0, 1.1, … 9.9.
    static constexpr int kStepsPerDecade = 90;
    /// Positions of a linear scale.
    static constexpr int kLinearSteps = 1000;

    /// The largest position (the smallest is 0).
    int maximumPosition() const;
    /// The position nearest to value (clamped to the scale).
    int toPosition(double value) const;
    /// The value at a position (clamped to the scale).
    double toValue(int position) const;
    /// Whether the scale maps positions logarithmically (log asked and a positive lower end).
    bool isLogarithmic() const;

private:
    double lowestPositive() const;
    /// Position of lowestPositive(): 1 when position 0 is kept for 0.
    int firstLogPosition() const;
};

} // namespace bs::widgets
