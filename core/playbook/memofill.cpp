#include "playbook/playbook.h"

#include <cmath>

namespace bs::playbook {

namespace {

std::string deltaText(const StageMetric& m)
{
    std::string text = m.metric + " " + formatSigned(m.overall.delta, m.unit);
    if (std::isfinite(m.overall.relative))
        text += " (" + formatSigned(100.0 * m.overall.relative, "%", 2) + ")";
    if (m.overall.intervalKnown)
        text += ", 95% CI " + formatNumber(m.overall.ciLow) + " to " +
                formatNumber(m.overall.ciHigh) + " " + m.unit;
    return text + " at " + m.overallLabel + " [" + m.source + "]";
}

std::string failingMetric(const PlaybookResult& r)
{
    std::string text;
    for (const auto& failing : r.locate.failing)
        text += (text.empty() ? "" : "; ") + failing;
    if (text.empty())
        return "None: no alarm metric (throughput, p99 latency, energy per inference) is "
               "significantly worse in the candidate than in the baseline, and the SLA is not "
               "missed.";
    if (!r.locate.divergentBatches.empty())
        text += ". Diverging at batch sizes " + std::to_string(r.locate.divergentBatches.front()) +
                "–" + std::to_string(r.locate.divergentBatches.back());
    return text + ".";
}

std::string arrivalsText(const sim::Scenario& s)
{
    std::string text;
    for (const auto& stream : s.streams) {
        const auto& a = stream.arrivals;
        std::string one;
        switch (a.kind) {
        case sim::ArrivalSpec::Kind::Poisson:
            one = "Poisson " + formatValue(a.ratePerS, "req/s");
            break;
        case sim::ArrivalSpec::Kind::Deterministic:
            one = "fixed-rate " + formatValue(a.ratePerS, "req/s");
            break;
        case sim::ArrivalSpec::Kind::Gamma:
            one =
                "gamma renewal " + formatValue(a.ratePerS, "req/s") + ", cv " + formatNumber(a.cv);
            break;
        case sim::ArrivalSpec::Kind::Mmpp2:
            one = "bursty MMPP-2 " + formatNumber(a.ratesPerS[0]) + "/" +
                  formatNumber(a.ratesPerS[1]) + " req/s";
            break;
        case sim::ArrivalSpec::Kind::Replay:
            one = "replayed trace" + (a.file.empty() ? std::string() : " " + a.file);
            break;
        case sim::ArrivalSpec::Kind::ClosedLoop:
            one = "closed loop of " + std::to_string(a.concurrency) + " clients";
            break;
        }
        text += (text.empty() ? "" : " + ") + (stream.name.empty() ? "" : stream.name + ": ") + one;
    }
    return text;
}

/// The LLM metrics the memo quotes: the serving SLA metrics and the tail, as step 2 found them.
std::string llmMetricsText(const PlaybookResult& r)
{
    std::string text;
    for (const auto& m : r.locate.metrics) {
        const bool quoted = m.metric == "TTFT p99" || m.metric == "TPOT p99" ||
                            m.metric == "p99 latency (E2E)" || m.metric == "goodput" ||
                            m.metric == "energy per output token" || m.metric == "output tokens/s";
        if (quoted)
            text += (text.empty() ? "" : "; ") + m.metric + " " +
                    formatValue(m.overall.baseline, m.unit) + " → " +
                    formatValue(m.overall.candidate, m.unit);
    }
    return text;
}

std::string workloadSlice(const PlaybookResult& r)
{
    if (r.locate.llm)
        return "LLM serving runs, baseline → candidate, from their per-request records: " +
               llmMetricsText(r) + "." +
               (r.fix.llmReproducer
                    ? " Replayed slice: the candidate's requests (arrival, "
                      "prompt and output tokens) on its engine knobs." +
                          (r.fix.llmSlice
                               ? " Focused reproducer: " + llmSliceText(*r.fix.llmSlice) + "."
                               : std::string())
                    : "");
    if (!r.fix.reproducer)
        return "No target traffic scenario: the slice is the measured batch sweep only.";
    const auto& s = *r.fix.reproducer;
    std::string text = "Target traffic '" + s.name + "': " + arrivalsText(s) +
                       "; policy max batch " + std::to_string(s.policy.maxBatch) +
                       ", max queue delay " + formatValue(s.policy.maxQueueDelayS * 1e3, "ms") +
                       "; " + std::to_string(s.servers.count) + " server(s); seed " +
                       std::to_string(s.seed) + ".";
    if (!r.locate.divergentBatches.empty())
        text += " Batch sweep slice: batch " + std::to_string(r.locate.divergentBatches.front()) +
                "–" + std::to_string(r.locate.divergentBatches.back()) + ".";
    return text;
}

std::string firstStage(const PlaybookResult& r)
{
    if (!r.locate.firstPersistentStage)
        return "Not located: no stage diverges persistently with the data at hand.";
    const auto& m = r.locate.metrics[std::size_t(r.locate.firstMetric)];
    return std::string(stageName(*r.locate.firstPersistentStage)) + ": " + deltaText(m) + "; " +
           m.persistence.text + ".";
}

std::string tagsText(const PlaybookResult& r)
{
    std::string same, differ, unrecorded;
    auto verdict = [](const FreezeItem& item) {
        return item.accepted ? " (accepted: " + item.reason + ")" : std::string(" (BLOCKER)");
    };
    for (const auto& item : r.freeze.items) {
        if (item.notRecorded) {
            unrecorded += (unrecorded.empty() ? "" : "; ") + item.key + verdict(item);
        } else if (!item.differs) {
            same += (same.empty() ? "" : ", ") + item.key + " " + item.candidate;
        } else {
            differ += (differ.empty() ? "" : "; ") + item.key + " " +
                      (item.baseline.empty() ? "(not recorded)" : item.baseline) + " → " +
                      (item.candidate.empty() ? "(not recorded)" : item.candidate) + verdict(item);
        }
    }
    return "Candidate: " + (same.empty() ? std::string("no matching tags") : same) +
           ". Differences from baseline: " + (differ.empty() ? std::string("none") : differ) + "." +
           (unrecorded.empty() ? "" : " Not recorded on either side: " + unrecorded + ".");
}

std::string supportOf(const Hypothesis& h)
{
    std::string text;
    for (const auto& s : h.signals) {
        if (s.available() && s.value > 0.0)
            text += (text.empty() ? "" : "; ") + s.evidence;
    }
    return text.empty() ? "no supporting signal" : text;
}

std::string hypothesisText(const Hypothesis& h)
{
    return std::string(mechanismLabel(h.mechanism)) + " (score " +
           (std::isfinite(h.score) ? formatNumber(h.score, 2) : std::string("not assessed")) +
           ", coverage " + formatNumber(100.0 * h.coverage, 2) + "%): " + supportOf(h);
}

std::string competing(const PlaybookResult& r)
{
    std::string text;
    for (std::size_t i = 1; i < r.classification.ranked.size(); ++i)
        text += (text.empty() ? "" : "\n") + std::to_string(i + 1) + ". " +
                hypothesisText(r.classification.ranked[i]);
    return text;
}

std::string joinLines(const std::vector<std::string>& lines)
{
    std::string text;
    for (const auto& line : lines)
        text += (text.empty() ? "- " : "\n- ") + line;
    return text.empty() ? "None." : text;
}

std::string movementText(const Movement& m)
{
    std::string text = m.metric + " " + formatSigned(m.delta, m.unit);
    if (std::isfinite(m.ciLow))
        text += " (95% CI " + formatNumber(m.ciLow) + " to " + formatNumber(m.ciHigh) + ")";
    return text;
}

std::string movementsText(const PlaybookResult& r)
{
    if (!r.fix.chosen)
        return "No change predicted: step 4 found no bounded fix.";
    if (r.locate.llm) {
        // The replay's candidate is the model's, not the run's: quoting the run beside it lets
        // the reader see the replay's own error next to the movement it predicts.
        std::string text;
        for (const auto& m : r.fix.movements) {
            text += (text.empty() ? "" : "; ") + m.metric + " " + formatValue(m.candidate, m.unit) +
                    " → " + formatValue(m.fixed, m.unit) + " (" + formatSigned(m.delta, m.unit);
            for (const auto& measured : r.locate.metrics)
                if (measured.metric == m.metric && measured.unit == m.unit)
                    text += "; the candidate run measured " +
                            formatValue(measured.overall.candidate, m.unit);
            text += ")";
        }
        return text.empty() ? "Not simulated: " + r.fix.llmMethod + "."
                            : text + " — " + r.fix.llmMethod + ".";
    }
    std::string text;
    for (const auto& m : r.fix.movements)
        text += (text.empty() ? "" : "; ") +
                (std::isfinite(m.delta) ? movementText(m) : m.metric + ": " + m.method);
    return text + " — simulated on the reproducer's traffic, fixed − candidate, " +
           std::to_string(r.fix.reproducer->replications) + " paired replications.";
}

std::string changeText(const PlaybookResult& r)
{
    if (!r.fix.chosen)
        return "None chosen: no bounded change improved the reproducer in simulation.";
    const auto& f = *r.fix.chosen;
    const std::string to =
        f.value.is_string() ? f.value.get<std::string>() : formatNumber(f.value.get<double>(), 4);
    if (knobCategoryRank(f.knob) == kCapacityRank)
        return "No policy or config setting reaches the target: capacity is the finding. "
               "Capacity action (adds hardware, not a reversible setting): " +
               f.knob + " from " + r.fix.from + " to " + to + " (" + f.reason + ").";
    return "Set " + f.knob + " from " + r.fix.from + " to " + to + " (" + r.fix.category + "; " +
           f.reason + "). Reversible: set " + f.knob + " back to " + r.fix.from + ".";
}

std::string estimateText(const std::optional<sim::Estimate>& e, const char* unit)
{
    return e ? formatValue(e->value, unit) : std::string("n/a");
}

/// What the matrix says about the replay; a replay that never ran is neither pass nor fail.
std::string replayText(const PlaybookResult& r)
{
    if (!r.fix.reproducer && !r.fix.llmReproducer)
        return "reproducer missing (step 4 built none), so no replay was run";
    if (r.matrix.rows.empty())
        return "reproducer replay not run (step 5 did not run)";
    return std::string("reproducer replay ") +
           (r.matrix.replayIdentical ? "bit-identical (pass)" : "NOT bit-identical (fail)");
}

std::string riskText(const PlaybookResult& r)
{
    const auto& rows = r.matrix.rows;
    std::string quality = "not measured (no quality evidence given)";
    for (const auto& row : rows) {
        if (row.area == "quality" && row.slice == "candidate")
            quality = row.metric + " " + row.candidate + " vs " + row.baseline + ": " + row.result;
    }
    const std::string thermal =
        r.fix.fixedPowerW || r.fix.fixedPeakC
            ? "mean power " + estimateText(r.fix.candidatePowerW, "W") + " → " +
                  estimateText(r.fix.fixedPowerW, "W") + ", peak temperature " +
                  estimateText(r.fix.candidatePeakC, "°C") + " → " +
                  estimateText(r.fix.fixedPeakC, "°C")
        : r.locate.llm
            ? std::string("not simulated in the replay (its step is fitted to the candidate's "
                          "timings and has no power model)")
            : std::string("not simulated (the scenario has no power or thermal model)");
    const std::string software =
        !r.fix.chosen                     ? "no change"
        : r.fix.category == "policy knob" ? "batching policy configuration only; no rebuild"
        : r.fix.category == "mapping"     ? "deployment mapping change (placement)"
        : r.fix.category == "capacity action"
            ? "capacity action: more servers (hardware), a procurement and deployment change"
            : "model/runtime configuration value; check the "
              "runtime accepts it";
    return "Correctness: " + replayText(r) + ". Quality: " + quality + ". Thermal: " + thermal +
           ". Software compatibility: " + software + ".";
}

std::string rollbackText(const PlaybookResult& r)
{
    if (r.locate.llm && r.fix.chosen)
        return "Restore " + r.fix.chosen->knob + " = " + r.fix.from +
               " if the re-run benchmark's TTFT p99 or TPOT p99 exceeds the candidate's measured "
               "value or goodput falls.";
    if (!r.fix.chosen || r.fix.movements.size() < 2)
        return "No change to roll back.";
    const auto& p99 = r.fix.movements[1];
    const auto& thr = r.fix.movements[0];
    const double p99Limit = r.slaP99S ? *r.slaP99S * 1e3 : p99.fixed * 1.1;
    std::string failed;
    for (const auto& row : r.matrix.rows) {
        if (row.result == "fail")
            failed += (failed.empty() ? "" : ", ") + row.slice + " " + row.metric;
    }
    return "Restore " + r.fix.chosen->knob + " = " + r.fix.from +
           " if, at the target traffic, p99 latency exceeds " + formatValue(p99Limit, "ms") +
           (r.slaP99S ? " (the SLA)" : " (predicted + 10%)") + " or throughput falls below " +
           formatValue(thr.fixed * 0.98, "inferences/s") + " (predicted − 2%)." +
           (failed.empty() ? "" : " The matrix already fails: " + failed + ".");
}

std::string seniorAnswer(const PlaybookResult& r, const std::string& reproducerFile)
{
    const auto& ranked = r.classification.ranked;
    if (!r.classification.claims())
        return "No bottleneck class is claimed: " + r.classification.noClaim + "." +
               (r.locate.failing.empty() ? std::string()
                                         : " Collect: " + joinLines(r.classification.separating));
    const auto& top = ranked.front();
    std::string text = std::string(r.classification.decided ? "" : "Provisionally: ") +
                       mechanismLabel(top.mechanism) +
                       " is the first-principles bottleneck class that explains the symptom "
                       "(score " +
                       formatNumber(top.score, 2) + "): " + supportOf(top) + ". ";
    const char* replayed = r.matrix.replayIdentical ? "bit-identically"
                           : r.matrix.rows.empty()  ? "(replay not run yet)"
                                                    : "(replay NOT bit-identical)";
    if (r.fix.llmReproducer)
        text += "The artifact that proves it reproducibly is the LLM reproducer '" +
                r.fix.llmReproducer->value("name", std::string("reproducer")) + "' (seed " +
                std::to_string(r.fix.llmReproducer->value("seed", 1)) + ") in " + reproducerFile +
                ", the candidate's requests on its engine knobs: " + "`batchscope-cli simulate " +
                reproducerFile + "` replays it " + replayed +
                ", with the input datasets pinned by SHA-256 in the provenance section and the "
                "LLM curve pack as the signoff artifact.";
    else if (r.fix.reproducer)
        text += "The artifact that proves it reproducibly is the frozen scenario '" +
                r.fix.reproducer->name + "' (seed " + std::to_string(r.fix.reproducer->seed) +
                ") in " + reproducerFile + ": `batchscope-cli simulate " + reproducerFile +
                "` replays it " + replayed +
                ", with the input datasets pinned by SHA-256 in the provenance section and the "
                "batch policy curve pack as the signoff artifact.";
    else
        text += "No reproducer could be built yet (no target traffic scenario).";
    if (!r.classification.decided)
        text += " To decide against " + std::string(mechanismLabel(ranked[1].mechanism)) +
                ", collect: " + joinLines(r.classification.separating);
    return text;
}

/// A conclusion drafted while step 1 blocks is marked as not one (playbook.h, concluded()).
std::string gated(const PlaybookResult& r, std::string text)
{
    if (r.concluded())
        return text;
    return "NOT CONCLUDED (" + r.conclusionBlocker + "). Provisional: " + text;
}

} // namespace

void fillMemoDrafts(Memo& memo, const PlaybookResult& result, const std::string& reproducerFile)
{
    memo.failingMetric.offerDraft(failingMetric(result));
    memo.workloadSlice.offerDraft(workloadSlice(result));
    memo.firstFailingStage.offerDraft(gated(result, firstStage(result)));
    memo.buildRuntimeTags.offerDraft(tagsText(result));
    if (result.classification.claims())
        memo.primaryMechanism.offerDraft(
            gated(result, hypothesisText(result.classification.ranked.front())));
    else
        memo.primaryMechanism.offerDraft("None claimed: " + result.classification.noClaim + ".");
    memo.competingHypotheses.offerDraft(competing(result));
    memo.missingEvidence.offerDraft(joinLines(result.classification.separating));
    memo.seniorQuestionAnswer.offerDraft(gated(result, seniorAnswer(result, reproducerFile)));
    memo.smallestReversibleChange.offerDraft(gated(result, changeText(result)));
    memo.expectedMovement.offerDraft(gated(result, movementsText(result)));
    memo.regressionRisk.offerDraft(riskText(result));
    std::string artifact = result.locate.llm
                               ? "LLM curve pack (TTFT, TPOT, goodput, energy per output token "
                                 "over the engine knobs)"
                               : "Batch policy curve pack showing feasible operating regions for "
                                 "throughput, latency, and power";
    if (result.fix.llmReproducer)
        artifact += "; LLM reproducer: the candidate's requests replayed (seed " +
                    std::to_string(result.fix.llmReproducer->value("seed", 1)) + ")";
    if (result.fix.reproducer)
        artifact += "; reproducer " + reproducerFile + " (seed " +
                    std::to_string(result.fix.reproducer->seed) + ")";
    memo.requiredArtifact.offerDraft(artifact);
    memo.rollbackBoundary.offerDraft(rollbackText(result));
}

} // namespace bs::playbook
