#include "analysis/radixsort.h"

#include <array>
#include <cstddef>
#include <memory>

namespace bs::analysis {

namespace {

constexpr int kDigitBits = 11;
constexpr int kPasses = 6; // 6 * 11 = 66 >= 64
constexpr std::size_t kBuckets = std::size_t(1) << kDigitBits;
constexpr std::uint64_t kMask = kBuckets - 1;

using Histograms = std::array<std::array<std::uint64_t, kBuckets>, kPasses>;

/// Generic LSD radix sort: `key(item)` gives the 64-bit key. Ping-pongs between the two
/// buffers and leaves the result in `items`.
template <typename T, typename KeyFn>
void lsdSort(std::vector<T>& items, std::vector<T>& scratch, KeyFn key)
{
    const std::size_t n = items.size();
    if (n < 2)
        return;
    auto histograms = std::make_unique<Histograms>();
    for (auto& h : *histograms)
        h.fill(0);
    for (const T& item : items) {
        const std::uint64_t k = key(item);
        for (int pass = 0; pass < kPasses; ++pass)
            ++(*histograms)[std::size_t(pass)][(k >> (pass * kDigitBits)) & kMask];
    }
    scratch.resize(n);
    T* from = items.data();
    T* to = scratch.data();
    for (int pass = 0; pass < kPasses; ++pass) {
        auto& counts = (*histograms)[std::size_t(pass)];
        const std::uint64_t first = (key(from[0]) >> (pass * kDigitBits)) & kMask;
        if (counts[first] == n)
            continue; // every key has this digit: the pass would not move anything
        std::uint64_t offset = 0;
        for (auto& c : counts) {
            const std::uint64_t count = c;
            c = offset;
            offset += count;
        }
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t digit = (key(from[i]) >> (pass * kDigitBits)) & kMask;
            to[counts[digit]++] = from[i];
        }
        std::swap(from, to);
    }
    if (from != items.data())
        items.swap(scratch);
}

} // namespace

void radixSort(std::vector<double>& values, std::vector<double>& scratch)
{
    lsdSort(values, scratch, [](double v) { return orderedBits(v); });
}

void radixSort(std::vector<KeyIndex>& items, std::vector<KeyIndex>& scratch)
{
    lsdSort(items, scratch, [](const KeyIndex& item) { return item.key; });
}

} // namespace bs::analysis
