// The LLM region as JSON and as a curve pack (llmregionpack.h).
#include "analysis/llmregionpack.h"

#include "analysis/packtext.h"
#include "llmsim/llmscenariojson.h"

#include <cmath>
#include <filesystem>

namespace bs::analysis {

namespace {

using nlohmann::json;

json number(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

json estimateJson(const sim::Estimate& e)
{
    return json::array({number(e.value), number(e.ciLow), number(e.ciHigh)});
}

json checkJson(const LlmCheck& c)
{
    return {{"constraint", llmConstraintName(c.kind)},
            {"value", number(c.value)},
            {"ci95", json::array({number(c.ciLow), number(c.ciHigh)})},
            {"limit", c.limit},
            {"margin", number(c.margin)},
            {"satisfied", c.satisfied},
            {"decided", c.decided}};
}

json metricsJson(const LlmCellMetrics& m)
{
    return {{"ttft_p99_ms", estimateJson(m.ttftP99Ms)},
            {"tpot_p99_ms", estimateJson(m.tpotP99Ms)},
            {"ttft_mean_ms", estimateJson(m.ttftMeanMs)},
            {"tpot_mean_ms", estimateJson(m.tpotMeanMs)},
            {"output_tokens_per_s", estimateJson(m.outputTokensPerS)},
            {"goodput_per_s", estimateJson(m.goodputPerS)},
            {"preemptions_per_request", estimateJson(m.preemptionsPerRequest)},
            {"kv_use_peak", estimateJson(m.peakKvUse)}};
}

json cellJson(const LlmRegionCell& c)
{
    json checks = json::array();
    for (const auto& check : c.checks)
        checks.push_back(checkJson(check));
    return {
        {"index", c.index},
        {"max_num_seqs", c.maxNumSeqs},
        {"max_num_batched_tokens", c.maxNumBatchedTokens},
        {"status", llmCellStatusName(c.status)},
        {"confident", c.confident},
        {"binding", llmConstraintName(c.binding)},
        {"checks", checks},
        {"metrics", c.status == LlmCellStatus::Refused ? json(nullptr) : metricsJson(c.metrics)},
        {"replications", c.replications},
        {"note", c.note}};
}

json recommendationJson(const LlmRegionResult& r)
{
    const LlmRegionCell* cell = r.recommended();
    if (!cell)
        return nullptr;
    json headroom = json::object();
    for (const auto& check : cell->checks)
        headroom[llmConstraintName(check.kind)] = number(check.margin);
    return {{"cell", cellJson(*cell)},
            {"indistinguishable_cells", r.recommendation->indistinguishableCells},
            {"reason", r.recommendation->reason},
            {"headroom_margins", headroom}};
}

json limitsJson(const LlmRegionLimits& l)
{
    return {{"ttft_p99_ms", l.ttftP99Ms},
            {"tpot_p99_ms", l.tpotP99Ms},
            {"min_output_tokens_per_s",
             l.minOutputTokensPerS ? json(*l.minOutputTokensPerS) : json(nullptr)},
            {"max_preemptions_per_request",
             l.maxPreemptionsPerRequest ? json(*l.maxPreemptionsPerRequest) : json(nullptr)}};
}

std::string ms(const sim::Estimate& e, double sim::Estimate::*field)
{
    return packNumber(e.*field);
}

/// A path the scenario gave relative to its folder, made absolute: the reproducer lives in the
/// pack folder and must read the same files.
void resolve(std::string& path, const std::string& baseDirectory)
{
    if (path.empty() || std::filesystem::path(path).is_absolute())
        return;
    path = std::filesystem::absolute(std::filesystem::path(baseDirectory) / path)
               .lexically_normal()
               .string();
}

} // namespace

llmsim::LlmScenario llmReproducerScenario(const LlmRegionResult& r, const LlmRegionCell& cell)
{
    auto scenario = llmCellScenario(r.spec, cell.seqsIndex, cell.budgetIndex);
    resolve(scenario.arrivals.file, r.baseDirectory);
    resolve(scenario.step.profileDirectory, r.baseDirectory);
    resolve(scenario.step.modelConfig, r.baseDirectory);
    if (scenario.engine.kvMemory)
        resolve(scenario.engine.kvMemory->modelConfig, r.baseDirectory);
    return scenario;
}

json llmRegionToJson(const LlmRegionResult& r)
{
    json cells = json::array();
    for (const auto& c : r.cells)
        cells.push_back(cellJson(c));
    return {{"kind", "batchscope.llmregion.result"},
            {"schema", 1},
            {"scenario", llmsim::llmScenarioToJson(r.spec.scenario)},
            {"max_num_seqs", r.spec.maxNumSeqs},
            {"max_num_batched_tokens", r.spec.maxNumBatchedTokens},
            {"limits", limitsJson(r.spec.limits)},
            {"summary",
             {{"feasible", r.feasible},
              {"infeasible", r.infeasible},
              {"refused", r.refused},
              {"not_confident", r.notConfident}}},
            {"cells", cells},
            {"recommendation", recommendationJson(r)}};
}

std::string llmCellsCsv(const LlmRegionResult& r)
{
    CsvWriter csv;
    std::vector<std::string> header = {"index",  "max_num_seqs", "max_num_batched_tokens",
                                       "status", "binding",      "confident"};
    const auto metrics = [](const LlmCellMetrics& m) {
        return std::vector<std::pair<const char*, const sim::Estimate*>>{
            {"ttft_p99_ms", &m.ttftP99Ms},
            {"tpot_p99_ms", &m.tpotP99Ms},
            {"ttft_mean_ms", &m.ttftMeanMs},
            {"tpot_mean_ms", &m.tpotMeanMs},
            {"output_tokens_per_s", &m.outputTokensPerS},
            {"goodput_per_s", &m.goodputPerS},
            {"preemptions_per_request", &m.preemptionsPerRequest},
            {"kv_use_peak", &m.peakKvUse}};
    };
    for (const auto& [name, estimate] : metrics(LlmCellMetrics())) {
        header.emplace_back(name);
        header.push_back(std::string(name) + "_ci_low");
        header.push_back(std::string(name) + "_ci_high");
    }
    const LlmRegionLimits& l = r.spec.limits;
    std::vector<LlmConstraint> constraints = {LlmConstraint::TtftP99, LlmConstraint::TpotP99};
    if (l.minOutputTokensPerS)
        constraints.push_back(LlmConstraint::OutputTokens);
    if (l.maxPreemptionsPerRequest)
        constraints.push_back(LlmConstraint::Preemptions);
    for (auto kind : constraints)
        header.push_back(std::string("margin_") + llmConstraintName(kind));
    for (const char* name : {"recommended", "replications", "note"})
        header.emplace_back(name);
    csv.row(header);
    const LlmRegionCell* recommended = r.recommended();
    for (const auto& c : r.cells) {
        std::vector<std::string> row = {std::to_string(c.index),
                                        std::to_string(c.maxNumSeqs),
                                        std::to_string(c.maxNumBatchedTokens),
                                        llmCellStatusName(c.status),
                                        llmConstraintName(c.binding),
                                        c.confident ? "true" : "false"};
        for (const auto& [name, e] : metrics(c.metrics)) {
            row.push_back(ms(*e, &sim::Estimate::value));
            row.push_back(ms(*e, &sim::Estimate::ciLow));
            row.push_back(ms(*e, &sim::Estimate::ciHigh));
        }
        for (auto kind : constraints) {
            double margin = NAN;
            for (const auto& check : c.checks)
                margin = check.kind == kind ? check.margin : margin;
            row.push_back(packNumber(margin));
        }
        row.push_back(recommended == &c ? "true" : "false");
        row.push_back(std::to_string(c.replications));
        row.push_back(c.note);
        csv.row(row);
    }
    return csv.take();
}

Expected<std::vector<std::string>> writeLlmCurvePack(const LlmRegionResult& result,
                                                     const std::string& folder)
{
    if (auto status = makePackFolder(folder); !status)
        return status.error();
    std::vector<std::pair<std::string, std::string>> files = {
        {"cells.csv", llmCellsCsv(result)},
        {"recommendation.json", recommendationJson(result).dump(2) + "\n"},
        {"llm-region.json", llmRegionToJson(result).dump(2) + "\n"}};
    if (const LlmRegionCell* cell = result.recommended()) {
        files.emplace_back("recommended-scenario.json",
                           llmsim::llmScenarioToJson(llmReproducerScenario(result, *cell)).dump(2) +
                               "\n");
    }
    std::vector<std::string> written;
    for (const auto& [name, content] : files) {
        if (auto status = writePackFile(std::filesystem::path(folder) / name, content); !status)
            return status.error();
        written.push_back(name);
    }
    return written;
}

} // namespace bs::analysis
