#include "playbook/sweepdeltas.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <utility>

namespace bs::playbook {

namespace {

/// Batch size, then concurrency (absent sorts first).
using PointKey = std::pair<int, std::optional<double>>;

PointKey keyOf(const data::SweepPoint& point, bool onConcurrency)
{
    return {point.batchSize, onConcurrency ? point.concurrency : std::nullopt};
}

bool reportsConcurrency(const data::SweepTable& table)
{
    return std::ranges::any_of(table.points,
                               [](const data::SweepPoint& p) { return p.concurrency.has_value(); });
}

const char* sideName(UnmatchedSweepPoint::Side side)
{
    return side == UnmatchedSweepPoint::Side::Baseline ? "baseline" : "candidate";
}

UnmatchedSweepPoint unmatched(UnmatchedSweepPoint::Side side, UnmatchedSweepPoint::Reason reason,
                              const PointKey& key)
{
    UnmatchedSweepPoint u;
    u.side = side;
    u.reason = reason;
    u.batch = key.first;
    u.concurrency = key.second;
    const std::string label = sweepPointLabel(key.first, key.second);
    const char* other = side == UnmatchedSweepPoint::Side::Baseline ? "candidate" : "baseline";
    u.text =
        reason == UnmatchedSweepPoint::Reason::NoPartner
            ? label + ": only in the " + sideName(side) + ", no " + other + " point"
            : label + ": repeated in the " + sideName(side) + ", only its first row is compared";
    return u;
}

bool reportsLoad(const data::SweepTable& table)
{
    return std::ranges::any_of(
        table.points, [](const data::SweepPoint& p) { return p.requestRatePerS.has_value(); });
}

/// Both without a rate, or rates within kSameLoadRelative of each other.
bool sameLoad(const std::optional<double>& a, const std::optional<double>& b)
{
    if (!a || !b)
        return !a && !b;
    return std::fabs(*a - *b) <= kSameLoadRelative * std::max(std::fabs(*a), std::fabs(*b));
}

using Rows = std::vector<const data::SweepPoint*>;

/// The rows of each key in order of offered load (loads ignored unless `byLoad`); a row with the
/// key and load of an earlier one goes to `repeats`.
std::map<PointKey, Rows> rowsByKey(const data::SweepTable& table, bool onConcurrency, bool byLoad,
                                   UnmatchedSweepPoint::Side side,
                                   std::vector<UnmatchedSweepPoint>& repeats)
{
    auto loadOf = [byLoad](const data::SweepPoint* p) {
        return byLoad ? p->requestRatePerS : std::nullopt;
    };
    std::map<PointKey, Rows> rows;
    for (const auto& point : table.points) {
        const PointKey key = keyOf(point, onConcurrency);
        Rows& same = rows[key];
        if (std::ranges::any_of(same, [&](auto* r) { return sameLoad(loadOf(r), loadOf(&point)); }))
            repeats.push_back(unmatched(side, UnmatchedSweepPoint::Reason::Repeated, key));
        else
            same.push_back(&point);
    }
    for (auto& [key, same] : rows)
        std::ranges::stable_sort(same, {}, [&](auto* r) { return loadOf(r).value_or(0.0); });
    return rows;
}

SweepPointDelta deltaOf(const PointKey& key, const data::SweepPoint& b, const data::SweepPoint& c,
                        double practicalDelta)
{
    SweepPointDelta d;
    d.batch = key.first;
    d.concurrency = key.second;
    d.baselineLoadPerS = b.requestRatePerS;
    d.candidateLoadPerS = c.requestRatePerS;
    d.loadsDiffer =
        b.requestRatePerS && c.requestRatePerS && !sameLoad(b.requestRatePerS, c.requestRatePerS);
    d.throughputPerS = compare(sweepThroughput(b), sweepThroughput(c), practicalDelta);
    d.latencyP50S = compare(sweepPercentile(b, 0.50), sweepPercentile(c, 0.50), practicalDelta);
    d.latencyP99S = compare(sweepPercentile(b, 0.99), sweepPercentile(c, 0.99), practicalDelta);
    d.energyPerInferenceJ =
        compare(sweepEnergyPerInference(b), sweepEnergyPerInference(c), practicalDelta);
    return d;
}

/// Pairs the rows of one key: same load first; what is left on both sides in order of load
/// (marked loadsDiffer by deltaOf); the rest has no partner.
void pairRowsOfKey(const PointKey& key, const Rows& baseline, Rows candidate, bool byLoad,
                   double practicalDelta, SweepDeltas& out,
                   std::vector<UnmatchedSweepPoint>& baselineOnly,
                   std::vector<UnmatchedSweepPoint>& candidateOnly)
{
    auto loadOf = [byLoad](const data::SweepPoint* p) {
        return byLoad ? p->requestRatePerS : std::nullopt;
    };
    Rows baselineLeft;
    for (const data::SweepPoint* row : baseline) {
        const auto partner = std::ranges::find_if(
            candidate, [&](auto* c) { return sameLoad(loadOf(c), loadOf(row)); });
        if (partner == candidate.end()) {
            baselineLeft.push_back(row);
            continue;
        }
        out.points.push_back(deltaOf(key, *row, **partner, practicalDelta));
        candidate.erase(partner);
    }
    const std::size_t paired = std::min(baselineLeft.size(), candidate.size());
    for (std::size_t i = 0; i < paired; ++i)
        out.points.push_back(deltaOf(key, *baselineLeft[i], *candidate[i], practicalDelta));
    using Side = UnmatchedSweepPoint::Side;
    for (std::size_t i = paired; i < baselineLeft.size(); ++i)
        baselineOnly.push_back(
            unmatched(Side::Baseline, UnmatchedSweepPoint::Reason::NoPartner, key));
    for (std::size_t i = paired; i < candidate.size(); ++i)
        candidateOnly.push_back(
            unmatched(Side::Candidate, UnmatchedSweepPoint::Reason::NoPartner, key));
}

} // namespace

std::string sweepPointLabel(int batch, const std::optional<double>& concurrency)
{
    std::string label = "batch " + std::to_string(batch);
    if (concurrency) {
        char number[32];
        std::snprintf(number, sizeof number, "%.6g", *concurrency);
        label += std::string(", concurrency ") + number;
    }
    return label;
}

SweepDeltas sweepDeltas(const data::SweepTable& baseline, const data::SweepTable& candidate,
                        double practicalDelta)
{
    using Side = UnmatchedSweepPoint::Side;
    using Reason = UnmatchedSweepPoint::Reason;
    SweepDeltas out;
    out.matchedOnConcurrency = reportsConcurrency(baseline) && reportsConcurrency(candidate);
    out.loadsCompared = reportsLoad(baseline) && reportsLoad(candidate);
    std::vector<UnmatchedSweepPoint> baselineRepeats, candidateRepeats;
    const auto b = rowsByKey(baseline, out.matchedOnConcurrency, out.loadsCompared, Side::Baseline,
                             baselineRepeats);
    const auto c = rowsByKey(candidate, out.matchedOnConcurrency, out.loadsCompared,
                             Side::Candidate, candidateRepeats);

    std::vector<UnmatchedSweepPoint> baselineOnly, candidateOnly;
    for (const auto& [key, rows] : b) {
        const auto partner = c.find(key);
        pairRowsOfKey(key, rows, partner == c.end() ? Rows{} : partner->second, out.loadsCompared,
                      practicalDelta, out, baselineOnly, candidateOnly);
    }
    for (const auto& [key, rows] : c) {
        if (!b.contains(key))
            candidateOnly.insert(candidateOnly.end(), rows.size(),
                                 unmatched(Side::Candidate, Reason::NoPartner, key));
    }
    std::ranges::stable_sort(out.points, {}, [](const SweepPointDelta& d) {
        return std::tuple(d.batch, d.concurrency, d.baselineLoadPerS.value_or(0.0));
    });
    for (auto* list : {&baselineOnly, &baselineRepeats, &candidateOnly, &candidateRepeats})
        out.unmatched.insert(out.unmatched.end(), list->begin(), list->end());
    return out;
}

} // namespace bs::playbook
