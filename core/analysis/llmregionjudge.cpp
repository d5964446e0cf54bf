// Verdicts, recommendation, capacity curves, Pareto front and merging of an LLM region
// (llmregion.h, REGION.md "LLM servers").
#include "analysis/llmregion.h"
#include "analysis/llmregionparts.h"
#include "analysis/pareto.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

namespace bs::analysis {

namespace {

/// One limit against one estimate. `upper`: value <= limit; otherwise value >= limit.
LlmCheck check(LlmConstraint kind, const sim::Estimate& e, double limit, bool upper,
               bool deterministic)
{
    LlmCheck c;
    c.kind = kind;
    c.value = e.value;
    c.ciLow = e.ciLow;
    c.ciHigh = e.ciHigh;
    c.limit = limit;
    if (std::isnan(e.value)) {
        // The metric does not exist (TPOT when every request writes one token): nothing to
        // exceed, so the limit cannot bind.
        c.satisfied = true;
        c.decided = true;
        return c;
    }
    c.margin = upper ? (limit - e.value) / limit : (e.value - limit) / limit;
    c.satisfied = c.margin >= 0.0;
    const bool haveInterval = std::isfinite(e.ciLow) && std::isfinite(e.ciHigh);
    c.decided = haveInterval ? (limit < e.ciLow || limit > e.ciHigh) : deterministic;
    return c;
}

std::vector<LlmCheck> checksOf(const LlmRegionLimits& l, const LlmCellMetrics& m,
                               bool deterministic)
{
    std::vector<LlmCheck> out = {
        check(LlmConstraint::TtftP99, m.ttftP99Ms, l.ttftP99Ms, true, deterministic),
        check(LlmConstraint::TpotP99, m.tpotP99Ms, l.tpotP99Ms, true, deterministic)};
    const auto optional = [&](LlmConstraint kind, const sim::Estimate& e,
                              const std::optional<double>& limit, bool upper) {
        if (limit)
            out.push_back(check(kind, e, *limit, upper, deterministic));
    };
    optional(LlmConstraint::ItlP99, m.itlP99Ms, l.maxItlP99Ms, true);
    optional(LlmConstraint::E2eP99, m.e2eP99Ms, l.maxE2eP99Ms, true);
    optional(LlmConstraint::OutputTokens, m.outputTokensPerS, l.minOutputTokensPerS, false);
    optional(LlmConstraint::Goodput, m.goodputPerS, l.minGoodputPerS, false);
    optional(LlmConstraint::Preemptions, m.preemptionsPerRequest, l.maxPreemptionsPerRequest, true);
    optional(LlmConstraint::PowerPerGpu, m.powerPerGpuW, l.maxPowerPerGpuW, true);
    optional(LlmConstraint::EnergyPerToken, m.energyPerOutputTokenJ, l.maxEnergyPerOutputTokenJ,
             true);
    optional(LlmConstraint::Temperature, m.peakTemperatureC, l.maxTemperatureC, true);
    return out;
}

double halfWidthOrZero(const sim::Estimate& e)
{
    const double hw = e.halfWidth();
    return std::isfinite(hw) ? hw : 0.0;
}

/// The objective as an estimate to maximise (energy is negated).
sim::Estimate objectiveOf(const LlmRegionSpec& spec, const LlmRegionCell& c)
{
    switch (spec.objective) {
    case LlmObjective::MaxOutputTokens:
        return c.metrics.outputTokensPerS;
    case LlmObjective::MaxTokensPerGpu: {
        const double gpus = c.knobs.gpus();
        const auto& e = c.metrics.outputTokensPerS;
        return {e.value / gpus, e.ciLow / gpus, e.ciHigh / gpus};
    }
    case LlmObjective::MinEnergyPerToken: {
        const auto& e = c.metrics.energyPerOutputTokenJ;
        return {-e.value, -e.ciHigh, -e.ciLow};
    }
    }
    return c.metrics.outputTokensPerS;
}

const char* objectiveWords(LlmObjective objective)
{
    switch (objective) {
    case LlmObjective::MaxOutputTokens:
        return "the most output tokens/s";
    case LlmObjective::MaxTokensPerGpu:
        return "the most output tokens/s per GPU";
    case LlmObjective::MinEnergyPerToken:
        return "the least energy per output token";
    }
    return "";
}

void recommend(LlmRegionResult& result)
{
    const LlmRegionSpec& spec = result.spec;
    const LlmRegionCell* best = nullptr;
    for (const auto& c : result.cells) {
        if (meetsConfidently(c) && std::isfinite(objectiveOf(spec, c).value) &&
            (!best || objectiveOf(spec, c).value > objectiveOf(spec, *best).value))
            best = &c;
    }
    if (!best)
        return;
    const sim::Estimate top = objectiveOf(spec, *best);
    LlmRecommendation rec;
    const LlmRegionCell* chosen = nullptr;
    for (const auto& c : result.cells) {
        if (!meetsConfidently(c))
            continue;
        const sim::Estimate mine = objectiveOf(spec, c);
        const double tieWidth = std::max(std::hypot(halfWidthOrZero(top), halfWidthOrZero(mine)),
                                         kLlmObjectiveResolution * std::abs(top.value));
        if (!(top.value - mine.value <= tieWidth))
            continue;
        rec.indistinguishableCells.push_back(c.index);
        if (!chosen || c.metrics.ttftP99Ms.value < chosen->metrics.ttftP99Ms.value)
            chosen = &c;
    }
    rec.cell = chosen->index;
    rec.reason =
        std::string(objectiveWords(spec.objective)) + " among the confident feasible cells";
    if (rec.indistinguishableCells.size() > 1)
        rec.reason += "; " + std::to_string(rec.indistinguishableCells.size()) +
                      " cells are within their 95% intervals or 1% of the best, the lowest "
                      "TTFT p99 among them";
    result.recommendation = std::move(rec);
}

/// One configuration's cells in ascending load.
LlmCapacity capacityOf(const LlmRegionResult& r, std::size_t configuration,
                       std::vector<std::size_t> cells)
{
    std::sort(cells.begin(), cells.end(), [&](std::size_t a, std::size_t b) {
        return r.cells[a].knobs.load < r.cells[b].knobs.load;
    });
    LlmCapacity cap;
    cap.configuration = configuration;
    cap.knobs = r.cells[cells.front()].knobs;
    cap.knobs.load = NAN;
    for (std::size_t i : cells) {
        const LlmRegionCell& c = r.cells[i];
        if (cap.firstFailingCell) {
            cap.nonMonotone = cap.nonMonotone || meetsConfidently(c);
            continue;
        }
        if (meetsConfidently(c)) {
            cap.capacityCell = i;
            cap.knobs.load = c.knobs.load;
        } else {
            cap.firstFailingCell = i;
            cap.failingBinding = c.binding;
        }
    }
    if (!cap.capacityCell)
        cap.note = "even the lowest load fails";
    else if (!cap.firstFailingCell)
        cap.note = "every load met: the capacity is at least the highest load";
    if (cap.firstFailingCell && !r.cells[*cap.firstFailingCell].confident)
        cap.note = "the first failing load is not confidently judged";
    if (cap.nonMonotone)
        cap.note = "a higher load is met again (noise or a non-monotone engine): the capacity "
                   "is read below the first failure";
    return cap;
}

void capacityCurves(LlmRegionResult& r)
{
    if (!hasLlmAxis(r.spec, LlmAxis::Load))
        return;
    std::vector<std::vector<std::size_t>> byConfiguration;
    for (const auto& c : r.cells) {
        if (c.configuration >= byConfiguration.size())
            byConfiguration.resize(c.configuration + 1);
        byConfiguration[c.configuration].push_back(c.index);
    }
    for (std::size_t k = 0; k < byConfiguration.size(); ++k)
        r.capacity.push_back(capacityOf(r, k, byConfiguration[k]));
}

void paretoFrontOf(LlmRegionResult& r)
{
    std::vector<std::size_t> candidates;
    std::vector<std::vector<double>> points;
    for (const auto& c : r.cells) {
        if (!meetsConfidently(c))
            continue;
        const auto& m = c.metrics;
        std::vector<double> p = {-m.outputTokensPerS.value, m.ttftP99Ms.value,
                                 std::isnan(m.tpotP99Ms.value) ? 0.0 : m.tpotP99Ms.value};
        if (std::isfinite(m.energyPerOutputTokenJ.value))
            p.push_back(m.energyPerOutputTokenJ.value);
        candidates.push_back(c.index);
        points.push_back(std::move(p));
    }
    for (std::size_t k : paretoFront(points)) {
        r.pareto.push_back(candidates[k]);
        r.cells[candidates[k]].pareto = true;
    }
}

} // namespace

const char* llmConstraintName(LlmConstraint kind)
{
    switch (kind) {
    case LlmConstraint::None:
        return "none";
    case LlmConstraint::TtftP99:
        return "ttft_p99";
    case LlmConstraint::TpotP99:
        return "tpot_p99";
    case LlmConstraint::ItlP99:
        return "itl_p99";
    case LlmConstraint::E2eP99:
        return "e2e_p99";
    case LlmConstraint::OutputTokens:
        return "output_tokens";
    case LlmConstraint::Goodput:
        return "goodput";
    case LlmConstraint::Preemptions:
        return "preemptions";
    case LlmConstraint::PowerPerGpu:
        return "power";
    case LlmConstraint::EnergyPerToken:
        return "energy_per_token";
    case LlmConstraint::Temperature:
        return "temperature";
    case LlmConstraint::Refused:
        return "refused";
    }
    return "none";
}

const char* llmCellStatusName(LlmCellStatus status)
{
    switch (status) {
    case LlmCellStatus::Feasible:
        return "feasible";
    case LlmCellStatus::Infeasible:
        return "infeasible";
    case LlmCellStatus::Refused:
        return "refused";
    }
    return "refused";
}

void judgeLlmCell(const LlmRegionSpec& spec, LlmRegionCell& cell)
{
    if (cell.pending)
        return;
    cell.checks.clear();
    cell.pareto = false;
    if (cell.status == LlmCellStatus::Refused) {
        cell.binding = LlmConstraint::Refused;
        cell.confident = true;
        return;
    }
    const bool deterministic = spec.scenario.arrivals.kind == llmsim::LlmArrivalSpec::Kind::Replay;
    cell.checks = checksOf(spec.limits, cell.metrics, deterministic);
    const LlmCheck* binding = nullptr;
    bool allSatisfied = true, allDecided = true, violationDecided = false;
    std::string straddled;
    for (const auto& c : cell.checks) {
        allSatisfied = allSatisfied && c.satisfied;
        allDecided = allDecided && c.decided;
        violationDecided = violationDecided || (!c.satisfied && c.decided);
        if (!c.decided)
            straddled += std::string(straddled.empty() ? "" : ", ") + llmConstraintName(c.kind);
        if (!std::isnan(c.margin) && (!binding || c.margin < binding->margin))
            binding = &c;
    }
    cell.status = allSatisfied ? LlmCellStatus::Feasible : LlmCellStatus::Infeasible;
    cell.binding = binding ? binding->kind : LlmConstraint::None;
    cell.confident = allSatisfied ? allDecided : violationDecided;
    cell.note.clear();
    if (!cell.confident)
        cell.note = "not confident: the 95% interval holds the limit of " + straddled + " (" +
                    std::to_string(cell.replications) + " replications)";
}

std::string llmCellEvidence(const LlmRegionSpec& spec, const LlmRegionCell& cell)
{
    if (cell.pending)
        return "pending";
    if (cell.status == LlmCellStatus::Refused)
        return "refused up front, not simulated";
    const bool replay = spec.scenario.arrivals.kind == llmsim::LlmArrivalSpec::Kind::Replay;
    std::string out =
        replay ? "replay of " + std::to_string(cell.requests) + " requests (deterministic)"
               : "simulated, " + std::to_string(cell.replications) + " x " +
                     std::to_string(cell.requests) + " requests";
    if (!cell.confident)
        out += ", not confident";
    // Checked against a real rate sweep (llmsim/README.md, "Validation"), the roofline holds at
    // light load but overstates what a loaded server sustains: the reader must know the step
    // was not fitted to a measurement, or what it was calibrated on.
    const auto& step = spec.scenario.step;
    if (step.kind != llmsim::StepSpec::Kind::Roofline)
        return out;
    if (step.calibratedOn.empty())
        return out + "; roofline step, not calibrated to a measurement";
    out += "; roofline step calibrated on " + step.calibratedOn;
    // A tensor_parallel axis runs the calibrated efficiencies on another GPU count.
    if (cell.knobs.tensorParallel != step.tensorParallel)
        out += " at tensor_parallel " + std::to_string(step.tensorParallel) + ", carried to " +
               std::to_string(cell.knobs.tensorParallel) + " unmeasured";
    return out;
}

void finalizeLlmRegion(LlmRegionResult& result)
{
    result.feasible = result.infeasible = result.refused = result.notConfident = 0;
    result.recommendation.reset();
    result.capacity.clear();
    result.pareto.clear();
    bool pending = false;
    for (const auto& c : result.cells) {
        pending = pending || c.pending;
        if (c.pending)
            continue;
        if (c.status == LlmCellStatus::Refused)
            ++result.refused;
        else
            ++(c.status == LlmCellStatus::Feasible ? result.feasible : result.infeasible);
        result.notConfident += !c.confident;
    }
    recommend(result);
    if (!pending) // a pending load would end a capacity curve too early
        capacityCurves(result);
    paretoFrontOf(result);
}

Expected<LlmRegionResult> mergeLlmRegions(std::vector<LlmRegionResult> shards)
{
    if (shards.empty())
        return makeError(ErrorCode::Usage, "merge: give the shards of one LLM region");
    const std::size_t count = shards.front().shardCount;
    std::vector<bool> seen(count, false);
    for (std::size_t k = 0; k < shards.size(); ++k) {
        const auto& s = shards[k];
        const std::string name = "shards[" + std::to_string(k) + "]";
        if (s.shardCount != count || s.shardIndex >= count)
            return makeError(ErrorCode::Value, name + ": is slice " + std::to_string(s.shardIndex) +
                                                   "/" + std::to_string(s.shardCount) +
                                                   ", the first shard is of " +
                                                   std::to_string(count));
        if (!(s.spec.scenario == shards.front().spec.scenario) ||
            s.spec.maxNumSeqs != shards.front().spec.maxNumSeqs ||
            s.spec.maxNumBatchedTokens != shards.front().spec.maxNumBatchedTokens ||
            s.spec.ratesPerS != shards.front().spec.ratesPerS ||
            s.spec.rateMultipliers != shards.front().spec.rateMultipliers ||
            s.spec.replicas != shards.front().spec.replicas ||
            s.spec.tensorParallel != shards.front().spec.tensorParallel ||
            s.spec.powerCapsW != shards.front().spec.powerCapsW ||
            s.spec.gpuMemoryUtilizations != shards.front().spec.gpuMemoryUtilizations)
            return makeError(ErrorCode::Value,
                             name + ": is a shard of another LLM region (scenario or axes differ)");
        if (seen[s.shardIndex])
            return makeError(ErrorCode::Value,
                             name + ": slice " + std::to_string(s.shardIndex) + " is given twice");
        seen[s.shardIndex] = true;
    }
    for (std::size_t i = 0; i < count; ++i) {
        if (!seen[i])
            return makeError(ErrorCode::Value, "shards: slice " + std::to_string(i) + "/" +
                                                   std::to_string(count) + " is missing");
    }
    LlmRegionResult whole;
    whole.spec = shards.front().spec;
    whole.baseDirectory = shards.front().baseDirectory;
    whole.cells.resize(llmCellCount(whole.spec));
    std::vector<bool> filled(whole.cells.size(), false);
    for (std::size_t k = 0; k < shards.size(); ++k) {
        for (auto& cell : shards[k].cells) {
            if (cell.index >= whole.cells.size() || cell.index % count != shards[k].shardIndex ||
                filled[cell.index])
                return makeError(ErrorCode::Value,
                                 "shards[" + std::to_string(k) + "]: cell " +
                                     std::to_string(cell.index) + " does not belong to slice " +
                                     std::to_string(shards[k].shardIndex) + " or is repeated");
            filled[cell.index] = true;
            whole.cells[cell.index] = std::move(cell);
        }
    }
    if (const auto gap = std::find(filled.begin(), filled.end(), false); gap != filled.end())
        return makeError(ErrorCode::Value, "shards: cell " + std::to_string(gap - filled.begin()) +
                                               " is in no shard (a shard file is incomplete)");
    // The limits and objective are the first shard's; every cell is judged again under them,
    // so shards computed under other limits merge into the same verdicts.
    for (auto& cell : whole.cells)
        judgeLlmCell(whole.spec, cell);
    finalizeLlmRegion(whole);
    return whole;
}

} // namespace bs::analysis
