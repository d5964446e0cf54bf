// The LLM server's curve pack in the report (llmcurvepacksection.h).
#include "playbook/llmcurvepacksection.h"

#include "analysis/llmregionpack.h"
#include "analysis/projectregion.h"
#include "playbook/evidence.h"

#include <cmath>
#include <filesystem>
#include <utility>

namespace bs::playbook {

namespace {

using analysis::LlmConstraint;
using analysis::LlmRegionResult;

/// How a limit reads: its name, its unit, and whether it caps the value (else a demand).
struct LimitWords
{
    const char* name;
    const char* unit;
    bool upper;
};

LimitWords limitWords(LlmConstraint kind)
{
    switch (kind) {
    case LlmConstraint::TtftP99:
        return {"TTFT p99", "ms", true};
    case LlmConstraint::TpotP99:
        return {"TPOT p99", "ms", true};
    case LlmConstraint::ItlP99:
        return {"ITL p99", "ms", true};
    case LlmConstraint::E2eP99:
        return {"E2E p99", "ms", true};
    case LlmConstraint::OutputTokens:
        return {"output tokens/s", "tokens/s", false};
    case LlmConstraint::Goodput:
        return {"goodput", "req/s", false};
    case LlmConstraint::Preemptions:
        return {"preemptions per request", "", true};
    case LlmConstraint::PowerPerGpu:
        return {"power per GPU", "W", true};
    case LlmConstraint::EnergyPerToken:
        return {"energy per output token", "J", true};
    case LlmConstraint::Temperature:
        return {"peak temperature", "°C", true};
    case LlmConstraint::Refused:
        return {"refused up front", "", true};
    case LlmConstraint::None:
        break;
    }
    return {"none", "", true};
}

std::string boundText(LlmConstraint kind, double limit)
{
    const LimitWords words = limitWords(kind);
    return std::string(words.upper ? "≤ " : "≥ ") + formatValue(limit, words.unit);
}

/// "TTFT p99 ≤ 2000 ms, TPOT p99 ≤ 25 ms, output tokens/s ≥ 150 tokens/s".
std::string limitsText(const analysis::LlmRegionLimits& l)
{
    const std::pair<LlmConstraint, std::optional<double>> limits[] = {
        {LlmConstraint::TtftP99, l.ttftP99Ms},
        {LlmConstraint::TpotP99, l.tpotP99Ms},
        {LlmConstraint::ItlP99, l.maxItlP99Ms},
        {LlmConstraint::E2eP99, l.maxE2eP99Ms},
        {LlmConstraint::OutputTokens, l.minOutputTokensPerS},
        {LlmConstraint::Goodput, l.minGoodputPerS},
        {LlmConstraint::Preemptions, l.maxPreemptionsPerRequest},
        {LlmConstraint::PowerPerGpu, l.maxPowerPerGpuW},
        {LlmConstraint::EnergyPerToken, l.maxEnergyPerOutputTokenJ},
        {LlmConstraint::Temperature, l.maxTemperatureC},
    };
    std::string text;
    for (const auto& [kind, limit] : limits)
        if (limit)
            text += (text.empty() ? "" : ", ") + std::string(limitWords(kind).name) + " " +
                    boundText(kind, *limit);
    return text;
}

/// The knobs of a cell on the axes the grid has ("max_num_seqs 16, max_num_batched_tokens 256,
/// rate_per_s 10"); the two engine knobs always.
std::string knobsText(const analysis::LlmRegionSpec& spec, const analysis::LlmCellKnobs& k)
{
    using analysis::LlmAxis;
    std::string text;
    const auto add = [&](LlmAxis axis, const std::string& value) {
        if (axis == LlmAxis::MaxNumSeqs || axis == LlmAxis::MaxNumBatchedTokens ||
            analysis::hasLlmAxis(spec, axis))
            text += (text.empty() ? "" : ", ") + std::string(analysis::llmAxisName(spec, axis)) +
                    " " + value;
    };
    add(LlmAxis::TensorParallel, std::to_string(k.tensorParallel));
    add(LlmAxis::PowerCapW, formatValue(k.powerCapW, "W"));
    add(LlmAxis::Replicas, std::to_string(k.replicas));
    add(LlmAxis::GpuMemoryUtilization, formatNumber(k.gpuMemoryUtilization));
    add(LlmAxis::MaxNumSeqs, std::to_string(k.maxNumSeqs));
    add(LlmAxis::MaxNumBatchedTokens, std::to_string(k.maxNumBatchedTokens));
    add(LlmAxis::Load, formatNumber(k.load));
    return text;
}

std::string countsText(const LlmRegionResult& r)
{
    return std::to_string(r.cells.size()) + " (" + std::to_string(r.feasible) + " feasible, " +
           std::to_string(r.infeasible) + " infeasible, " + std::to_string(r.refused) +
           " refused up front; " + std::to_string(r.notConfident) + " not confident)";
}

std::string metricsText(const analysis::LlmCellMetrics& m)
{
    std::string text = formatValue(m.outputTokensPerS.value, "output tokens/s") + ", TTFT p99 " +
                       formatValue(m.ttftP99Ms.value, "ms") + ", TPOT p99 " +
                       formatValue(m.tpotP99Ms.value, "ms") + ", goodput " +
                       formatValue(m.goodputPerS.value, "req/s");
    // Power and energy exist only with a power model (roofline step).
    if (std::isfinite(m.powerPerGpuW.value))
        text += ", " + formatValue(m.powerPerGpuW.value, "W per GPU");
    if (std::isfinite(m.energyPerOutputTokenJ.value))
        text += ", " + formatValue(m.energyPerOutputTokenJ.value * 1e3, "mJ per output token");
    return text;
}

std::string capitalised(std::string text)
{
    if (!text.empty() && text[0] >= 'a' && text[0] <= 'z')
        text[0] = char(text[0] - 'a' + 'A');
    return text;
}

std::string marginText(double margin)
{
    return std::isfinite(margin) ? formatNumber(margin * 100.0) + "%" : formatNumber(margin);
}

ReportKeyValues recommendation(const LlmRegionResult& r)
{
    ReportKeyValues out;
    out.entries.emplace_back("Cells", countsText(r));
    out.entries.emplace_back("Limits", limitsText(r.spec.limits));
    const analysis::LlmRegionCell* cell = r.recommended();
    if (!cell) {
        // Cells whose interval straddles a limit are never recommended: more replications
        // decide them.
        out.entries.emplace_back(
            "Recommendation",
            "none: no configuration is confidently feasible under every limit" +
                (r.notConfident > 0 ? "; " + std::to_string(r.notConfident) +
                                          " cells are not confident: more replications in the "
                                          "scenario would decide them"
                                    : std::string()));
        return out;
    }
    out.entries.emplace_back("Recommendation (" +
                                 std::string(analysis::llmObjectiveName(r.spec.objective)) + ")",
                             knobsText(r.spec, cell->knobs));
    out.entries.emplace_back("At that point", metricsText(cell->metrics));
    out.entries.emplace_back("Evidence", analysis::llmCellEvidence(r.spec, *cell));
    out.entries.emplace_back("Binding limit", std::string(limitWords(cell->binding).name) +
                                                  " (met first: the smallest margin)");
    out.entries.emplace_back("Why", r.recommendation->reason);
    return out;
}

/// Every check of the recommended cell: how far it is from its limit.
ReportTable headroom(const analysis::LlmRegionCell& cell)
{
    ReportTable table;
    table.caption = "Headroom of the recommended configuration:";
    table.columns = {"Check", "Value", "95% interval", "Limit", "Margin", "Verdict"};
    table.statusColumn = 5;
    for (const auto& check : cell.checks) {
        const LimitWords words = limitWords(check.kind);
        const bool interval = std::isfinite(check.ciLow) && std::isfinite(check.ciHigh);
        table.rows.push_back(
            {capitalised(words.name) + (check.kind == cell.binding ? " (binding)" : ""),
             formatValue(check.value, words.unit),
             interval ? formatNumber(check.ciLow) + " to " + formatValue(check.ciHigh, words.unit)
                      : "none (one deterministic replay)",
             boundText(check.kind, check.limit), marginText(check.margin),
             check.satisfied ? "pass" : "fail"});
    }
    table.note = "Margin: (limit − value) / limit for a cap, (value − limit) / limit for a "
                 "demand.";
    return table;
}

/// "cells.csv" → "<stem>-llm-cells.csv": the batch policy curve pack attaches
/// "<stem>-cells.csv" beside the same report, so the LLM pack's files say whose they are.
std::string attachmentName(const std::string& fileStem, const std::string& file)
{
    return fileStem + "-" + (file.rfind("llm-", 0) == 0 ? file : "llm-" + file);
}

} // namespace

Expected<std::optional<LlmCurvePack>> computeLlmCurvePack(const data::Project& project,
                                                          const std::string& projectPath,
                                                          std::size_t threads, Progress& progress,
                                                          const CancelToken& cancel)
{
    auto spec = analysis::llmRegionSpecOfProject(project, projectPath);
    if (!spec)
        return std::optional<LlmCurvePack>(LlmCurvePack{std::nullopt, spec.error().toString()});
    if (!*spec)
        return std::optional<LlmCurvePack>();
    analysis::LlmRegionOptions options;
    // The scenario's replay file and profiles are written relative to the project file.
    options.baseDirectory = std::filesystem::path(projectPath).parent_path().string();
    options.threads = threads;
    const std::size_t cells = analysis::llmCellCount(**spec);
    progress.setPhase("LLM curve pack", cells);
    auto region = analysis::computeLlmRegion(**spec, options, cancel);
    if (!region && region.error().code == ErrorCode::Cancelled)
        return region.error();
    progress.advanceTo(cells);
    if (!region)
        return std::optional<LlmCurvePack>(LlmCurvePack{std::nullopt, region.error().toString()});
    return std::optional<LlmCurvePack>(LlmCurvePack{std::move(*region), {}});
}

ReportSection llmCurvePackSection(const LlmCurvePack& pack, const std::string& fileStem,
                                  std::vector<ReportAttachment>& attachments)
{
    ReportSection section{"llm-curve-pack", "LLM curve pack", std::nullopt, {}, {}};
    if (!pack.region) {
        section.blocks.push_back(
            ReportParagraph{"No LLM curve pack: " + pack.note, ParagraphStyle::Warning});
        return section;
    }
    const LlmRegionResult& r = *pack.region;
    section.blocks.push_back(ReportParagraph{
        "Operating regions of the LLM server the project studies: every cell is a simulation of "
        "its scenario (seed " +
            std::to_string(r.spec.scenario.seed) +
            ") with that cell's engine knobs and load, checked against every limit.",
        ParagraphStyle::Normal});
    section.blocks.push_back(recommendation(r));
    if (const analysis::LlmRegionCell* cell = r.recommended())
        section.blocks.push_back(headroom(*cell));
    int index = 0;
    for (auto& plot : analysis::llmRegionFigures(r))
        section.blocks.push_back(
            ReportFigure{"llm-curve-pack-fig" + std::to_string(++index), std::move(plot.figure)});
    for (auto& [file, content] : analysis::llmCurvePackFiles(r, false))
        attachments.push_back(
            {attachmentName(fileStem, file), std::move(content), "LLM curve pack: " + file});
    if (r.recommended()) {
        section.blocks.push_back(ReportParagraph{"The recommended cell runs again (one replica, "
                                                 "the same seed and knobs; its paths are "
                                                 "absolute) with:",
                                                 ParagraphStyle::Normal});
        section.blocks.push_back(
            ReportCode{"batchscope-cli simulate " +
                           attachmentName(fileStem, "recommended-scenario.json") + " --json",
                       "sh", "Command"});
    }
    return section;
}

nlohmann::json llmCurvePackJson(const LlmCurvePack& pack)
{
    return pack.region ? analysis::llmRegionToJson(*pack.region)
                       : nlohmann::json{{"note", pack.note}};
}

} // namespace bs::playbook
