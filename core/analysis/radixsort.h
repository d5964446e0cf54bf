#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace bs::analysis {

/// The bits of a double mapped so that unsigned integer order is numeric order (negative
/// values included; -0 sorts just before +0). NaN must not be passed.
inline std::uint64_t orderedBits(double value)
{
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return (bits & 0x8000000000000000ULL) ? ~bits : (bits | 0x8000000000000000ULL);
}

/// A sort key with the index of the element it belongs to (16 bytes).
struct KeyIndex
{
    std::uint64_t key = 0;
    std::uint64_t index = 0;
};

/// Sorts finite doubles ascending with a least-significant-digit radix sort on orderedBits():
/// six passes of 11 bits after one histogram pass, skipping digits that are the same for every
/// value. About 15-25 ns per value for 10 million values, against ~80 ns for std::sort, with
/// no allocation beyond `scratch` (resized to values.size()). Stable.
void radixSort(std::vector<double>& values, std::vector<double>& scratch);

/// Sorts (key, index) pairs by key, stable, with the same method.
void radixSort(std::vector<KeyIndex>& items, std::vector<KeyIndex>& scratch);

} // namespace bs::analysis
