#include "analysis/sweepconfidence.h"
#include "playbook/playbook.h"

#include <algorithm>
#include <cctype>

namespace bs::playbook {

namespace {

bool productionShapeEvidence(const data::Project& project, const PlaybookContext& context)
{
    for (const auto& dataset : project.datasets) {
        const bool trace = dataset.kind == data::DatasetKind::RequestTrace ||
                           dataset.kind == data::DatasetKind::KernelTrace;
        if (trace && !data::isSynthetic(dataset.provenance))
            return true;
    }
    if (const auto& scenario = context.scenarios.candidate) {
        for (const auto& stream : scenario->streams) {
            if (stream.arrivals.kind == sim::ArrivalSpec::Kind::Replay)
                return true;
        }
    }
    return !context.state.productionEvidence.empty();
}

void syntheticGuard(const data::Project& project, const PlaybookContext& context,
                    std::vector<PitfallWarning>& out)
{
    if (productionShapeEvidence(project, context))
        return;
    std::string sources;
    for (const auto& dataset : project.datasets)
        sources += (sources.empty() ? "" : ", ") + dataset.name + " (" +
                   data::datasetKindName(dataset.kind) + ", reader " + dataset.provenance.reader +
                   ")";
    out.push_back({"synthetic_only",
                   "The claims rest on synthetic or benchmark evidence only (" +
                       (sources.empty() ? std::string("no datasets") : sources) +
                       "; simulated traffic): no request or kernel trace of production-shape "
                       "traffic backs them. Validate with a production trace (replay it in the "
                       "scenario) or record the validation done in the playbook's production "
                       "evidence.",
                   {2, 3, 4}});
}

void latencyGuards(const PlaybookContext& context, std::vector<PitfallWarning>& out)
{
    for (const auto* side : {&context.inputs.baseline, &context.inputs.candidate}) {
        if (!side->sweep)
            continue;
        int meanOnly = 0;
        for (const auto& p : side->sweep->points)
            meanOnly += p.latencyMeanS && !p.latencyP95S && !p.latencyP99S;
        if (meanOnly > 0)
            out.push_back({"average_latency",
                           side->role + " sweep '" + side->sweepName +
                               "' reports latency as a "
                               "mean without p95/p99 on " +
                               std::to_string(meanOnly) +
                               " row(s): a latency claim from averages hides the tail. Measure "
                               "p95/p99 (perf_analyzer --percentile=99).",
                           {2, 5}});
        const auto confidence = analysis::sweepConfidence(*side->sweep);
        if (confidence.insufficientClaims > 0)
            out.push_back({"insufficient_tail_samples",
                           side->role + " sweep '" + side->sweepName +
                               "': " + std::to_string(confidence.insufficientClaims) +
                               " reported percentile(s) rest on too few samples to be claimed "
                               "(" +
                               confidence.rule + ").",
                           {2}});
    }
}

/// True when the candidate is significantly faster than the baseline somewhere.
bool candidateWins(const LocateFindings& locate)
{
    for (const auto& m : locate.metrics) {
        for (const auto& slice : m.slices) {
            const bool better = m.higherIsWorse ? slice.delta.sign < 0 : slice.delta.sign > 0;
            if (better && (m.metric == "throughput" || m.metric.rfind("p99 latency", 0) == 0))
                return true;
        }
        const bool better = m.higherIsWorse ? m.overall.sign < 0 : m.overall.sign > 0;
        if (better && m.metric.rfind("throughput", 0) == 0)
            return true;
    }
    return false;
}

void precisionGuard(const PlaybookContext& context, const PlaybookResult& result,
                    std::vector<PitfallWarning>& out)
{
    bool changed = false;
    for (const auto& h : result.classification.ranked) {
        if (h.mechanism == Mechanism::Precision && !h.signals.empty() &&
            h.signals.front().available() && h.signals.front().value > 0.0)
            changed = true;
    }
    if (!changed || !candidateWins(result.locate))
        return;
    const auto& q = context.state.quality;
    std::string lacking;
    if (!q)
        lacking = "quality evidence (the metric on both runs with a tolerance)";
    if (!q || !q->fallbackTested)
        lacking += std::string(lacking.empty() ? "" : " and ") +
                   "a tested fallback path (the original precision / dense kernels)";
    if (lacking.empty())
        return;
    out.push_back({"precision_without_fallback",
                   "The candidate wins with a different precision or sparsity, but the win has "
                   "no " +
                       lacking + ".",
                   {3, 5}});
}

std::string lower(std::string text)
{
    std::ranges::transform(text, text.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

} // namespace

std::vector<PitfallWarning> dataPitfalls(const data::Project& project,
                                         const PlaybookContext& context,
                                         const PlaybookResult& result)
{
    std::vector<PitfallWarning> out;
    syntheticGuard(project, context, out);
    latencyGuards(context, out);
    precisionGuard(context, result, out);
    return out;
}

std::vector<PitfallWarning> memoPitfalls(const Memo& memo)
{
    std::vector<PitfallWarning> out;
    for (const auto& ref : memoFields()) {
        const std::string text = lower((memo.*(ref.field)).text);
        const bool latency = text.find("latency") != std::string::npos;
        const bool average = text.find("average") != std::string::npos ||
                             text.find("mean ") != std::string::npos ||
                             text.find("avg") != std::string::npos;
        const bool tail =
            text.find("p95") != std::string::npos || text.find("p99") != std::string::npos;
        if (latency && average && !tail)
            out.push_back({"average_latency",
                           std::string("Memo field '") + ref.label +
                               "' states latency as an average without p95/p99.",
                           {}});
    }
    return out;
}

} // namespace bs::playbook
