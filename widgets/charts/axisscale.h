#pragma once

namespace bs::widgets {

/// A "nice" axis: bounds and tick spacing at 1, 2 or 5 times a power of ten, so tick labels
/// read well on a projector. Plain maths, unit tested; the chart code only applies it.
struct AxisScale
{
    double min = 0.0;
    double max = 1.0;
    double tickInterval = 0.2;
    int tickCount = 6; ///< Including both ends.

    /// Covers [lo, hi] with at most maxTicks ticks. A flat range is widened around its value.
    static AxisScale linear(double lo, double hi, int maxTicks = 7, bool includeZero = false);
    /// Covers [lo, hi] (both > 0) with whole powers of `base` for a logarithmic axis.
    static AxisScale logarithmic(double lo, double hi, double base = 10.0);
    /// The base of a logarithmic axis over [lo, hi] whose labels, labelWidthPx each, fit in
    /// widthPx: `base`, else base², base⁴, … (at most base⁸), so a narrow batch-size chart shows
    /// 1, 4, 16, 64, 256 instead of cutting 1, 2, 4, … 256 to "1…", "2…".
    static double fittingLogBase(double base, double lo, double hi, double widthPx,
                                 double labelWidthPx);
};

} // namespace bs::widgets
