#include "playbook/sweepdeltas.h"

#include <algorithm>
#include <cstdio>
#include <map>
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

/// The first row of each key; later rows with the same key go to `repeats`.
std::map<PointKey, const data::SweepPoint*> firstRows(const data::SweepTable& table,
                                                      bool onConcurrency,
                                                      UnmatchedSweepPoint::Side side,
                                                      std::vector<UnmatchedSweepPoint>& repeats)
{
    std::map<PointKey, const data::SweepPoint*> rows;
    for (const auto& point : table.points) {
        const PointKey key = keyOf(point, onConcurrency);
        if (!rows.emplace(key, &point).second)
            repeats.push_back(unmatched(side, UnmatchedSweepPoint::Reason::Repeated, key));
    }
    return rows;
}

SweepPointDelta deltaOf(const PointKey& key, const data::SweepPoint& b, const data::SweepPoint& c,
                        double practicalDelta)
{
    SweepPointDelta d;
    d.batch = key.first;
    d.concurrency = key.second;
    d.throughputPerS = compare(sweepThroughput(b), sweepThroughput(c), practicalDelta);
    d.latencyP50S = compare(sweepPercentile(b, 0.50), sweepPercentile(c, 0.50), practicalDelta);
    d.latencyP99S = compare(sweepPercentile(b, 0.99), sweepPercentile(c, 0.99), practicalDelta);
    d.energyPerInferenceJ =
        compare(sweepEnergyPerInference(b), sweepEnergyPerInference(c), practicalDelta);
    return d;
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
    std::vector<UnmatchedSweepPoint> baselineRepeats, candidateRepeats;
    const auto b = firstRows(baseline, out.matchedOnConcurrency, Side::Baseline, baselineRepeats);
    const auto c =
        firstRows(candidate, out.matchedOnConcurrency, Side::Candidate, candidateRepeats);

    std::vector<UnmatchedSweepPoint> baselineOnly, candidateOnly;
    for (const auto& [key, point] : b) {
        const auto partner = c.find(key);
        if (partner == c.end())
            baselineOnly.push_back(unmatched(Side::Baseline, Reason::NoPartner, key));
        else
            out.points.push_back(deltaOf(key, *point, *partner->second, practicalDelta));
    }
    for (const auto& [key, point] : c) {
        if (!b.contains(key))
            candidateOnly.push_back(unmatched(Side::Candidate, Reason::NoPartner, key));
    }
    for (auto* list : {&baselineOnly, &baselineRepeats, &candidateOnly, &candidateRepeats})
        out.unmatched.insert(out.unmatched.end(), list->begin(), list->end());
    return out;
}

} // namespace bs::playbook
