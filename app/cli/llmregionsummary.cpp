// The human summary of an LLM region (llmregioncommand.h: formatLlmRegionSummary).
#include "llmregioncommand.h"

#include <cmath>
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
    case LlmConstraint::OutputTokens:
        return "thr";
    case LlmConstraint::Preemptions:
        return "pre";
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

void grid(const LlmRegionResult& r, std::ostringstream& out)
{
    constexpr std::size_t kWidth = 8;
    out << "rows max_num_seqs, columns max_num_batched_tokens (ok feasible, else the binding "
           "limit: ttft, tpot, thr, pre; ref refused up front; ? not confident; * recommended)\n";
    out << rightAligned("seqs", kWidth);
    for (auto budget : r.spec.maxNumBatchedTokens)
        out << rightAligned(std::to_string(budget), kWidth);
    out << '\n';
    const std::size_t budgets = r.spec.maxNumBatchedTokens.size();
    for (std::size_t s = 0; s < r.spec.maxNumSeqs.size(); ++s) {
        out << rightAligned(std::to_string(r.spec.maxNumSeqs[s]), kWidth);
        for (std::size_t b = 0; b < budgets; ++b)
            out << rightAligned(code(r, r.cells[s * budgets + b]), kWidth);
        out << '\n';
    }
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
    out << "recommended: max_num_seqs " << c->maxNumSeqs << ", max_num_batched_tokens "
        << c->maxNumBatchedTokens << " (" << r.recommendation->reason << ")\n"
        << "  output tokens/s " << estimate(m.outputTokensPerS, "") << "\n"
        << "  TTFT p99 " << estimate(m.ttftP99Ms, " ms") << ", TPOT p99 "
        << estimate(m.tpotP99Ms, " ms") << "\n"
        << "  headroom:";
    for (const auto& check : c->checks)
        out << ' ' << analysis::llmConstraintName(check.kind) << ' '
            << (std::isfinite(check.margin) ? text(check.margin * 100.0, 3) + "%" : "-");
    out << " (binding: " << analysis::llmConstraintName(c->binding) << ")\n";
}

} // namespace

std::string formatLlmRegionSummary(const LlmRegionResult& r)
{
    std::ostringstream out;
    const auto& l = r.spec.limits;
    out << "LLM region (" << r.spec.scenario.engine.policy << "): " << r.cells.size()
        << " cells, limits TTFT p99 <= " << text(l.ttftP99Ms)
        << " ms, TPOT p99 <= " << text(l.tpotP99Ms) << " ms";
    if (l.minOutputTokensPerS)
        out << ", output >= " << text(*l.minOutputTokensPerS) << " tokens/s";
    if (l.maxPreemptionsPerRequest)
        out << ", preemptions <= " << text(*l.maxPreemptionsPerRequest) << " per request";
    out << "\n"
        << r.feasible << " feasible, " << r.infeasible << " infeasible, " << r.refused
        << " refused, " << r.notConfident << " not confident ("
        << (r.cells.empty() ? 0 : r.cells.front().replications)
        << " replications per cell, 95% intervals)\n";
    grid(r, out);
    recommendation(r, out);
    return out.str();
}

} // namespace bs::cli
