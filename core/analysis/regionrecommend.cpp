// recommend(): the feasible cell that best meets the objective, choosing among the cells that
// the simulation cannot tell apart on it by the secondary metrics (REGION.md, "Recommendation").
#include "analysis/regionfinalize.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>

namespace bs::analysis {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A metric as the ranking reads it: smaller is better; halfWidth 0 when exact or unknown.
struct Ranked
{
    double value = kInf;
    double halfWidth = 0.0;
};

Ranked ranked(const sim::Estimate& e, double sign)
{
    if (std::isnan(e.value))
        return {};
    const double hw = e.halfWidth();
    return {sign * e.value, std::isfinite(hw) ? hw : 0.0};
}

/// Throughput ranks by the offered rate when there is one: a stable cell serves what it is
/// offered, and cells at one rate differ in measured throughput only by noise.
Ranked throughputOf(const RegionCell& c)
{
    if (std::isfinite(c.metrics.offeredRatePerS))
        return {-c.metrics.offeredRatePerS, 0.0};
    return ranked(c.metrics.throughputPerS, -1.0);
}

Ranked objectiveOf(const RegionCell& c, RegionObjective objective)
{
    switch (objective) {
    case RegionObjective::MinEnergy:
        return ranked(c.metrics.energyPerInferenceJ, 1.0);
    case RegionObjective::MinP99:
        return ranked(c.metrics.p99S, 1.0);
    case RegionObjective::MaxThroughput:
        break;
    }
    return throughputOf(c);
}

/// Within a set the objective cannot separate: lower p99, then lower energy, then more
/// throughput, then the objective's own point estimate, then the lower index.
std::array<double, 5> secondaryKey(const RegionCell& c, RegionObjective objective)
{
    const double p99 = ranked(c.metrics.p99S, 1.0).value;
    const double energy = ranked(c.metrics.energyPerInferenceJ, 1.0).value;
    const double throughput = throughputOf(c).value;
    const double own = objectiveOf(c, objective).value;
    switch (objective) {
    case RegionObjective::MinEnergy:
        return {p99, throughput, own, own, double(c.index)};
    case RegionObjective::MinP99:
        return {energy, throughput, own, own, double(c.index)};
    case RegionObjective::MaxThroughput:
        break;
    }
    return {p99, energy, own, own, double(c.index)};
}

/// Two estimates are indistinguishable when their difference lies within the combined
/// half-width of their 95% intervals (a two-sample test at about the 5% level).
bool indistinguishable(const Ranked& a, const Ranked& b)
{
    if (!std::isfinite(a.value) || !std::isfinite(b.value))
        return a.value == b.value;
    return std::abs(a.value - b.value) <= std::hypot(a.halfWidth, b.halfWidth);
}

const char* secondaryText(RegionObjective objective)
{
    switch (objective) {
    case RegionObjective::MinEnergy:
        return "lower p99, then more throughput";
    case RegionObjective::MinP99:
        return "lower energy per inference, then more throughput";
    case RegionObjective::MaxThroughput:
        break;
    }
    return "lower p99, then lower energy per inference";
}

std::string describe(const RegionCell& c, RegionObjective objective, std::size_t feasible,
                     std::size_t tied)
{
    std::ostringstream out;
    out.precision(4);
    switch (objective) {
    case RegionObjective::MaxThroughput:
        if (std::isfinite(c.metrics.offeredRatePerS))
            out << "highest throughput (" << c.metrics.offeredRatePerS << " req/s offered, "
                << c.metrics.throughputPerS.value << " measured)";
        else
            out << "highest throughput (" << c.metrics.throughputPerS.value << " req/s)";
        break;
    case RegionObjective::MinEnergy:
        out << "lowest energy per inference (" << c.metrics.energyPerInferenceJ.value * 1000.0
            << " mJ)";
        break;
    case RegionObjective::MinP99:
        out << "lowest p99 latency (" << c.metrics.p99S.value * 1000.0 << " ms)";
        break;
    }
    out << " among " << feasible << " feasible cell(s)";
    if (tied > 1)
        out << "; " << tied << " cells are statistically indistinguishable on it (95% "
            << "intervals), chosen among them by " << secondaryText(objective);
    return out.str();
}

} // namespace

std::optional<Recommendation> recommend(const RegionResult& result, RegionObjective objective)
{
    std::vector<const RegionCell*> feasible;
    const RegionCell* best = nullptr;
    for (const auto& c : result.cells) {
        if (c.status != CellStatus::Feasible)
            continue;
        feasible.push_back(&c);
        const double v = objectiveOf(c, objective).value;
        if (!best || v < objectiveOf(*best, objective).value ||
            (v == objectiveOf(*best, objective).value &&
             secondaryKey(c, objective) < secondaryKey(*best, objective)))
            best = &c;
    }
    if (!best)
        return std::nullopt;
    const Ranked top = objectiveOf(*best, objective);
    Recommendation r;
    r.objective = objective;
    const RegionCell* chosen = best;
    for (const RegionCell* c : feasible) {
        if (!indistinguishable(objectiveOf(*c, objective), top))
            continue;
        r.indistinguishableCells.push_back(c->index);
        if (secondaryKey(*c, objective) < secondaryKey(*chosen, objective))
            chosen = c;
    }
    r.cell = chosen->index;
    r.reason = describe(*chosen, objective, feasible.size(), r.indistinguishableCells.size());
    return r;
}

} // namespace bs::analysis
