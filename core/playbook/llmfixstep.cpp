#include "analysis/llmregion.h"
#include "analysis/llmrunfigures.h"
#include "llmsim/llmresultjson.h"
#include "llmsim/llmscenariojson.h"
#include "llmsim/llmsimulator.h"
#include "llmsim/runreplay.h"
#include "llmsim/steptimefit.h"
#include "playbook/llmplaybook.h"

#include <algorithm>
#include <cmath>

namespace bs::playbook {

namespace {

using analysis::kNaN;

const std::vector<std::string>& kSeatKeys = llmsim::kMaxNumSeqsKeys;
const std::vector<std::string> kMemoryKeys = {
    "kv_cache.gpu_memory_utilization", "engine.gpu_memory_utilization", "gpu_memory_utilization"};
const std::vector<std::string>& kBlockKeys = llmsim::kNumGpuBlocksKeys;
const std::vector<std::string> kTpKeys = {"engine.tensor_parallel_size", "tensor_parallel_size"};
const std::vector<std::string> kKvDtypeKeys = {"engine.kv_cache_dtype", "kv_cache_dtype"};
const std::vector<std::string> kDtypeKeys = {"engine.dtype", "dtype"};

/// One bounded engine knob change; `engine` applies it to the simulated engine, when the
/// simulator models the knob with the candidate's fitted step time.
struct LlmChange
{
    LlmChange() = default;
    LlmChange(FixChoice choice_, std::string from_,
              std::function<void(llmsim::EngineConfig&)> engine_, std::string notSimulated_)
        : choice(std::move(choice_))
        , from(std::move(from_))
        , engine(std::move(engine_))
        , notSimulated(std::move(notSimulated_))
    {}

    FixChoice choice;
    std::string from;
    std::function<void(llmsim::EngineConfig&)> engine;
    std::string notSimulated; ///< Why the movement cannot be simulated.
    /// The change restores the baseline's setting of a knob the step time absorbs (parallelism,
    /// dtypes): the fixed replay runs on the step fitted on the baseline run, which served with
    /// it, and not on the candidate's.
    bool stepOfBaseline = false;
    /// What the change is for when it is not latency (quality, power): the replay then shows
    /// the latency it costs, and this evidence decides whether it fixes the mechanism.
    std::string judgedBy;
    /// Set when nothing the playbook holds can judge it yet (a fix for power with no power
    /// model in the replay): the step warns and names it as missing.
    bool judgeNotHeld = false;
    /// A cap on max_num_seqs whose value the replay chooses: the fewest running sequences that
    /// keep the candidate's TTFT p99 within the playbook's tolerance.
    bool fewestSeatsWithinTolerance = false;
};

std::string text(double value)
{
    return formatNumber(value, 6);
}

/// The candidate's setting a change starts from: the run's own record, else the simulated
/// engine's default, said as such so that a memo never presents a default as what was run.
std::string startingValue(const data::LlmRun& run, const std::vector<std::string>& keys,
                          double value, const std::string& policy)
{
    if (llmKnobNumber(run, keys))
        return text(value);
    return text(value) + " (" + policy + "'s default: the run does not record it)";
}

/// Where run headers record the budget knob `knob` names.
const std::vector<std::string>& budgetKeys(const std::string& knob)
{
    if (knob == "chunked_prefill_size")
        return llmsim::kChunkedPrefillSizeKeys;
    if (knob == "max_prefill_tokens")
        return llmsim::kMaxPrefillTokensKeys;
    return llmsim::kMaxNumBatchedTokensKeys;
}

/// sglang without chunking: a lone prompt larger than max_prefill_tokens still fills a step,
/// so lowering it cannot keep long prefills out; chunks can (the baseline's, else sglang's
/// default 8,192 tokens).
LlmChange chunkingOnChange(const LlmPair& pair, const llmsim::EngineConfig& baseline,
                           const std::string& why)
{
    const bool baselineChunks =
        baseline.chunkedPrefillSize > 0 &&
        llmKnobNumber(*pair.baseline, llmsim::kChunkedPrefillSizeKeys).has_value();
    const double to = baselineChunks ? double(baseline.chunkedPrefillSize) : 8192.0;
    return {{"chunked_prefill_size", to,
             "turn chunked prefill on so that no step carries a whole long prompt, which "
             "delays the first tokens it batches and stalls the decodes beside it (" +
                 why + ")"},
            "-1",
            [to](llmsim::EngineConfig& e) { e.chunkedPrefillSize = std::int32_t(to); },
            {}};
}

LlmChange budgetChange(const LlmPair& pair, const std::string& why)
{
    // The knob the candidate's engine has: max_num_batched_tokens, or sglang's chunk.
    const llmsim::EngineConfig candidate = llmsim::runEngineOf(*pair.candidate).engine;
    const llmsim::EngineConfig baseline = llmsim::runEngineOf(*pair.baseline).engine;
    if (candidate.policy == "sglang" && candidate.chunkedPrefillSize <= 0)
        return chunkingOnChange(pair, baseline, why);
    const std::string knob = analysis::llmTokenBudgetKnob(candidate);
    const double c = analysis::llmTokenBudget(candidate);
    // The baseline's figure only where it records the same knob (a chunk of -1 is none).
    const double b = knob == analysis::llmTokenBudgetKnob(baseline) &&
                             llmKnobNumber(*pair.baseline, budgetKeys(knob))
                         ? double(analysis::llmTokenBudget(baseline))
                         : kNaN;
    const double to = b >= 1.0 && b < c ? b : std::max(256.0, std::floor(c / 2.0));
    return {{knob, to,
             "lower the step token budget so that no step carries a long prefill, which "
             "delays the first tokens it batches and stalls the decodes beside it (" +
                 why + ")"},
            startingValue(*pair.candidate, budgetKeys(knob), c, candidate.policy),
            [to](llmsim::EngineConfig& e) { analysis::setLlmTokenBudget(e, std::int32_t(to)); },
            {}};
}

LlmChange seatChange(const LlmPair& pair, bool raise, const std::string& why)
{
    const llmsim::EngineConfig candidate = llmsim::runEngineOf(*pair.candidate).engine;
    const double c =
        llmKnobNumber(*pair.candidate, kSeatKeys).value_or(double(candidate.maxNumSeqs));
    const auto b = llmKnobNumber(*pair.baseline, kSeatKeys);
    double to = raise ? (b && *b > c ? *b : c * 2.0) : std::max(1.0, std::floor(c / 2.0));
    return {{"max_num_seqs", to,
             std::string(raise ? "raise" : "cap") + " the running sequences (" + why + ")"},
            startingValue(*pair.candidate, kSeatKeys, c, candidate.policy),
            [to](llmsim::EngineConfig& e) { e.maxNumSeqs = std::int32_t(to); },
            {}};
}

std::optional<LlmChange> memoryChange(const LlmPair& pair)
{
    const auto c = llmKnobNumber(*pair.candidate, kMemoryKeys);
    const auto b = llmKnobNumber(*pair.baseline, kMemoryKeys);
    if (!c || !b || *b <= *c)
        return std::nullopt;
    LlmChange change{{"gpu_memory_utilization", *b,
                      "raise the KV cache back to the baseline's memory share (KV cache full, "
                      "preemptions)"},
                     text(*c),
                     {},
                     {}};
    // The baseline recorded the blocks this setting gives on the same model and GPU.
    if (const auto blocks = llmKnobNumber(*pair.baseline, kBlockKeys))
        change.engine = [n = std::int64_t(*blocks)](llmsim::EngineConfig& e) {
            e.numGpuBlocks = n;
        };
    else
        change.notSimulated = "the baseline does not record the KV cache blocks of that setting";
    return change;
}

/// A dtype or parallelism change back to the baseline: a step time fitted on the candidate
/// cannot predict it, but the baseline run served with that setting, so its fitted step and its
/// recorded KV blocks (where it records them) are the fixed engine's.
std::optional<LlmChange> revert(const LlmPair& pair, std::vector<std::string> keys,
                                const std::string& knob, const std::string& why)
{
    const auto b = llmKnob(*pair.baseline, keys), c = llmKnob(*pair.candidate, keys);
    if (b.empty() || b == c)
        return std::nullopt;
    LlmChange change{{knob, b, "restore the baseline's " + knob + " (" + why + ")"}, c, {}, {}};
    change.stepOfBaseline = true;
    const auto blocks = llmKnobNumber(*pair.baseline, kBlockKeys);
    change.engine = [blocks](llmsim::EngineConfig& e) {
        if (blocks)
            e.numGpuBlocks = std::int64_t(*blocks);
    };
    return change;
}

LlmChange propose(Mechanism top, const LlmPair& pair, const LocateFindings& locate)
{
    const bool queueFirst =
        locate.firstPersistentStage && *locate.firstPersistentStage == Stage::AdmissionQueue;
    switch (top) {
    case Mechanism::Scheduling:
        return queueFirst ? seatChange(pair, true, "requests wait for a seat")
                          : budgetChange(pair, "prefill-decode interference");
    case Mechanism::Memory:
        if (auto change = memoryChange(pair))
            return *change;
        return seatChange(pair, false, "fewer sequences hold KV blocks, fewer preemptions");
    case Mechanism::Compute:
        if (auto change = revert(pair, kTpKeys, "tensor_parallel_size", "prefill-bound steps"))
            return *change;
        return budgetChange(pair, "smaller prefill chunks per step");
    case Mechanism::Precision:
        for (const auto& [keys, knob] :
             {std::pair{kKvDtypeKeys, "kv_cache_dtype"}, std::pair{kDtypeKeys, "dtype"}}) {
            if (auto change = revert(pair, keys, knob, "quality outside tolerance")) {
                change->judgedBy = "the quality evidence of the baseline's setting";
                return *change;
            }
        }
        return {{"kv_cache_dtype", "auto", "unquantised KV cache (quality)"},
                llmKnob(*pair.candidate, kKvDtypeKeys),
                {},
                "quality is not an output of the simulator"};
    case Mechanism::Thermal: {
        auto change = seatChange(pair, false, "fewer concurrent sequences draw less power");
        change.fewestSeatsWithinTolerance = true;
        change.judgedBy = "a power and temperature measurement with the cap";
        change.judgeNotHeld = true;
        return change;
    }
    }
    return budgetChange(pair, "");
}

struct Replayed
{
    llmsim::LlmScenario scenario;
    llmsim::LlmResult result;
};

Expected<Replayed> replay(llmsim::LlmScenario scenario, const CancelToken& cancel)
{
    auto result = llmsim::simulateLlm(scenario, {}, cancel);
    if (!result)
        return result.error();
    return Replayed{std::move(scenario), std::move(*result)};
}

Movement movement(const char* metric, double candidateS, double fixedS, const std::string& how)
{
    Movement m;
    m.metric = metric;
    m.unit = "ms";
    m.candidate = candidateS * 1e3;
    m.fixed = fixedS * 1e3;
    m.delta = m.fixed - m.candidate;
    m.method = how;
    return m;
}

Expected<llmsim::StepFit> fitRun(const data::LlmRun& run, const CancelToken& cancel)
{
    auto engine = llmsim::recordedEngineOf(run);
    if (!engine)
        return engine.error();
    return llmsim::fitLinearStep(*engine, run.requests, cancel);
}

std::string fitText(const llmsim::StepFit& fit)
{
    return "log-RMS TTFT " + formatNumber(fit.ttftLogRms, 2) + ", TPOT " +
           formatNumber(fit.tpotLogRms, 2);
}

/// The fewest running sequences whose replay keeps TTFT p99 within `tolerance` of the
/// scenario's own, by bisection over [1, the replay's peak running] (a cap at the peak changes
/// nothing; TTFT p99 falls as seats are added).
Expected<std::int32_t> fewestSeatsWithin(const llmsim::LlmScenario& scenario,
                                         const llmsim::ReplicationMetrics& uncapped,
                                         double tolerance, const CancelToken& cancel)
{
    std::int32_t lo = 1, hi = std::max(1, uncapped.maxRunning);
    while (lo < hi) {
        const std::int32_t mid = lo + (hi - lo) / 2;
        auto capped = scenario;
        capped.engine.maxNumSeqs = mid;
        auto result = replay(std::move(capped), cancel);
        if (!result)
            return result.error();
        if (result->result.replications.front().ttft.p99S <= uncapped.ttft.p99S * (1 + tolerance))
            hi = mid;
        else
            lo = mid + 1;
    }
    return hi;
}

/// Sets the seat cap of `change` to the fewest seats the candidate's replay tolerates.
Status chooseSeatCap(const PlaybookContext& context, const Replayed& candidate, LlmChange& change)
{
    const double tolerance = context.state.options.p99Tolerance;
    const auto& uncapped = candidate.result.replications.front();
    auto seats = fewestSeatsWithin(candidate.scenario, uncapped, tolerance, context.cancel);
    if (!seats)
        return seats.error();
    change.choice.value = *seats;
    change.choice.reason = "cap the running sequences at the fewest whose replay keeps TTFT p99 "
                           "within " +
                           formatNumber(100.0 * tolerance) + "% of the candidate's (its peak: " +
                           std::to_string(uncapped.maxRunning) +
                           "): fewer concurrent sequences draw less power; the power effect "
                           "itself is not simulated";
    change.engine = [cap = *seats](llmsim::EngineConfig& e) { e.maxNumSeqs = cap; };
    return {};
}

/// Fits the step on the candidate run, replays its requests as they were and with the change
/// (on the baseline's fitted step where the change restores the baseline's setting).
Status simulateChange(const PlaybookContext& context, const LlmPair& pair, LlmChange& change,
                      FixFindings& findings)
{
    if (!change.notSimulated.empty())
        return makeError(ErrorCode::Unsupported, change.notSimulated);
    auto engine = llmsim::recordedEngineOf(*pair.candidate);
    if (!engine)
        return engine.error();
    auto requests = llmsim::replayOfMeasured(pair.candidate->requests);
    if (!requests)
        return requests.error();
    auto fit = fitRun(*pair.candidate, context.cancel);
    if (!fit)
        return fit.error();
    llmsim::LlmScenario scenario;
    scenario.name = "Reproducer: " + pair.candidateName + " replayed";
    scenario.engine = *engine;
    scenario.step = fit->step;
    scenario.arrivals.requests = std::move(*requests);
    auto candidate = replay(scenario, context.cancel);
    if (!candidate)
        return candidate.error();
    if (auto slice = focusedLlmSlice(candidate->scenario, candidate->result, context.cancel))
        findings.llmSlice = std::move(*slice);
    else if (slice.error().code == ErrorCode::Cancelled)
        return slice.error();
    if (change.fewestSeatsWithinTolerance) {
        if (auto chosen = chooseSeatCap(context, *candidate, change); !chosen)
            return chosen;
    }
    scenario.name = "Fixed: " + change.choice.knob + " = " + choiceValueText(change.choice.value);
    change.engine(scenario.engine);
    std::string how = "replay of the candidate's " + std::to_string(fit->requests) +
                      " requests, linear step fitted on the candidate run (" + fitText(*fit) + ")";
    if (change.stepOfBaseline) {
        auto baselineFit = fitRun(*pair.baseline, context.cancel);
        if (!baselineFit)
            return baselineFit.error();
        scenario.step = baselineFit->step;
        how += "; fixed on the step fitted on the baseline run, which served with " +
               change.choice.knob + " = " + choiceValueText(change.choice.value) + " (" +
               fitText(*baselineFit) + ")";
    }
    auto fixed = replay(scenario, context.cancel);
    if (!fixed)
        return fixed.error();
    const auto& c = candidate->result.replications.front();
    const auto& f = fixed->result.replications.front();
    findings.movements = {movement("TTFT p99", c.ttft.p99S, f.ttft.p99S, how),
                          movement("TPOT p99", c.tpot.p99S, f.tpot.p99S, how),
                          // A step budget moves the longest gaps between tokens more than the
                          // mean per output token: chunking spreads a long prefill's stall.
                          movement("ITL p99", c.itl.p99S, f.itl.p99S, how)};
    findings.llmReproducer = llmsim::llmScenarioToJson(candidate->scenario);
    findings.llmFixed = llmsim::llmScenarioToJson(fixed->scenario);
    findings.llmMethod = how;
    return {};
}

} // namespace

bool replayShowsItHelping(const FixFindings& findings)
{
    return std::any_of(findings.movements.begin(), findings.movements.end(), [](const Movement& m) {
        return std::isfinite(m.delta) && m.delta <= -0.01 * std::abs(m.candidate);
    });
}

namespace {

std::string movementsText(const FixFindings& findings)
{
    std::string out;
    for (const auto& m : findings.movements)
        out += (out.empty() ? "" : ", ") + m.metric + " " + formatValue(m.candidate, m.unit) +
               " → " + formatValue(m.fixed, m.unit) + " (" + formatSigned(m.delta, m.unit) + ")";
    return out;
}

Expected<std::string> replayJson(const nlohmann::json& scenarioJson, std::size_t threads,
                                 const CancelToken& cancel)
{
    auto scenario = llmsim::llmScenarioFromJson(scenarioJson);
    if (!scenario)
        return scenario.error();
    llmsim::LlmSimOptions options;
    options.threads = threads;
    auto result = llmsim::simulateLlm(*scenario, options, cancel);
    if (!result)
        return result.error();
    return llmsim::llmResultToJson(*result).dump();
}

MatrixRow llmReplayRow(const PlaybookContext& context, const nlohmann::json& scenario,
                       const std::string& label)
{
    MatrixRow row{"correctness",
                  label + " replay",
                  "LLM result JSON (1 thread vs all)",
                  "",
                  "",
                  "",
                  "byte-identical",
                  "fail"};
    auto one = replayJson(scenario, 1, context.cancel);
    auto all = replayJson(scenario, 0, context.cancel);
    if (!one || !all) {
        row.candidate = "replay failed: " + (one ? all.error() : one.error()).message;
        return row;
    }
    row.candidate = *one == *all ? "identical" : "differs";
    row.result = *one == *all ? "pass" : "fail";
    return row;
}

std::string measuredCell(std::optional<double> value, const std::string& unit)
{
    return value ? formatValue(*value, unit) : std::string("not recorded");
}

/// A measured figure of both runs: the fix has no measured run yet, so nothing is judged.
void measuredRow(MatrixFindings& findings, const std::string& metric, std::string baseline,
                 std::string candidate)
{
    findings.rows.push_back({"performance", "measured runs", metric, std::move(baseline),
                             std::move(candidate), "not measured",
                             "re-run the benchmark with the fix", "not run"});
}

void measuredRow(MatrixFindings& findings, const std::string& metric, const std::string& unit,
                 std::optional<double> b, std::optional<double> c)
{
    measuredRow(findings, metric, measuredCell(b, unit), measuredCell(c, unit));
}

std::optional<double> requestP99(const data::LlmRun& run,
                                 std::optional<double> data::LlmRequest::*field)
{
    std::vector<double> values;
    for (const auto& r : run.requests) {
        if (r.ok && (r.*field))
            values.push_back(*(r.*field) * 1e3);
    }
    if (values.empty())
        return std::nullopt;
    std::ranges::sort(values);
    return analysis::quantileOfSorted(values, 0.99);
}

/// Energy per output token as step 2 states it; charged from a power log, with the band the
/// neighbouring readings allow (the Traces page and `analyze` show the same band).
std::string energyPerTokenCell(const data::LlmRun& run, const SideInputs& side)
{
    const auto figure = analysis::llmEnergyPerOutputTokenJ(run, side.power.get());
    std::string cell = measuredCell(figure, "J");
    if (!figure || analysis::llmEnergy(run) || !side.power)
        return cell;
    if (const auto logged = analysis::llmLoggedEnergy(run, *side.power))
        cell += " [" + formatNumber(logged->perOutputTokenLowJ) + ", " +
                formatNumber(logged->perOutputTokenHighJ) + "]";
    return cell;
}

} // namespace

std::string choiceValueText(const nlohmann::json& value)
{
    return value.is_string()   ? value.get<std::string>()
           : value.is_number() ? formatNumber(value.get<double>(), 6)
                               : value.dump();
}

StepResult llmFixStep(const PlaybookContext& context, const LlmPair& pair,
                      const LocateFindings& locate, const ClassificationFindings& classification,
                      FixFindings& findings)
{
    StepResult step;
    step.number = 4;
    step.title = "One focused reproducer and one bounded fix";
    if (!classification.claims() && !context.state.fix) {
        step.status = StepStatus::NotStarted;
        step.summary = "No fix proposed: " + classification.noClaim + ".";
        return step;
    }
    LlmChange change;
    if (context.state.fix) {
        change.choice = *context.state.fix;
        findings.userChosen = true;
        change.from =
            llmKnob(*pair.candidate, {"engine." + change.choice.knob, change.choice.knob});
        change.notSimulated = "the playbook simulates its own LLM proposals only";
    } else {
        change = propose(classification.ranked.front().mechanism, pair, locate);
    }
    findings.from = change.from.empty() ? "not recorded" : change.from;
    findings.category = "engine knob";
    const auto simulated = simulateChange(context, pair, change, findings);
    if (!simulated)
        findings.llmMethod = "not simulated: " + simulated.error().message;
    findings.chosen = change.choice; // The replay may have chosen its value.
    EvidenceTable table{"LLM fix: one engine knob, simulated on the candidate's requests",
                        {"Metric", "Candidate (replayed)", "Fixed (replayed)", "Δ"},
                        {},
                        findings.llmMethod};
    for (const auto& m : findings.movements) {
        table.rows.push_back({m.metric, formatValue(m.candidate, m.unit),
                              formatValue(m.fixed, m.unit), formatSigned(m.delta, m.unit)});
        step.numbers.push_back(
            {"expected " + m.metric + " change", m.delta, m.unit, kNoValue, kNoValue, m.method});
    }
    step.tables.push_back(std::move(table));
    step.summary = "Change " + change.choice.knob + " from " + findings.from + " to " +
                   choiceValueText(change.choice.value) + " (engine knob, " + change.choice.reason +
                   "). " +
                   (findings.movements.empty() ? "Movement " + findings.llmMethod + "."
                                               : "Simulated: " + movementsText(findings) + ".");
    if (findings.llmSlice)
        step.summary += " Focused reproducer: " + llmSliceText(*findings.llmSlice) + ".";
    step.status = findings.movements.empty() ? StepStatus::Warning : StepStatus::Ok;
    if (findings.movements.empty())
        step.missingEvidence.push_back("a simulated movement: " + findings.llmMethod);
    else if (!change.judgedBy.empty()) {
        // Not a latency fix: the replay prices it in latency, other evidence judges it.
        step.summary += " The replay gives its latency price; " + change.judgedBy +
                        " decides whether it fixes the " +
                        mechanismName(classification.ranked.front().mechanism) + " mechanism.";
        if (change.judgeNotHeld) {
            step.status = StepStatus::Warning;
            step.missingEvidence.push_back(change.judgedBy);
        }
    } else if (!replayShowsItHelping(findings)) {
        // A proposal its own replay does not support is not a fix to sign off on as is.
        step.status = StepStatus::Warning;
        step.summary += " The replay does not show it helping (none of TTFT, TPOT and ITL p99 "
                        "falls by 1% or more): check the fitted step against the run, or choose "
                        "another knob.";
    }
    return step;
}

void addLlmMatrixRows(const PlaybookContext& context, const LlmPair& pair, const FixFindings& fix,
                      MatrixFindings& findings)
{
    if (fix.llmReproducer && fix.llmFixed) {
        findings.rows.push_back(llmReplayRow(context, *fix.llmReproducer, "reproducer"));
        findings.rows.push_back(llmReplayRow(context, *fix.llmFixed, "fixed scenario"));
        findings.replayIdentical =
            findings.rows[0].result == "pass" && findings.rows[1].result == "pass";
    } else {
        findings.rows.push_back({"correctness", "reproducer replay", "LLM result JSON", "", "", "",
                                 "byte-identical", "not run"});
    }
    const auto& b = *pair.baseline;
    const auto& c = *pair.candidate;
    measuredRow(findings, "TTFT p99", "ms", requestP99(b, &data::LlmRequest::ttftS),
                requestP99(c, &data::LlmRequest::ttftS));
    measuredRow(findings, "TPOT p99", "ms", requestP99(b, &data::LlmRequest::tpotS),
                requestP99(c, &data::LlmRequest::tpotS));
    measuredRow(findings, "goodput", "requests/s", b.goodputPerS, c.goodputPerS);
    measuredRow(findings, "output tokens/s", "tokens/s", b.outputTokensPerS, c.outputTokensPerS);
    measuredRow(findings, "energy per output token", energyPerTokenCell(b, context.inputs.baseline),
                energyPerTokenCell(c, context.inputs.candidate));
    const double tolerance = context.state.options.p99Tolerance;
    for (const auto& m : fix.movements) {
        const bool holds = m.fixed <= m.candidate * (1.0 + tolerance);
        findings.rows.push_back({"performance", "candidate requests replayed", m.metric, "",
                                 formatValue(m.candidate, m.unit), formatValue(m.fixed, m.unit),
                                 "fixed ≤ candidate + " + formatNumber(100.0 * tolerance) + "%",
                                 holds ? "pass" : "fail"});
    }
    const auto& q = context.state.quality;
    findings.rows.push_back({"quality", "fallback path", "original precision run and checked", "",
                             q && q->fallbackTested ? "tested" : "not tested", "",
                             "the fallback is exercised",
                             q && q->fallbackTested ? "pass" : "not run"});
}

} // namespace bs::playbook
