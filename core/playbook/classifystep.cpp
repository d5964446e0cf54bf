#include "playbook/llmplaybook.h"
#include "playbook/mechanismsignals.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace bs::playbook {

const char* mechanismName(Mechanism mechanism)
{
    switch (mechanism) {
    case Mechanism::Compute:
        return "compute";
    case Mechanism::Memory:
        return "memory";
    case Mechanism::Scheduling:
        return "scheduling";
    case Mechanism::Precision:
        return "precision";
    case Mechanism::Thermal:
        return "thermal";
    }
    return "compute";
}

const char* mechanismLabel(Mechanism mechanism)
{
    switch (mechanism) {
    case Mechanism::Compute:
        return "Compute-bound";
    case Mechanism::Memory:
        return "Memory-bound";
    case Mechanism::Scheduling:
        return "Scheduling (queueing, batching policy, launch overhead)";
    case Mechanism::Precision:
        return "Precision / quality";
    case Mechanism::Thermal:
        return "Thermal or power limit";
    }
    return "Compute-bound";
}

namespace {

void score(Hypothesis& h)
{
    double total = 0.0, available = 0.0, weighted = 0.0;
    for (const auto& s : h.signals) {
        total += s.weight;
        if (s.available()) {
            available += s.weight;
            weighted += s.weight * s.value;
        } else if (!s.missing.empty() &&
                   std::ranges::find(h.missing, s.missing) == h.missing.end()) {
            h.missing.push_back(s.missing);
        }
    }
    h.coverage = total > 0.0 ? available / total : 0.0;
    h.score = available > 0.0 ? weighted / available : analysis::kNaN;
    h.rank = available > 0.0 ? h.score * (0.5 + 0.5 * h.coverage) : 0.0;
}

/// A power log of the candidate with clock and temperature is attached and read.
bool hasCandidateClockLog(const PlaybookContext& context)
{
    const auto& thermal = context.candidate.thermal;
    return thermal && thermal->available && !thermal->smClockMHz.empty() &&
           !thermal->temperatureC.empty();
}

/// The evidence that tells two specific mechanisms apart, beyond each one's missing data;
/// empty when the project already holds it.
std::string pairwiseTest(Mechanism a, Mechanism b, const PlaybookContext& context)
{
    auto is = [&](Mechanism x, Mechanism y) { return (a == x && b == y) || (a == y && b == x); };
    if (is(Mechanism::Thermal, Mechanism::Compute) || is(Mechanism::Thermal, Mechanism::Memory))
        return hasCandidateClockLog(context) ? std::string()
                                             : "a power/clock/temperature log of the candidate "
                                               "under the same traffic: a clock "
                                               "drop at the cap or at the throttle temperature "
                                               "separates a power/thermal limit "
                                               "from work that is slow at full clock";
    if (is(Mechanism::Compute, Mechanism::Memory))
        return "a counter packet (achieved FLOP/s and DRAM bandwidth per kernel) or a model "
               "calibrated on the sweep: intensity against the ridge point decides";
    if (a == Mechanism::Scheduling || b == Mechanism::Scheduling)
        return "a request trace with dispatch times (or a replay of the traffic in the "
               "simulator): queue wait against service time in the p99 decides";
    if (a == Mechanism::Precision || b == Mechanism::Precision)
        return "quality signoff data and a replay at the baseline precision (the fallback "
               "path): a precision effect disappears there";
    return {};
}

std::string supportText(const Hypothesis& h)
{
    std::string text;
    for (const auto& s : h.signals) {
        if (s.available() && s.value > 0.0)
            text += (text.empty() ? "" : "; ") + s.evidence;
    }
    return text.empty() ? "none" : text;
}

EvidenceTable rankingTable(const ClassificationFindings& findings)
{
    EvidenceTable table{"Competing hypotheses, ranked",
                        {"Rank", "Mechanism", "Score", "Evidence coverage", "Supporting evidence",
                         "Missing evidence"},
                        {},
                        "Score: weighted mean of the available signals (0–1). Rank value = "
                        "score × (0.5 + 0.5 × coverage)."};
    int rank = 1;
    for (const auto& h : findings.ranked) {
        std::string missing;
        for (const auto& m : h.missing)
            missing += (missing.empty() ? "" : "; ") + m;
        table.rows.push_back({std::to_string(rank++), mechanismLabel(h.mechanism),
                              std::isfinite(h.score) ? formatNumber(h.score, 2) : "not assessed",
                              formatNumber(100.0 * h.coverage, 2) + "%", supportText(h),
                              missing.empty() ? "none" : missing});
    }
    return table;
}

EvidenceTable signalTable(const ClassificationFindings& findings)
{
    EvidenceTable table{"Signals behind the scores",
                        {"Mechanism", "Signal", "Weight", "Value", "Evidence"},
                        {},
                        {}};
    for (const auto& h : findings.ranked) {
        for (const auto& s : h.signals)
            table.rows.push_back({mechanismName(h.mechanism), s.name, formatNumber(s.weight),
                                  s.available() ? formatNumber(s.value, 2) : "missing",
                                  s.available() ? s.evidence : s.missing});
    }
    return table;
}

std::optional<figure::Figure> thermalFigure(const PlaybookContext& context)
{
    figure::Figure figure;
    figure.title = "SM clock against temperature";
    figure.xTitle = "temperature (°C)";
    figure.yTitle = "SM clock (MHz)";
    for (const auto* side : {&context.inputs.baseline, &context.inputs.candidate}) {
        if (!side->power || side->power->smClockMHz.empty() || side->power->temperatureC.empty())
            continue;
        figure::FigureSeries series{side->role, figure::FigureSeriesKind::Scatter, {}, -1, false};
        const auto& p = *side->power;
        const std::size_t step = std::max<std::size_t>(1, p.size() / 2000);
        for (std::size_t i = 0; i < p.size(); i += step)
            series.points.push_back({p.temperatureC[i], p.smClockMHz[i]});
        figure.series.push_back(std::move(series));
    }
    if (figure.series.empty())
        return std::nullopt;
    if (auto model = candidateModel(context))
        figure.referenceLines.push_back({figure::FigureReferenceLine::Orientation::Vertical,
                                         model->params().effectiveThermal().throttleC,
                                         "throttle limit (model)"});
    figure.caption = "A clock that falls as the temperature reaches its limit is thermal "
                     "throttling.";
    return figure;
}

std::optional<figure::Figure> powerFigure(const PlaybookContext& context)
{
    const auto& b = context.inputs.baseline.sweep;
    const auto& c = context.inputs.candidate.sweep;
    if (!b || !c)
        return std::nullopt;
    figure::Figure figure;
    figure.title = "Board power by batch size";
    figure.xTitle = "batch size";
    figure.yTitle = "power (W)";
    figure.xLog = true;
    for (const auto* side : {&context.inputs.baseline, &context.inputs.candidate}) {
        figure::FigureSeries series{
            side->role, figure::FigureSeriesKind::Line, {}, -1, side == &context.inputs.candidate};
        for (const auto& p : side->sweep->points) {
            if (p.powerW)
                series.points.push_back({double(p.batchSize), *p.powerW});
        }
        if (!series.points.empty())
            figure.series.push_back(std::move(series));
    }
    if (figure.series.empty())
        return std::nullopt;
    if (auto cap = candidatePowerCapW(context))
        figure.referenceLines.push_back(
            {figure::FigureReferenceLine::Orientation::Horizontal, *cap, "candidate power limit"});
    figure.caption = "Power that flattens at the limit while throughput falls is a power cap at "
                     "work.";
    return figure;
}

void findSeparatingEvidence(ClassificationFindings& findings, const PlaybookContext& context)
{
    std::set<std::string> seen;
    auto add = [&](const std::string& text) {
        if (!text.empty() && seen.insert(text).second)
            findings.separating.push_back(text);
    };
    if (findings.ranked.size() >= 2)
        add(pairwiseTest(findings.ranked[0].mechanism, findings.ranked[1].mechanism, context));
    for (std::size_t i = 0; i < std::min<std::size_t>(2, findings.ranked.size()); ++i) {
        for (const auto& m : findings.ranked[i].missing)
            add(m);
    }
}

/// Quality outside its tolerance is a failing metric of its own (a precision change can be
/// faster and still fail).
std::string qualityFailure(const PlaybookContext& context)
{
    const auto& q = context.state.quality;
    if (!q || std::fabs(q->candidate - q->baseline) <= q->tolerance)
        return {};
    return q->metric + " " + formatSigned(q->candidate - q->baseline, "") +
           " outside its tolerance ±" + formatNumber(q->tolerance);
}

/// Evidence set aside as unrelated, and checks of belonging that could not be made.
void noteEvidenceRelevance(const PlaybookContext& context, StepResult& step)
{
    for (const auto* side : {&context.inputs.baseline, &context.inputs.candidate}) {
        for (const auto& aside : side->setAside)
            step.warnings.push_back(side->role + " power log '" + aside.name +
                                    "' is not used: " + aside.reason);
        for (const auto& note : side->evidenceNotes)
            step.warnings.push_back(note);
    }
}

} // namespace

StepResult classifyStep(const PlaybookContext& context, const LocateFindings& locate,
                        ClassificationFindings& findings)
{
    StepResult step;
    step.number = 3;
    step.title = "Classify the dominant mechanism";
    noteEvidenceRelevance(context, step);
    const auto llm = llmPair(context.inputs);
    findings.ranked =
        llm ? assessLlmHypotheses(context, *llm, locate) : assessHypotheses(context, locate);
    for (auto& h : findings.ranked)
        score(h);
    std::ranges::stable_sort(findings.ranked, std::greater<>(), &Hypothesis::rank);
    findSeparatingEvidence(findings, context);
    const auto& top = findings.ranked.front();
    const double second = findings.ranked.size() > 1 ? findings.ranked[1].rank : 0.0;
    findings.decided = top.rank >= 0.5 && top.rank - second >= 0.15 && top.coverage >= 0.4;

    step.tables.push_back(rankingTable(findings));
    step.tables.push_back(signalTable(findings));
    if (auto figure = thermalFigure(context))
        step.figures.push_back(std::move(*figure));
    if (auto figure = powerFigure(context))
        step.figures.push_back(std::move(*figure));
    for (const auto& h : findings.ranked)
        step.numbers.push_back({std::string("score: ") + mechanismName(h.mechanism), h.score, "",
                                kNoValue, kNoValue, "step 3 signals"});
    step.missingEvidence = findings.separating;
    const std::string quality = qualityFailure(context);
    if (!locate.metrics.empty() && locate.failing.empty() && quality.empty()) {
        // A mechanism explains a symptom; without one, a ranking is only a list of guesses.
        findings.decided = false;
        findings.noClaim =
            llm ? "no failing metric: no LLM alarm metric (TTFT p99, TPOT p99, E2E p99, output "
                  "tokens/s, goodput, energy per output token) is worse in the candidate and "
                  "quality is within its tolerance"
                : "no failing metric: no alarm metric (p99 latency, throughput, energy "
                  "per inference) is worse in the candidate, the SLA is not missed "
                  "and quality is within its tolerance";
        step.status = StepStatus::Ok;
        step.summary = "No mechanism is claimed: " + findings.noClaim +
                       ". The scores below are shown for reference only.";
        return step;
    }
    if (const std::string workload = llm ? llmOutputLengthExplanation(*llm, locate) : "";
        !workload.empty() && quality.empty()) {
        findings.decided = false;
        findings.noClaim = workload;
        step.status = StepStatus::Warning;
        step.summary = "No engine mechanism is claimed: " + workload +
                       ". Compare the runs' sampling settings and outputs; the scores below are "
                       "shown for reference only.";
        return step;
    }
    if (top.rank <= 0.0) {
        findings.decided = false;
        findings.noClaim = "no mechanism could be assessed: the evidence each needs is missing";
        step.status = StepStatus::Blocker;
        step.summary = "No mechanism could be assessed: the evidence each needs is missing.";
        return step;
    }
    step.summary = std::string(findings.decided ? "Dominant mechanism: " : "Leading hypothesis: ") +
                   mechanismLabel(top.mechanism) + " (score " + formatNumber(top.score, 2) +
                   ", evidence coverage " + formatNumber(100.0 * top.coverage, 2) + "%)" +
                   (findings.ranked.size() > 1
                        ? "; next: " + std::string(mechanismLabel(findings.ranked[1].mechanism)) +
                              " (rank " + formatNumber(findings.ranked[1].rank, 2) + " vs " +
                              formatNumber(top.rank, 2) + ")"
                        : std::string()) +
                   ".";
    step.status = findings.decided ? StepStatus::Ok : StepStatus::Warning;
    if (!findings.decided) {
        // A static string: GCC 12 warns falsely (array-bounds) on the inlined literal copy.
        static const std::string kUndecided = "the top two hypotheses are not clearly "
                                              "separated; collect the missing evidence listed "
                                              "below";
        step.warnings.push_back(kUndecided);
    }
    return step;
}

} // namespace bs::playbook
