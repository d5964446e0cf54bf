// The batch policy curve pack: CSV tables, region.json and the SVG plots (curvepack.h).
#include "analysis/curvepack.h"

#include "analysis/curvefigures.h"
#include "analysis/packtext.h"

#include <cmath>
#include <filesystem>

namespace bs::analysis {

namespace {

std::string number(double v)
{
    return packNumber(v);
}

std::string milliseconds(double s)
{
    return number(s * 1000.0);
}

/// The axis columns of a cell: each axis's value (a precision name or a number).
void axisFields(const RegionSpec& spec, const std::vector<std::size_t>& axisIndex,
                std::vector<std::string>& out)
{
    for (std::size_t a = 0; a < spec.axes.size(); ++a)
        out.push_back(a < axisIndex.size() ? spec.axes[a].label(axisIndex[a]) : "");
}

void axisHeader(const RegionSpec& spec, std::vector<std::string>& out)
{
    for (const auto& axis : spec.axes)
        out.emplace_back(axisKindName(axis.kind));
}

/// The constraints the spec configures, in checkConstraints order.
std::vector<ConstraintKind> configured(const RegionConstraints& c)
{
    std::vector<ConstraintKind> out = {ConstraintKind::P99};
    if (c.minThroughputPerS)
        out.push_back(ConstraintKind::Throughput);
    if (c.maxPowerW)
        out.push_back(ConstraintKind::Power);
    if (c.maxTemperatureC)
        out.push_back(ConstraintKind::Temperature);
    if (c.maxEnergyPerInferenceJ)
        out.push_back(ConstraintKind::Energy);
    return out;
}

double marginOf(const RegionCell& c, ConstraintKind kind)
{
    for (const auto& check : c.checks) {
        if (check.kind == kind)
            return check.margin;
    }
    return NAN;
}

std::string yesNo(bool v)
{
    return v ? "true" : "false";
}

bool isRecommended(const RegionResult& r, const RegionCell& c)
{
    return r.recommendation && r.recommendation->cell == c.index;
}

} // namespace

std::string cellsCsv(const RegionResult& r)
{
    const auto constraints = configured(r.spec.constraints);
    CsvWriter csv;
    std::vector<std::string> header = {"index"};
    axisHeader(r.spec, header);
    for (const char* name :
         {"status", "binding", "confident", "method", "throughput_per_s", "throughput_ci_low_per_s",
          "throughput_ci_high_per_s", "p99_ms", "p99_ci_low_ms", "p99_ci_high_ms",
          "energy_per_inference_j", "power_per_server_w", "peak_temperature_c", "mean_batch",
          "offered_rate_per_s", "capacity_rate_per_s", "rho"})
        header.emplace_back(name);
    for (auto kind : constraints)
        header.push_back(std::string("margin_") + constraintName(kind));
    for (const char* name : {"pareto_optimal", "recommended", "requests", "replications",
                             "simulated_requests", "note"})
        header.emplace_back(name);
    csv.row(header);
    for (const auto& c : r.cells) {
        const auto& m = c.metrics;
        std::vector<std::string> row = {std::to_string(c.index)};
        axisFields(r.spec, c.axisIndex, row);
        for (std::string v :
             {std::string(cellStatusName(c.status)), std::string(constraintName(c.binding)),
              yesNo(c.confident), std::string(cellMethodName(c.method)),
              number(m.throughputPerS.value), number(m.throughputPerS.ciLow),
              number(m.throughputPerS.ciHigh), milliseconds(m.p99S.value),
              milliseconds(m.p99S.ciLow), milliseconds(m.p99S.ciHigh),
              number(m.energyPerInferenceJ.value), number(m.powerPerServerW.value),
              number(m.peakTemperatureC.value), number(m.meanBatch.value),
              number(m.offeredRatePerS), number(m.capacityRatePerS), number(m.rho)})
            row.push_back(std::move(v));
        for (auto kind : constraints)
            row.push_back(number(marginOf(c, kind)));
        for (std::string v :
             {yesNo(c.paretoOptimal), yesNo(isRecommended(r, c)), std::to_string(c.requests),
              std::to_string(c.replications), std::to_string(c.simulatedRequests), c.note})
            row.push_back(std::move(v));
        csv.row(row);
    }
    return csv.take();
}

std::string paretoCsv(const RegionResult& r)
{
    CsvWriter csv;
    std::vector<std::string> header = {"index"};
    axisHeader(r.spec, header);
    for (const char* name :
         {"status", "throughput_per_s", "p99_ms", "energy_per_inference_j", "recommended"})
        header.emplace_back(name);
    csv.row(header);
    for (std::size_t index : r.paretoCells) {
        const RegionCell* c = r.cell(index);
        if (!c)
            continue;
        std::vector<std::string> row = {std::to_string(index)};
        axisFields(r.spec, c->axisIndex, row);
        for (std::string v :
             {std::string(cellStatusName(c->status)), number(c->metrics.throughputPerS.value),
              milliseconds(c->metrics.p99S.value), number(c->metrics.energyPerInferenceJ.value),
              yesNo(isRecommended(r, *c))})
            row.push_back(std::move(v));
        csv.row(row);
    }
    return csv.take();
}

std::string capacityCsv(const RegionResult& r)
{
    CsvWriter csv;
    std::vector<std::string> header = {"policy"};
    std::vector<std::size_t> policyAxes;
    for (std::size_t a = 0; a < r.spec.axes.size(); ++a) {
        if (!r.spec.axes[a].isRate()) {
            policyAxes.push_back(a);
            header.emplace_back(axisKindName(r.spec.axes[a].kind));
        }
    }
    for (const char* name : {"max_rate_per_s", "infeasible_rate_per_s", "stability_limit_per_s",
                             "binding", "converged", "evaluations", "simulated_requests", "note"})
        header.emplace_back(name);
    csv.row(header);
    for (const auto& p : r.capacity) {
        std::vector<std::string> row = {std::to_string(p.policy)};
        for (std::size_t a : policyAxes)
            row.push_back(a < p.axisIndex.size() ? r.spec.axes[a].label(p.axisIndex[a]) : "");
        for (std::string v :
             {number(p.maxRatePerS), number(p.infeasibleRatePerS), number(p.stabilityLimitPerS),
              std::string(constraintName(p.binding)), yesNo(p.converged),
              std::to_string(p.evaluations), std::to_string(p.simulatedRequests), p.note})
            row.push_back(std::move(v));
        csv.row(row);
    }
    return csv.take();
}

Expected<std::vector<std::string>> writeCurvePack(const RegionResult& result,
                                                  const std::string& folder)
{
    const std::filesystem::path root(folder);
    if (auto status = makePackFolder(folder); !status)
        return status.error();
    std::vector<std::pair<std::string, std::string>> files = {
        {"cells.csv", cellsCsv(result)},
        {"pareto.csv", paretoCsv(result)},
        {"capacity.csv", capacityCsv(result)},
        {"region.json", toJson(result).dump(2) + "\n"},
    };
    for (const auto& named : curvePackFigures(result))
        files.emplace_back(named.name + ".svg", figure::renderFigureSvg(named.figure));
    std::vector<std::string> written;
    for (const auto& [name, content] : files) {
        if (auto status = writePackFile(root / name, content); !status)
            return status.error();
        written.push_back(name);
    }
    return written;
}

} // namespace bs::analysis
