#include "analysis/regionconstraints.h"

#include <cmath>

namespace bs::analysis {

namespace {

/// NaN-aware equality, so values read back from JSON (null = NaN) compare equal.
bool same(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

bool same(const sim::Estimate& a, const sim::Estimate& b)
{
    return same(a.value, b.value) && same(a.ciLow, b.ciLow) && same(a.ciHigh, b.ciHigh);
}

sim::Estimate scaled(const sim::Estimate& e, double factor)
{
    return {e.value * factor, e.ciLow * factor, e.ciHigh * factor};
}

/// Adds one check. `upper` limits are maxima; otherwise the limit is a minimum.
void addCheck(ConstraintVerdict& out, ConstraintKind kind, const sim::Estimate& estimate,
              double limit, bool upper, bool robust, double halfWidths)
{
    ConstraintCheck check;
    check.kind = kind;
    check.limit = limit;
    const double halfWidth = estimate.halfWidth();
    const bool hasInterval = std::isfinite(halfWidth);
    check.value = estimate.value;
    if (robust && hasInterval)
        check.value = upper ? estimate.ciHigh : estimate.ciLow;
    check.margin = upper ? (limit - check.value) / limit : (check.value - limit) / limit;
    check.satisfied = check.margin >= 0.0;
    check.decided = hasInterval && std::abs(check.value - limit) > halfWidths * halfWidth;
    out.checks.push_back(check);
}

} // namespace

const char* constraintName(ConstraintKind kind)
{
    switch (kind) {
    case ConstraintKind::None:
        return "";
    case ConstraintKind::P99:
        return "p99";
    case ConstraintKind::Throughput:
        return "throughput";
    case ConstraintKind::Power:
        return "power";
    case ConstraintKind::Temperature:
        return "temperature";
    case ConstraintKind::Energy:
        return "energy";
    case ConstraintKind::Stability:
        return "stability";
    }
    return "";
}

std::optional<ConstraintKind> parseConstraint(const std::string& name)
{
    for (auto kind : {ConstraintKind::None, ConstraintKind::P99, ConstraintKind::Throughput,
                      ConstraintKind::Power, ConstraintKind::Temperature, ConstraintKind::Energy,
                      ConstraintKind::Stability}) {
        if (name == constraintName(kind))
            return kind;
    }
    return std::nullopt;
}

bool operator==(const CellMetrics& a, const CellMetrics& b)
{
    return a.stable == b.stable && same(a.offeredRatePerS, b.offeredRatePerS) &&
           same(a.capacityRatePerS, b.capacityRatePerS) && same(a.rho, b.rho) &&
           same(a.throughputPerS, b.throughputPerS) && same(a.p99S, b.p99S) &&
           same(a.energyPerInferenceJ, b.energyPerInferenceJ) &&
           same(a.powerPerServerW, b.powerPerServerW) &&
           same(a.peakTemperatureC, b.peakTemperatureC) && same(a.meanBatch, b.meanBatch);
}

bool operator==(const ConstraintCheck& a, const ConstraintCheck& b)
{
    return a.kind == b.kind && same(a.value, b.value) && same(a.limit, b.limit) &&
           same(a.margin, b.margin) && a.satisfied == b.satisfied && a.decided == b.decided;
}

CellMetrics metricsOf(const sim::Result& result)
{
    CellMetrics out;
    out.stable = result.stability.stable;
    out.offeredRatePerS = result.stability.offeredRatePerS;
    out.capacityRatePerS = result.stability.capacityRatePerS;
    out.rho = result.stability.rho;
    if (!out.stable)
        return out;
    out.throughputPerS = result.throughputPerS;
    out.p99S = result.latency.p99;
    out.meanBatch = result.meanBatchSize;
    if (result.energyPerRequestJ)
        out.energyPerInferenceJ = *result.energyPerRequestJ;
    if (result.meanPowerW)
        out.powerPerServerW = scaled(*result.meanPowerW, 1.0 / result.scenario.servers.count);
    if (result.peakTemperatureC)
        out.peakTemperatureC = *result.peakTemperatureC;
    return out;
}

ConstraintVerdict checkConstraints(const RegionConstraints& c, const CellMetrics& m,
                                   double halfWidths, bool withThroughput)
{
    ConstraintVerdict out;
    if (!m.stable) {
        ConstraintCheck stability;
        stability.kind = ConstraintKind::Stability;
        stability.value = m.rho;
        stability.limit = 1.0;
        stability.margin = 1.0 - m.rho;
        stability.decided = true;
        out.checks.push_back(stability);
        out.binding = ConstraintKind::Stability;
        out.decided = true;
        return out;
    }
    addCheck(out, ConstraintKind::P99, m.p99S, c.slaP99S, true, c.robust, halfWidths);
    if (c.minThroughputPerS && withThroughput)
        addCheck(out, ConstraintKind::Throughput, m.throughputPerS, *c.minThroughputPerS, false,
                 c.robust, halfWidths);
    if (c.maxPowerW)
        addCheck(out, ConstraintKind::Power, m.powerPerServerW, *c.maxPowerW, true, c.robust,
                 halfWidths);
    if (c.maxTemperatureC)
        addCheck(out, ConstraintKind::Temperature, m.peakTemperatureC, *c.maxTemperatureC, true,
                 c.robust, halfWidths);
    if (c.maxEnergyPerInferenceJ)
        addCheck(out, ConstraintKind::Energy, m.energyPerInferenceJ, *c.maxEnergyPerInferenceJ,
                 true, c.robust, halfWidths);
    out.feasible = true;
    const ConstraintCheck* binding = nullptr;
    bool allDecided = true;
    bool violationDecided = false;
    for (const auto& check : out.checks) {
        // A missing value (NaN margin) fails: the cell cannot be shown to meet the limit.
        const bool met = check.satisfied;
        out.feasible = out.feasible && met;
        allDecided = allDecided && check.decided;
        violationDecided = violationDecided || (!met && check.decided);
        // The smallest margin binds; a missing value (NaN) binds before any number.
        const bool tighter = !binding ||
                             (std::isnan(check.margin) && !std::isnan(binding->margin)) ||
                             check.margin < binding->margin;
        if (tighter)
            binding = &check;
    }
    out.binding = binding ? binding->kind : ConstraintKind::None;
    out.decided = out.feasible ? allDecided : violationDecided;
    return out;
}

double minimumMargin(const ConstraintVerdict& verdict)
{
    if (verdict.checks.empty() || verdict.binding == ConstraintKind::Stability)
        return sim::kNaN;
    double lowest = INFINITY;
    for (const auto& check : verdict.checks) {
        if (std::isnan(check.margin))
            return sim::kNaN;
        lowest = std::min(lowest, check.margin);
    }
    return lowest;
}

} // namespace bs::analysis
