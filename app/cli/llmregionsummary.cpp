// The human summary of an LLM region (llmregioncommand.h: formatLlmRegionSummary).
#include "llmregioncommand.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace bs::cli {

namespace {

using analysis::LlmCellStatus;
using analysis::LlmConstraint;
using analysis::LlmRegionCell;
using analysis::LlmRegionResult;

std::string text(double v, int digits = 4)
{
    if (!std::isfinite(v))
        return "-";
    std::ostringstream out;
    // Whole numbers past the significant digits (a 100000 ms limit, 12345 tokens/s) print
    // in full: a limit the user typed must read back as typed, not as 1e+05.
    if (std::abs(v) >= std::pow(10.0, digits) && std::abs(v) < 1e15)
        out << std::fixed << std::setprecision(0);
    else
        out.precision(digits);
    out << v;
    return out.str();
}

std::string rightAligned(const std::string& s, std::size_t width)
{
    return s.size() < width ? std::string(width - s.size(), ' ') + s : s;
}

const char* shortName(LlmConstraint kind)
{
    switch (kind) {
    case LlmConstraint::TtftP99:
        return "ttft";
    case LlmConstraint::TpotP99:
        return "tpot";
    case LlmConstraint::ItlP99:
        return "itl";
    case LlmConstraint::E2eP99:
        return "e2e";
    case LlmConstraint::OutputTokens:
        return "thr";
    case LlmConstraint::Goodput:
        return "good";
    case LlmConstraint::Preemptions:
        return "pre";
    case LlmConstraint::PowerPerGpu:
        return "pow";
    case LlmConstraint::EnergyPerToken:
        return "enj";
    case LlmConstraint::Temperature:
        return "temp";
    case LlmConstraint::Refused:
        return "ref";
    case LlmConstraint::None:
        break;
    }
    return "ok";
}

/// ok or the binding (most violated) limit; ? not confident, * recommended.
std::string code(const LlmRegionResult& r, const LlmRegionCell& c)
{
    std::string out = c.status == LlmCellStatus::Feasible ? "ok" : shortName(c.binding);
    if (!c.confident)
        out += "?";
    if (r.recommended() == &c)
        out += "*";
    return out;
}

std::string estimate(const sim::Estimate& e, const char* unit)
{
    std::string out = text(e.value) + unit;
    if (std::isfinite(e.ciLow) && std::isfinite(e.ciHigh))
        out += " [" + text(e.ciLow) + ", " + text(e.ciHigh) + "]";
    return out;
}

/// "tensor_parallel 2, replicas 4, rate_per_s 8" for the outer axes of one grid (present ones).
std::string sliceTitle(const LlmRegionResult& r, const analysis::LlmCellKnobs& k,
                       bool withLoad = true)
{
    std::string out;
    const auto add = [&](analysis::LlmAxis axis, const std::string& value) {
        if (analysis::hasLlmAxis(r.spec, axis))
            out += (out.empty() ? "" : ", ") + std::string(analysis::llmAxisName(r.spec, axis)) +
                   " " + value;
    };
    add(analysis::LlmAxis::TensorParallel, std::to_string(k.tensorParallel));
    add(analysis::LlmAxis::PowerCapW, text(k.powerCapW) + " W");
    add(analysis::LlmAxis::Replicas, std::to_string(k.replicas));
    add(analysis::LlmAxis::GpuMemoryUtilization, text(k.gpuMemoryUtilization));
    if (withLoad)
        add(analysis::LlmAxis::Load, text(k.load));
    return out;
}

/// One max_num_seqs x budget table per combination of the other axes.
void grid(const LlmRegionResult& r, std::ostringstream& out)
{
    constexpr std::size_t kWidth = 8;
    out << "rows max_num_seqs, columns " << analysis::llmTokenBudgetKnob(r.spec.scenario.engine)
        << " (ok feasible, else the binding limit: ttft, tpot, thr, good, pre, pow, enj, temp; "
           "ref refused up front; ? not confident; * recommended)\n";
    const auto& spec = r.spec;
    const std::size_t seqs = spec.maxNumSeqs.size(), budgets = spec.maxNumBatchedTokens.size();
    const std::size_t loads = analysis::llmAxisSize(spec, analysis::LlmAxis::Load);
    const std::size_t outer = r.cells.size() / (seqs * budgets * loads);
    for (std::size_t o = 0; o < outer; ++o) {
        for (std::size_t l = 0; l < loads; ++l) {
            const auto cellOf = [&](std::size_t s, std::size_t b) -> const LlmRegionCell& {
                return r.cells[((o * seqs + s) * budgets + b) * loads + l];
            };
            if (const std::string title = sliceTitle(r, cellOf(0, 0).knobs); !title.empty())
                out << "at " << title << ":\n";
            out << rightAligned("seqs", kWidth);
            for (auto budget : spec.maxNumBatchedTokens)
                out << rightAligned(std::to_string(budget), kWidth);
            out << '\n';
            for (std::size_t s = 0; s < seqs; ++s) {
                out << rightAligned(std::to_string(spec.maxNumSeqs[s]), kWidth);
                for (std::size_t b = 0; b < budgets; ++b)
                    out << rightAligned(code(r, cellOf(s, b)), kWidth);
                out << '\n';
            }
        }
    }
}

void capacity(const LlmRegionResult& r, std::ostringstream& out)
{
    if (r.capacity.empty())
        return;
    const std::string load = analysis::llmAxisName(r.spec, analysis::LlmAxis::Load);
    out << "capacity: the highest " << load << " each configuration meets every limit at\n";
    for (const auto& c : r.capacity) {
        out << "  max_num_seqs " << c.knobs.maxNumSeqs << ", budget "
            << c.knobs.maxNumBatchedTokens;
        if (const std::string outer = sliceTitle(r, c.knobs, false); !outer.empty())
            out << ", " << outer;
        out << ": " << (c.capacityCell ? text(c.knobs.load) : std::string("none"));
        if (c.firstFailingCell)
            out << " (not met at " << text(r.cells[*c.firstFailingCell].knobs.load) << ": "
                << analysis::llmConstraintName(c.failingBinding) << ")";
        if (!c.note.empty())
            out << " - " << c.note;
        out << '\n';
    }
}

/// Why cells were refused, each distinct reason once with how many cells it refused and the
/// first of them (a refused cell prints only "ref" in the grid).
void refusals(const LlmRegionResult& r, std::ostringstream& out)
{
    std::vector<std::pair<const LlmRegionCell*, std::size_t>> reasons;
    for (const auto& c : r.cells) {
        if (c.status != analysis::LlmCellStatus::Refused)
            continue;
        const auto same = std::ranges::find_if(
            reasons, [&c](const auto& reason) { return reason.first->note == c.note; });
        if (same == reasons.end())
            reasons.emplace_back(&c, 1);
        else
            ++same->second;
    }
    if (reasons.empty())
        return;
    out << "refusals:\n";
    for (const auto& [first, count] : reasons) {
        const auto& k = first->knobs;
        out << "  " << count << " cell(s), first max_num_seqs " << k.maxNumSeqs << ", budget "
            << k.maxNumBatchedTokens;
        if (const std::string outer = sliceTitle(r, k); !outer.empty())
            out << ", " << outer;
        out << ": " << first->note << '\n';
    }
}

/// "load headroom: x1.83 (7.3 req/s) met, x1.86 fails on ttft_p99; 6 simulations".
std::string loadHeadroomText(const LlmRegionResult& r, const LlmRegionCell& c,
                             const analysis::LlmLoadHeadroom& h)
{
    std::string out = "load headroom: x" + text(h.multiplier, 3);
    const double rate = analysis::llmOfferedRatePerS(r.spec, c.index, h.multiplier);
    if (std::isfinite(rate))
        out += " (" + text(rate, 3) + " req/s)";
    out += " met";
    if (std::isfinite(h.failingMultiplier))
        out += ", x" + text(h.failingMultiplier, 3) +
               (h.failingUndecided
                    ? " not confidently met (the 95% interval of " +
                          std::string(analysis::llmConstraintName(h.binding)) + " holds its limit)"
                    : " fails on " + std::string(analysis::llmConstraintName(h.binding)));
    out += "; " + std::to_string(h.simulations) + " simulations";
    if (!h.converged && std::isfinite(h.failingMultiplier))
        out += ", not converged";
    if (!h.note.empty())
        out += " (" + h.note + ")";
    return out;
}

void recommendation(const LlmRegionResult& r, std::ostringstream& out)
{
    const LlmRegionCell* c = r.recommended();
    if (!c) {
        out << "no recommendation: no cell is confidently feasible";
        out << (r.notConfident ? " (raise the scenario's replications to decide the ? cells)\n"
                               : "\n");
        return;
    }
    const auto& m = c->metrics;
    const std::string where = sliceTitle(r, c->knobs);
    out << "recommended: max_num_seqs " << c->knobs.maxNumSeqs << ", "
        << analysis::llmTokenBudgetKnob(r.spec.scenario.engine) << " "
        << c->knobs.maxNumBatchedTokens << (where.empty() ? "" : ", " + where) << " ("
        << r.recommendation->reason << ")\n"
        << "  output tokens/s " << estimate(m.outputTokensPerS, "") << "\n"
        << "  TTFT p99 " << estimate(m.ttftP99Ms, " ms") << ", TPOT p99 "
        << estimate(m.tpotP99Ms, " ms") << "\n";
    if (std::isfinite(m.energyPerOutputTokenJ.value))
        out << "  power per GPU " << estimate(m.powerPerGpuW, " W") << ", energy per output token "
            << estimate(m.energyPerOutputTokenJ, " J") << ", peak temperature "
            << estimate(m.peakTemperatureC, " C") << "\n";
    out << "  headroom:";
    for (const auto& check : c->checks)
        out << ' ' << analysis::llmConstraintName(check.kind) << ' '
            << (std::isfinite(check.margin) ? text(check.margin * 100.0, 3) + "%" : "-");
    out << " (binding: " << analysis::llmConstraintName(c->binding) << ")\n";
    if (const auto& h = r.recommendation->loadHeadroom)
        out << "  " << loadHeadroomText(r, *c, *h) << "\n";
    out << "  evidence: " << analysis::llmCellEvidence(r.spec, *c) << "\n";
}

} // namespace

std::string formatLlmRegionSummary(const LlmRegionResult& r)
{
    std::ostringstream out;
    const auto& l = r.spec.limits;
    out << "LLM region (" << r.spec.scenario.engine.policy << "): " << r.cells.size()
        << " cells, limits TTFT p99 <= " << text(l.ttftP99Ms)
        << " ms, TPOT p99 <= " << text(l.tpotP99Ms) << " ms";
    if (l.maxItlP99Ms)
        out << ", ITL p99 <= " << text(*l.maxItlP99Ms) << " ms";
    if (l.maxE2eP99Ms)
        out << ", E2E p99 <= " << text(*l.maxE2eP99Ms) << " ms";
    if (l.minOutputTokensPerS)
        out << ", output >= " << text(*l.minOutputTokensPerS) << " tokens/s";
    if (l.minGoodputPerS)
        out << ", goodput >= " << text(*l.minGoodputPerS) << " requests/s";
    if (l.maxPreemptionsPerRequest)
        out << ", preemptions <= " << text(*l.maxPreemptionsPerRequest) << " per request";
    if (l.maxPowerPerGpuW)
        out << ", power <= " << text(*l.maxPowerPerGpuW) << " W per GPU";
    if (l.maxEnergyPerOutputTokenJ)
        out << ", energy <= " << text(*l.maxEnergyPerOutputTokenJ) << " J per output token";
    if (l.maxTemperatureC)
        out << ", temperature <= " << text(*l.maxTemperatureC) << " C";
    out << "\n"
        << r.feasible << " feasible, " << r.infeasible << " infeasible, " << r.refused
        << " refused, " << r.notConfident << " not confident ("
        << (r.cells.empty() ? 0 : r.cells.front().replications)
        << " replications per cell, 95% intervals)\n";
    grid(r, out);
    refusals(r, out);
    capacity(r, out);
    out << "Pareto front (output tokens/s, TTFT p99, TPOT p99"
        << (std::ranges::none_of(r.cells,
                                 [](const LlmRegionCell& c) {
                                     return std::isfinite(c.metrics.energyPerOutputTokenJ.value);
                                 })
                ? ""
                : ", energy per token")
        << "): " << r.pareto.size() << " cell(s); objective "
        << analysis::llmObjectiveName(r.spec.objective) << "\n";
    recommendation(r, out);
    return out.str();
}

} // namespace bs::cli
