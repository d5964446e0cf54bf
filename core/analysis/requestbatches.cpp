#include "analysis/radixsort.h"
#include "analysis/requestparts.h"

#include <algorithm>
#include <cmath>

namespace bs::analysis::detail {

namespace {

/// Dense batch numbers: a lookup table when the ids span a small range (the usual counters),
/// otherwise one radix sort of (id, request) pairs.
std::vector<std::uint32_t> denseBatchNumbers(const std::vector<std::int64_t>& ids,
                                             std::size_t& batches)
{
    const std::size_t n = ids.size();
    std::vector<std::uint32_t> out(n);
    const auto [lo, hi] = std::minmax_element(ids.begin(), ids.end());
    const auto range = std::uint64_t(*hi) - std::uint64_t(*lo);
    batches = 0;
    if (range <= 4 * std::uint64_t(n) + 1024) {
        std::vector<std::uint32_t> table(range + 1, UINT32_MAX);
        for (std::size_t i = 0; i < n; ++i) {
            auto& slot = table[std::uint64_t(ids[i]) - std::uint64_t(*lo)];
            if (slot == UINT32_MAX)
                slot = std::uint32_t(batches++);
            out[i] = slot;
        }
        return out;
    }
    std::vector<KeyIndex> keys(n);
    for (std::size_t i = 0; i < n; ++i)
        keys[i] = {std::uint64_t(ids[i]) ^ 0x8000000000000000ULL, i};
    std::vector<KeyIndex> scratch;
    radixSort(keys, scratch);
    for (std::size_t j = 0; j < n; ++j) {
        if (j > 0 && keys[j].key != keys[j - 1].key)
            ++batches;
        out[keys[j].index] = std::uint32_t(batches);
    }
    ++batches;
    return out;
}

Distribution describe(std::vector<double> values, std::size_t cdfPoints)
{
    std::vector<double> scratch;
    radixSort(values, scratch);
    return describeSorted(values, cdfPoints);
}

} // namespace

BatchGroups groupBatches(const data::RequestTrace& t)
{
    BatchGroups g;
    if (t.batchId.empty())
        return g;
    std::size_t batches = 0;
    g.batchOf = denseBatchNumbers(t.batchId, batches);
    g.size.assign(batches, 0);
    g.firstArrivalS.assign(batches, INFINITY);
    g.lastArrivalS.assign(batches, -INFINITY);
    g.dispatchS.assign(batches, t.hasDispatch() ? INFINITY : kNaN);
    for (std::size_t i = 0; i < t.size(); ++i) {
        const std::uint32_t b = g.batchOf[i];
        ++g.size[b];
        g.firstArrivalS[b] = std::min(g.firstArrivalS[b], t.arrivalS[i]);
        g.lastArrivalS[b] = std::max(g.lastArrivalS[b], t.arrivalS[i]);
        if (t.hasDispatch())
            g.dispatchS[b] = std::min(g.dispatchS[b], t.dispatchS[i]);
    }
    return g;
}

BatchStatistics batchStatistics(const data::RequestTrace& t, const BatchGroups& g,
                                std::size_t cdfPoints)
{
    BatchStatistics s;
    if (!g.batchOf.empty()) {
        s.available = true;
        s.source = "batch_id";
        s.batches = g.size.size();
        double requests = 0.0, squares = 0.0;
        std::vector<double> formation(s.batches), oldestWait;
        for (std::size_t b = 0; b < s.batches; ++b) {
            const std::uint32_t size = g.size[b];
            if (s.batchesBySize.size() <= size)
                s.batchesBySize.resize(size + 1, 0);
            ++s.batchesBySize[size];
            requests += size;
            squares += double(size) * size;
            formation[b] = g.lastArrivalS[b] - g.firstArrivalS[b];
            if (t.hasDispatch())
                oldestWait.push_back(g.dispatchS[b] - g.firstArrivalS[b]);
        }
        s.meanSize = requests / double(s.batches);
        s.meanSizeSeenByRequest = squares / requests;
        s.formationS = describe(std::move(formation), cdfPoints);
        s.oldestWaitS = describe(std::move(oldestWait), cdfPoints);
        return s;
    }
    if (t.batchSize.empty()) {
        s.reason = "the trace has neither batch ids nor batch sizes";
        return s;
    }
    s.available = true;
    s.source = "batch_size";
    std::vector<std::uint64_t> requestsBySize;
    double sum = 0.0;
    for (std::int32_t size : t.batchSize) {
        const auto b = std::size_t(size);
        if (requestsBySize.size() <= b)
            requestsBySize.resize(b + 1, 0);
        ++requestsBySize[b];
        sum += size;
    }
    s.batchesBySize.assign(requestsBySize.size(), 0);
    double batches = 0.0;
    for (std::size_t b = 1; b < requestsBySize.size(); ++b) {
        // Every batch of size b contributes b requests; a partial count means requests of the
        // batch fell outside the trace, and is rounded up.
        s.batchesBySize[b] = (requestsBySize[b] + b - 1) / b;
        batches += double(s.batchesBySize[b]);
    }
    s.batches = std::uint64_t(batches);
    s.meanSize = double(t.size()) / batches;
    s.meanSizeSeenByRequest = sum / double(t.size());
    s.reason = "batches estimated from the per-request batch size (requests of size b / b); "
               "formation time needs batch ids";
    return s;
}

} // namespace bs::analysis::detail
