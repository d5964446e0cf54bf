// Feasible regions of an LLM engine's knobs (llmregion.h, REGION.md "LLM servers").
#include "analysis/llmregion.h"

#include "llmsim/llmsimulator.h"
#include "sim/estimate.h"
#include "util/numbertext.h"
#include "util/threadpool.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

namespace bs::analysis {

namespace {

using llmsim::LlmResult;
using llmsim::ReplicationMetrics;

Status checkAxis(const std::vector<std::int32_t>& values, const char* option, std::int32_t maximum)
{
    if (values.empty())
        return makeError(ErrorCode::Usage, std::string(option) + ": needs at least one value");
    std::set<std::int32_t> seen;
    for (std::int32_t v : values) {
        if (v < 1 || v > maximum)
            return makeError(ErrorCode::Usage, std::string(option) + ": " + std::to_string(v) +
                                                   " is not a whole number from 1 to " +
                                                   std::to_string(maximum));
        if (!seen.insert(v).second)
            return makeError(ErrorCode::Usage,
                             std::string(option) + ": " + std::to_string(v) + " is repeated");
    }
    return {};
}

Status checkLimit(double value, const char* option)
{
    if (!std::isfinite(value) || value <= 0.0)
        return makeError(ErrorCode::Usage, std::string(option) +
                                               ": must be a number above 0 (got " +
                                               significant(value, 6) + ")");
    return {};
}

sim::Estimate estimateOver(const std::vector<ReplicationMetrics>& replications,
                           const std::function<double(const ReplicationMetrics&)>& metric)
{
    std::vector<double> values;
    values.reserve(replications.size());
    for (const auto& m : replications)
        values.push_back(metric(m));
    return sim::estimateOf(values);
}

LlmCellMetrics metricsOf(const LlmResult& result)
{
    const auto& reps = result.replications;
    LlmCellMetrics m;
    m.ttftP99Ms = estimateOver(reps, [](const auto& r) { return r.ttft.p99S * 1e3; });
    m.tpotP99Ms = estimateOver(reps, [](const auto& r) { return r.tpot.p99S * 1e3; });
    m.ttftMeanMs = estimateOver(reps, [](const auto& r) { return r.ttft.meanS * 1e3; });
    m.tpotMeanMs = estimateOver(reps, [](const auto& r) { return r.tpot.meanS * 1e3; });
    m.outputTokensPerS = estimateOver(reps, [](const auto& r) { return r.outputTokensPerS; });
    m.goodputPerS = estimateOver(reps, [](const auto& r) { return r.goodputPerS; });
    m.peakKvUse = estimateOver(reps, [](const auto& r) { return r.peakKvUse; });
    m.preemptionsPerRequest = estimateOver(reps, [](const auto& r) {
        return r.ttft.count ? double(r.preemptions) / double(r.ttft.count) : sim::kNaN;
    });
    return m;
}

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

std::vector<LlmCheck> checksOf(const LlmRegionLimits& limits, const LlmCellMetrics& m,
                               bool deterministic)
{
    std::vector<LlmCheck> out = {
        check(LlmConstraint::TtftP99, m.ttftP99Ms, limits.ttftP99Ms, true, deterministic),
        check(LlmConstraint::TpotP99, m.tpotP99Ms, limits.tpotP99Ms, true, deterministic)};
    if (limits.minOutputTokensPerS)
        out.push_back(check(LlmConstraint::OutputTokens, m.outputTokensPerS,
                            *limits.minOutputTokensPerS, false, deterministic));
    if (limits.maxPreemptionsPerRequest)
        out.push_back(check(LlmConstraint::Preemptions, m.preemptionsPerRequest,
                            *limits.maxPreemptionsPerRequest, true, deterministic));
    return out;
}

/// Status, binding constraint, confidence and the note from the checks.
void judge(LlmRegionCell& cell)
{
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
    if (!cell.confident)
        cell.note = "not confident: the 95% interval holds the limit of " + straddled + " (" +
                    std::to_string(cell.replications) + " replications)";
}

/// The engine's up-front refusal of a load it could never finish under these knobs (a
/// request larger than the token budget without chunking, or than the KV cache): a result of
/// the cell, not a failure of the region. Any other error is the scenario's, for every cell.
bool isRefusal(const Error& error)
{
    return error.code == ErrorCode::Value &&
           error.message.rfind("scenario.arrivals: request", 0) == 0;
}

void recommend(LlmRegionResult& result)
{
    const LlmRegionCell* best = nullptr;
    for (const auto& c : result.cells) {
        if (c.status != LlmCellStatus::Feasible || !c.confident)
            continue;
        if (!best || c.metrics.outputTokensPerS.value > best->metrics.outputTokensPerS.value)
            best = &c;
    }
    if (!best)
        return;
    const auto halfWidth = [](const sim::Estimate& e) {
        const double hw = e.halfWidth();
        return std::isfinite(hw) ? hw : 0.0;
    };
    LlmRecommendation rec;
    const LlmRegionCell* chosen = nullptr;
    for (const auto& c : result.cells) {
        if (c.status != LlmCellStatus::Feasible || !c.confident)
            continue;
        const double gap = best->metrics.outputTokensPerS.value - c.metrics.outputTokensPerS.value;
        if (gap > std::hypot(halfWidth(best->metrics.outputTokensPerS),
                             halfWidth(c.metrics.outputTokensPerS)))
            continue;
        rec.indistinguishableCells.push_back(c.index);
        if (!chosen || c.metrics.ttftP99Ms.value < chosen->metrics.ttftP99Ms.value)
            chosen = &c;
    }
    rec.cell = chosen->index;
    rec.reason = "the most output tokens/s among the confident feasible cells";
    if (rec.indistinguishableCells.size() > 1)
        rec.reason += "; " + std::to_string(rec.indistinguishableCells.size()) +
                      " cells are within their 95% intervals of the best, the lowest TTFT p99 "
                      "among them";
    result.recommendation = std::move(rec);
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
    case LlmConstraint::OutputTokens:
        return "output_tokens";
    case LlmConstraint::Preemptions:
        return "preemptions";
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

Status validate(const LlmRegionSpec& spec)
{
    if (spec.scenario.engine.policy == "sglang")
        return makeError(ErrorCode::Usage,
                         "--max-num-batched-tokens: the sglang policy has no "
                         "max_num_batched_tokens (its budgets are max_prefill_tokens and "
                         "chunked_prefill_size); an LLM region of sglang is not supported yet");
    for (auto status : {checkAxis(spec.maxNumSeqs, "--max-num-seqs", 1 << 20),
                        checkAxis(spec.maxNumBatchedTokens, "--max-num-batched-tokens", 1 << 24),
                        checkLimit(spec.limits.ttftP99Ms, "--sla-ttft-ms"),
                        checkLimit(spec.limits.tpotP99Ms, "--sla-tpot-ms")}) {
        if (!status)
            return status;
    }
    if (spec.limits.minOutputTokensPerS)
        if (auto s = checkLimit(*spec.limits.minOutputTokensPerS, "--min-output-tokens-per-s"); !s)
            return s;
    if (spec.limits.maxPreemptionsPerRequest)
        if (auto s =
                checkLimit(*spec.limits.maxPreemptionsPerRequest, "--max-preemptions-per-request");
            !s)
            return s;
    const std::size_t cells = spec.maxNumSeqs.size() * spec.maxNumBatchedTokens.size();
    if (cells > kMaxLlmRegionCells)
        return makeError(ErrorCode::Usage,
                         "--max-num-seqs x --max-num-batched-tokens: " + std::to_string(cells) +
                             " cells, more than the " + std::to_string(kMaxLlmRegionCells) +
                             " an LLM region may have (each is a whole simulation)");
    return {};
}

llmsim::LlmScenario llmCellScenario(const LlmRegionSpec& spec, std::size_t seqsIndex,
                                    std::size_t budgetIndex)
{
    llmsim::LlmScenario s = spec.scenario;
    s.engine.maxNumSeqs = spec.maxNumSeqs.at(seqsIndex);
    s.engine.maxNumBatchedTokens = spec.maxNumBatchedTokens.at(budgetIndex);
    // A replay is deterministic and must run once; generated arrivals need replications for
    // an interval.
    if (s.arrivals.kind != llmsim::LlmArrivalSpec::Kind::Replay)
        s.replications = std::max(s.replications, kMinLlmRegionReplications);
    return s;
}

Expected<LlmRegionResult> computeLlmRegion(const LlmRegionSpec& spec,
                                           const LlmRegionOptions& options, CancelToken cancel)
{
    if (auto status = validate(spec); !status)
        return status.error();
    const std::size_t budgets = spec.maxNumBatchedTokens.size();
    const std::size_t n = spec.maxNumSeqs.size() * budgets;
    std::vector<std::optional<Expected<LlmResult>>> runs(n);
    const auto runCell = [&](std::size_t i) {
        llmsim::LlmSimOptions sim;
        sim.baseDirectory = options.baseDirectory;
        sim.threads = 1; // cells are the parallel unit
        runs[i] = llmsim::simulateLlm(llmCellScenario(spec, i / budgets, i % budgets), sim, cancel);
    };
    ThreadPool pool(std::min(options.threads, n));
    pool.parallelFor(n, runCell, cancel);
    if (cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, "LLM region cancelled");

    LlmRegionResult result;
    result.spec = spec;
    result.baseDirectory = options.baseDirectory;
    const bool deterministic = spec.scenario.arrivals.kind == llmsim::LlmArrivalSpec::Kind::Replay;
    for (std::size_t i = 0; i < n; ++i) {
        LlmRegionCell cell;
        cell.index = i;
        cell.seqsIndex = i / budgets;
        cell.budgetIndex = i % budgets;
        const auto scenario = llmCellScenario(spec, cell.seqsIndex, cell.budgetIndex);
        cell.maxNumSeqs = scenario.engine.maxNumSeqs;
        cell.maxNumBatchedTokens = scenario.engine.maxNumBatchedTokens;
        cell.replications = scenario.replications;
        const auto& run = *runs[i];
        if (!run) {
            if (!isRefusal(run.error()))
                return run.error();
            cell.status = LlmCellStatus::Refused;
            cell.binding = LlmConstraint::Refused;
            cell.confident = true;
            cell.note = "refused up front: " + run.error().message;
            ++result.refused;
        } else {
            cell.metrics = metricsOf(*run);
            cell.checks = checksOf(spec.limits, cell.metrics, deterministic);
            judge(cell);
            ++(cell.status == LlmCellStatus::Feasible ? result.feasible : result.infeasible);
            result.notConfident += !cell.confident;
        }
        result.cells.push_back(std::move(cell));
    }
    recommend(result);
    return result;
}

} // namespace bs::analysis
