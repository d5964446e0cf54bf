// The LLM region as JSON and as a curve pack (llmregionpack.h).
#include "analysis/llmregionpack.h"

#include "analysis/packtext.h"
#include "figure/figure.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/modelshape.h"

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
    json out = json::object();
    for (const auto& [name, field] : llmMetricFields())
        out[name] = estimateJson(m.*field);
    return out;
}

json knobsJson(const LlmCellKnobs& k)
{
    return {{"tensor_parallel", k.tensorParallel},
            {"power_cap_w", number(k.powerCapW)},
            {"replicas", k.replicas},
            {"gpu_memory_utilization", number(k.gpuMemoryUtilization)},
            {"max_num_seqs", k.maxNumSeqs},
            {"max_num_batched_tokens", k.maxNumBatchedTokens},
            {"load", number(k.load)}};
}

json cellJson(const LlmRegionSpec& spec, const LlmRegionCell& c)
{
    json checks = json::array();
    for (const auto& check : c.checks)
        checks.push_back(checkJson(check));
    return {
        {"index", c.index},
        {"knobs", knobsJson(c.knobs)},
        {"status", llmCellStatusName(c.status)},
        {"confident", c.confident},
        {"binding", llmConstraintName(c.binding)},
        {"checks", checks},
        {"metrics", c.status == LlmCellStatus::Refused ? json(nullptr) : metricsJson(c.metrics)},
        {"replications", c.replications},
        {"requests", c.requests},
        {"evidence", llmCellEvidence(spec, c)},
        {"pareto", c.pareto},
        {"note", c.note}};
}

json loadHeadroomJson(const LlmRegionResult& r, const LlmRegionCell& cell)
{
    const auto& h = r.recommendation->loadHeadroom;
    if (!h)
        return nullptr;
    return {{"multiplier", h->multiplier},
            {"failing_multiplier", number(h->failingMultiplier)},
            {"max_rate_per_s", number(llmOfferedRatePerS(r.spec, cell.index, h->multiplier))},
            {"binding", llmConstraintName(h->binding)},
            {"failing_undecided", h->failingUndecided},
            {"simulations", h->simulations},
            {"converged", h->converged},
            {"note", h->note}};
}

json recommendationJson(const LlmRegionResult& r)
{
    const LlmRegionCell* cell = r.recommended();
    if (!cell)
        return nullptr;
    json headroom = json::object();
    for (const auto& check : cell->checks)
        headroom[llmConstraintName(check.kind)] = number(check.margin);
    return {{"cell", cellJson(r.spec, *cell)},
            {"indistinguishable_cells", r.recommendation->indistinguishableCells},
            {"reason", r.recommendation->reason},
            {"headroom_margins", headroom},
            {"load_headroom", loadHeadroomJson(r, *cell)}};
}

json capacityJson(const LlmRegionResult& r)
{
    json out = json::array();
    for (const auto& c : r.capacity) {
        const auto cellIndex = [](const std::optional<std::size_t>& i) {
            return i ? json(*i) : json(nullptr);
        };
        out.push_back({{"configuration", c.configuration},
                       {"knobs", knobsJson(c.knobs)},
                       {"capacity_cell", cellIndex(c.capacityCell)},
                       {"first_failing_cell", cellIndex(c.firstFailingCell)},
                       {"failing_binding", llmConstraintName(c.failingBinding)},
                       {"non_monotone", c.nonMonotone},
                       {"note", c.note}});
    }
    return out;
}

/// A path the scenario gave relative to its folder, made absolute: the reproducer lives in the
/// pack folder and must read the same files.
void resolve(std::string& path, const std::string& baseDirectory)
{
    if (path.empty() || llmsim::isBuiltinModelConfig(path) ||
        std::filesystem::path(path).is_absolute())
        return;
    path = std::filesystem::absolute(std::filesystem::path(baseDirectory) / path)
               .lexically_normal()
               .string();
}

std::vector<std::string> knobCells(const LlmCellKnobs& k)
{
    return {std::to_string(k.tensorParallel),
            packNumber(k.powerCapW),
            std::to_string(k.replicas),
            packNumber(k.gpuMemoryUtilization),
            std::to_string(k.maxNumSeqs),
            std::to_string(k.maxNumBatchedTokens),
            packNumber(k.load)};
}

std::vector<std::string> knobHeader(const LlmRegionSpec& spec)
{
    return {"tensor_parallel",
            "power_cap_w",
            "replicas",
            "gpu_memory_utilization",
            "max_num_seqs",
            "max_num_batched_tokens",
            llmAxisName(spec, LlmAxis::Load)};
}

} // namespace

std::vector<std::pair<const char*, sim::Estimate LlmCellMetrics::*>> llmMetricFields()
{
    return {{"ttft_p99_ms", &LlmCellMetrics::ttftP99Ms},
            {"tpot_p99_ms", &LlmCellMetrics::tpotP99Ms},
            {"ttft_mean_ms", &LlmCellMetrics::ttftMeanMs},
            {"tpot_mean_ms", &LlmCellMetrics::tpotMeanMs},
            {"itl_p99_ms", &LlmCellMetrics::itlP99Ms},
            {"e2e_p99_ms", &LlmCellMetrics::e2eP99Ms},
            {"output_tokens_per_s", &LlmCellMetrics::outputTokensPerS},
            {"goodput_per_s", &LlmCellMetrics::goodputPerS},
            {"preemptions_per_request", &LlmCellMetrics::preemptionsPerRequest},
            {"kv_use_peak", &LlmCellMetrics::peakKvUse},
            {"power_per_gpu_w", &LlmCellMetrics::powerPerGpuW},
            {"energy_per_output_token_j", &LlmCellMetrics::energyPerOutputTokenJ},
            {"temperature_peak_c", &LlmCellMetrics::peakTemperatureC}};
}

llmsim::LlmScenario llmReproducerScenario(const LlmRegionResult& r, const LlmRegionCell& cell)
{
    auto scenario = llmCellScenario(r.spec, cell.index);
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
        cells.push_back(cellJson(r.spec, c));
    json out = {{"kind", "batchscope.llmregion.result"},
                {"schema", 2},
                {"scenario", llmsim::llmScenarioToJson(r.spec.scenario)},
                {"base_directory", r.baseDirectory}};
    const json spec = llmRegionSpecToJson(r.spec);
    for (const char* key : {"axes", "limits", "objective"})
        out[key] = spec.at(key);
    if (r.isShard()) {
        out["shard"] = {{"index", r.shardIndex}, {"count", r.shardCount}};
        out["cells"] = cells;
        return out;
    }
    out["summary"] = {{"feasible", r.feasible},
                      {"infeasible", r.infeasible},
                      {"refused", r.refused},
                      {"not_confident", r.notConfident}};
    out["cells"] = cells;
    out["recommendation"] = recommendationJson(r);
    out["capacity"] = capacityJson(r);
    out["pareto"] = r.pareto;
    return out;
}

std::string llmCellsCsv(const LlmRegionResult& r)
{
    CsvWriter csv;
    std::vector<std::string> header = {"index"};
    for (const auto& name : knobHeader(r.spec))
        header.push_back(name);
    for (const char* name : {"status", "binding", "confident"})
        header.emplace_back(name);
    for (const auto& [name, field] : llmMetricFields()) {
        header.emplace_back(name);
        header.push_back(std::string(name) + "_ci_low");
        header.push_back(std::string(name) + "_ci_high");
    }
    std::vector<LlmConstraint> constraints;
    if (!r.cells.empty())
        for (const auto& c : r.cells)
            if (c.status != LlmCellStatus::Refused) {
                for (const auto& check : c.checks)
                    constraints.push_back(check.kind);
                break;
            }
    for (auto kind : constraints)
        header.push_back(std::string("margin_") + llmConstraintName(kind));
    for (const char* name :
         {"recommended", "pareto", "replications", "requests", "evidence", "note"})
        header.emplace_back(name);
    csv.row(header);
    const LlmRegionCell* recommended = r.recommended();
    for (const auto& c : r.cells) {
        std::vector<std::string> row = {std::to_string(c.index)};
        for (auto& text : knobCells(c.knobs))
            row.push_back(std::move(text));
        row.push_back(llmCellStatusName(c.status));
        row.push_back(llmConstraintName(c.binding));
        row.push_back(c.confident ? "true" : "false");
        for (const auto& [name, field] : llmMetricFields()) {
            const sim::Estimate& e = c.metrics.*field;
            row.push_back(packNumber(e.value));
            row.push_back(packNumber(e.ciLow));
            row.push_back(packNumber(e.ciHigh));
        }
        for (auto kind : constraints) {
            double margin = NAN;
            for (const auto& check : c.checks)
                margin = check.kind == kind ? check.margin : margin;
            row.push_back(packNumber(margin));
        }
        row.push_back(recommended == &c ? "true" : "false");
        row.push_back(c.pareto ? "true" : "false");
        row.push_back(std::to_string(c.replications));
        row.push_back(std::to_string(c.requests));
        row.push_back(llmCellEvidence(r.spec, c));
        row.push_back(c.note);
        csv.row(row);
    }
    return csv.take();
}

std::string llmCapacityCsv(const LlmRegionResult& r)
{
    CsvWriter csv;
    std::vector<std::string> header = {"configuration"};
    for (const auto& name : knobHeader(r.spec))
        header.push_back(name == llmAxisName(r.spec, LlmAxis::Load) ? "capacity_" + name : name);
    for (const char* name : {"output_tokens_per_s_at_capacity", "first_failing_load",
                             "failing_binding", "non_monotone", "note"})
        header.emplace_back(name);
    csv.row(header);
    for (const auto& c : r.capacity) {
        std::vector<std::string> row = {std::to_string(c.configuration)};
        for (auto& text : knobCells(c.knobs))
            row.push_back(std::move(text));
        row.push_back(c.capacityCell
                          ? packNumber(r.cells[*c.capacityCell].metrics.outputTokensPerS.value)
                          : "");
        row.push_back(c.firstFailingCell ? packNumber(r.cells[*c.firstFailingCell].knobs.load)
                                         : "");
        row.push_back(c.firstFailingCell ? llmConstraintName(c.failingBinding) : "");
        row.push_back(c.nonMonotone ? "true" : "false");
        row.push_back(c.note);
        csv.row(row);
    }
    return csv.take();
}

std::string llmParetoCsv(const LlmRegionResult& r)
{
    CsvWriter csv;
    std::vector<std::string> header = {"index"};
    for (const auto& name : knobHeader(r.spec))
        header.push_back(name);
    for (const char* name : {"output_tokens_per_s", "ttft_p99_ms", "tpot_p99_ms",
                             "energy_per_output_token_j", "recommended"})
        header.emplace_back(name);
    csv.row(header);
    for (std::size_t i : r.pareto) {
        const LlmRegionCell& c = r.cells[i];
        std::vector<std::string> row = {std::to_string(c.index)};
        for (auto& text : knobCells(c.knobs))
            row.push_back(std::move(text));
        row.push_back(packNumber(c.metrics.outputTokensPerS.value));
        row.push_back(packNumber(c.metrics.ttftP99Ms.value));
        row.push_back(packNumber(c.metrics.tpotP99Ms.value));
        row.push_back(packNumber(c.metrics.energyPerOutputTokenJ.value));
        row.push_back(r.recommended() == &c ? "true" : "false");
        csv.row(row);
    }
    return csv.take();
}

std::vector<std::pair<std::string, std::string>> llmCurvePackFiles(const LlmRegionResult& result,
                                                                   bool withPlots)
{
    // Shards of one array share a folder: each names its slice.
    const std::string resultName = result.isShard()
                                       ? "llm-region-shard-" + std::to_string(result.shardIndex) +
                                             "-of-" + std::to_string(result.shardCount) + ".json"
                                       : "llm-region.json";
    std::vector<std::pair<std::string, std::string>> files = {
        {resultName, llmRegionToJson(result).dump(2) + "\n"}};
    if (result.isShard())
        return files;
    files.emplace_back("cells.csv", llmCellsCsv(result));
    if (hasLlmAxis(result.spec, LlmAxis::Load))
        files.emplace_back("capacity.csv", llmCapacityCsv(result));
    files.emplace_back("pareto.csv", llmParetoCsv(result));
    files.emplace_back("recommendation.json", recommendationJson(result).dump(2) + "\n");
    if (withPlots)
        for (const auto& named : llmRegionFigures(result))
            files.emplace_back(named.name + ".svg", figure::renderFigureSvg(named.figure));
    if (const LlmRegionCell* cell = result.recommended())
        files.emplace_back("recommended-scenario.json",
                           llmsim::llmScenarioToJson(llmReproducerScenario(result, *cell)).dump(2) +
                               "\n");
    return files;
}

Expected<std::vector<std::string>> writeLlmCurvePack(const LlmRegionResult& result,
                                                     const std::string& folder)
{
    if (auto status = makePackFolder(folder); !status)
        return status.error();
    std::vector<std::string> written;
    for (const auto& [name, content] : llmCurvePackFiles(result, true)) {
        if (auto status = writePackFile(std::filesystem::path(folder) / name, content); !status)
            return status.error();
        written.push_back(name);
    }
    return written;
}

} // namespace bs::analysis
