#include "playbook/curvepacksection.h"

#include "analysis/curvefigures.h"
#include "analysis/curvepack.h"
#include "playbook/evidence.h"

namespace bs::playbook {

namespace {

std::string cellPosition(const analysis::RegionResult& region, const analysis::RegionCell& cell)
{
    std::string text;
    for (std::size_t axis = 0; axis < region.spec.axes.size() && axis < cell.axisIndex.size();
         ++axis)
        text += (text.empty() ? "" : ", ") + analysis::axisTitle(region.spec.axes[axis].kind) +
                " " + region.spec.axes[axis].label(cell.axisIndex[axis]);
    return text;
}

ReportKeyValues recommendation(const analysis::RegionResult& region)
{
    ReportKeyValues out;
    const auto& s = region.summary;
    out.entries.emplace_back("Cells", std::to_string(region.cells.size()) + " (" +
                                          std::to_string(s.feasible) + " feasible, " +
                                          std::to_string(s.infeasible) + " infeasible, " +
                                          std::to_string(s.unstable) + " unstable)");
    out.entries.emplace_back("SLA",
                             "p99 ≤ " + formatValue(region.spec.constraints.slaP99S * 1e3, "ms"));
    if (!region.recommendation) {
        out.entries.emplace_back("Recommendation", "none: no cell meets every limit");
        return out;
    }
    const auto& rec = *region.recommendation;
    const auto* cell = region.cell(rec.cell);
    if (!cell)
        return out;
    out.entries.emplace_back("Recommendation (" +
                                 std::string(analysis::objectiveName(rec.objective)) + ")",
                             cellPosition(region, *cell));
    out.entries.emplace_back(
        "At that point",
        formatValue(cell->metrics.throughputPerS.value, "inferences/s") + ", p99 " +
            formatValue(cell->metrics.p99S.value * 1e3, "ms") + ", energy " +
            formatValue(cell->metrics.energyPerInferenceJ.value * 1e3, "mJ/inference"));
    if (rec.headroom) {
        const auto& h = *rec.headroom;
        out.entries.emplace_back("Load headroom",
                                 "×" + formatNumber(h.loadMultiplier) + " (" +
                                     formatValue(h.maxRatePerS, "req/s") + "), then " +
                                     analysis::constraintName(h.loadBinding) + " fails");
        out.entries.emplace_back("Burst headroom",
                                 h.maxArrivalCv > 0
                                     ? "gap CV up to " + formatNumber(h.maxArrivalCv) + " (now " +
                                           formatNumber(h.baseArrivalCv) + ")"
                                     : h.note);
    }
    out.entries.emplace_back("Why", rec.reason);
    return out;
}

} // namespace

ReportSection curvePackSection(const std::optional<analysis::RegionResult>& region,
                               const std::string& note, const std::string& fileStem,
                               std::vector<ReportAttachment>& attachments)
{
    ReportSection section{"curve-pack", "Batch policy curve pack", std::nullopt, {}, {}};
    if (!region) {
        section.blocks.push_back(
            ReportParagraph{"No curve pack: " + note, ParagraphStyle::Warning});
        return section;
    }
    section.blocks.push_back(ReportParagraph{"Feasible operating regions for throughput, latency "
                                             "and power: every cell is a simulation of "
                                             "the project's scenario with that policy (seed " +
                                                 std::to_string(region->spec.scenario.seed) +
                                                 "), checked against every limit.",
                                             ParagraphStyle::Normal});
    section.blocks.push_back(recommendation(*region));
    int index = 0;
    for (auto& plot : analysis::curvePackFigures(*region))
        section.blocks.push_back(
            ReportFigure{"curve-pack-fig" + std::to_string(++index), std::move(plot.figure)});
    const std::pair<const char*, std::string> files[] = {
        {"cells.csv", analysis::cellsCsv(*region)},
        {"pareto.csv", analysis::paretoCsv(*region)},
        {"capacity.csv", analysis::capacityCsv(*region)},
        {"region.json", analysis::toJson(*region).dump(2) + "\n"},
    };
    for (const auto& [name, content] : files)
        attachments.push_back({fileStem + "-" + name, content, std::string("curve pack: ") + name});
    return section;
}

} // namespace bs::playbook
