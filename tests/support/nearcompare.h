#pragma once

// Comparing hand-computed figures that are exact up to floating-point rounding.

#include <QtTest>

#include <cmath>

namespace bs::test {

/// |a - b| <= tolerance (absolute).
inline bool near(double a, double b, double tolerance)
{
    return std::fabs(a - b) <= tolerance;
}

} // namespace bs::test

/// QVERIFY that `a` lies within `tolerance` of `b`, printing both at full precision when not.
#define BS_NEAR_WITHIN(a, b, tolerance)                                                            \
    QVERIFY2(::bs::test::near((a), (b), (tolerance)),                                              \
             qPrintable(QStringLiteral("%1 != %2").arg((a), 0, 'g', 17).arg((b), 0, 'g', 17)))
