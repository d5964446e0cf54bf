#include "playbook/llmplaybook.h"
#include "playbook/steps.h"
#include "sim/resultjson.h"
#include "sim/scenariojson.h"

#include <algorithm>
#include <cmath>

namespace bs::playbook {

namespace {

struct Slice
{
    std::string label;
    double rateFactor = 1.0;
    int maxBatch = 0; ///< 0: as the scenario has it.
};

Status scaleTraffic(sim::Scenario& scenario, double factor)
{
    if (factor == 1.0)
        return {};
    for (auto& stream : scenario.streams) {
        auto& a = stream.arrivals;
        if (a.kind == sim::ArrivalSpec::Kind::ClosedLoop)
            return makeError(ErrorCode::Value, "a closed loop has no arrival rate to scale: its "
                                               "load is scenario.arrivals.concurrency");
        if (a.kind == sim::ArrivalSpec::Kind::Mmpp2) {
            a.ratesPerS[0] *= factor;
            a.ratesPerS[1] *= factor;
        } else if (a.kind != sim::ArrivalSpec::Kind::Replay || a.ratePerS > 0.0) {
            a.ratePerS *= factor;
        } else {
            return makeError(ErrorCode::Value, "a replay at its recorded rate cannot be scaled");
        }
    }
    return {};
}

/// The slice applied to one configuration's scenario. A fix that caps the batch keeps its cap.
Expected<sim::Scenario> sliced(const sim::Scenario& scenario, const Slice& slice,
                               const std::optional<FixChoice>& fix)
{
    sim::Scenario out = scenario;
    if (auto status = scaleTraffic(out, slice.rateFactor); !status)
        return status.error();
    if (slice.maxBatch > 0) {
        int batch = slice.maxBatch;
        if (fix && fix->knob == "max_batch")
            batch = std::min(batch, int(std::lround(fix->value.get<double>())));
        return applyKnob(out, {"max_batch", batch, {}});
    }
    return out;
}

std::vector<Slice> slicesFor(const sim::Scenario& scenario)
{
    const int maxBatch = scenario.policy.maxBatch;
    std::vector<Slice> slices = {
        {"traffic ×0.5", 0.5, 0},
        {"traffic ×1 (target), max batch " + std::to_string(maxBatch), 1.0, 0}};
    for (int b : {maxBatch / 4, maxBatch / 2, maxBatch * 2}) {
        if (b >= 1 && b != maxBatch && b <= sim::kMaxBatch)
            slices.push_back({"traffic ×1, max batch " + std::to_string(b), 1.0, b});
    }
    return slices;
}

struct Cell
{
    bool run = false;
    bool stable = false;
    double throughput = analysis::kNaN;
    double p99Ms = analysis::kNaN;
    double energyJ = analysis::kNaN;
    std::string note;
};

Cell simulateCell(const PlaybookContext& context, const std::optional<sim::Scenario>& scenario,
                  const Slice& slice, const std::optional<FixChoice>& fix)
{
    Cell cell;
    if (!scenario)
        return cell;
    auto s = sliced(*scenario, slice, fix);
    if (!s) {
        cell.note = s.error().message;
        return cell;
    }
    auto result = context.simulate(*s);
    if (!result) {
        cell.note = result.error().message;
        return cell;
    }
    cell.run = true;
    cell.stable = result->stability.stable;
    if (!cell.stable) {
        cell.note = "unstable";
        return cell;
    }
    cell.throughput = result->throughputPerS.value;
    cell.p99Ms = result->latency.p99.value * 1e3;
    if (result->energyPerRequestJ)
        cell.energyJ = result->energyPerRequestJ->value;
    return cell;
}

std::string cellText(const Cell& cell, double Cell::*field, const std::string& unit)
{
    if (!cell.run)
        return cell.note.empty() ? "" : "not run: " + cell.note;
    if (!cell.stable)
        return "unstable";
    return formatValue(cell.*field, unit, 4);
}

struct MetricRule
{
    const char* metric;
    const char* unit;
    double Cell::*field;
};

void addPerformanceRows(const PlaybookContext& context, const Slice& slice, const Cell& b,
                        const Cell& c, const Cell& f, MatrixFindings& findings)
{
    const auto& options = context.state.options;
    const Cell& reference = b.run ? b : c;
    const std::string refName = b.run ? "baseline" : "candidate";
    const MetricRule rules[] = {{"throughput", "inferences/s", &Cell::throughput},
                                {"p99 latency", "ms", &Cell::p99Ms},
                                {"energy per inference", "J", &Cell::energyJ}};
    for (const auto& rule : rules) {
        MatrixRow row{"performance",
                      slice.label,
                      rule.metric,
                      cellText(b, rule.field, rule.unit),
                      cellText(c, rule.field, rule.unit),
                      cellText(f, rule.field, rule.unit),
                      {},
                      "not run"};
        const double fixed = f.stable ? f.*rule.field : analysis::kNaN;
        double limit = analysis::kNaN; // fixed must stay at or under it (over it: throughput)
        const std::string metric = rule.metric;
        const double ref = reference.stable ? reference.*rule.field : analysis::kNaN;
        if (metric == "throughput") {
            row.criterion =
                "fixed ≥ (1 − " + formatNumber(options.throughputTolerance) + ") × " + refName;
            limit = (1.0 - options.throughputTolerance) * ref;
        } else if (metric == "p99 latency" && context.inputs.slaP99S) {
            const double slaMs = *context.inputs.slaP99S * 1e3;
            row.criterion = "fixed ≤ SLA " + formatValue(slaMs, "ms");
            limit = slaMs;
            // The SLA binds the configuration as deployed. At another batch cap (a sensitivity
            // slice) every configuration runs the same forced cap, so the row asks whether the
            // change makes that neighbour worse, not whether a cap nobody proposes meets it.
            if (slice.maxBatch > 0) {
                row.criterion += ", or ≤ (1 + " + formatNumber(options.p99Tolerance) + ") × " +
                                 refName + " (another batch cap: no regression)";
                limit = std::max(slaMs, (1.0 + options.p99Tolerance) * ref);
            }
        } else {
            const double tol =
                metric == "p99 latency" ? options.p99Tolerance : options.energyTolerance;
            row.criterion = "fixed ≤ (1 + " + formatNumber(tol) + ") × " + refName;
            limit = (1.0 + tol) * ref;
        }
        if (f.run && !f.stable)
            row.result = "fail";
        else if (std::isfinite(fixed) && std::isfinite(limit))
            row.result =
                (metric == "throughput" ? fixed >= limit : fixed <= limit) ? "pass" : "fail";
        else if (metric == "energy per inference" && f.stable)
            row.criterion += " (no power model)";
        findings.rows.push_back(std::move(row));
    }
}

/// Simulates twice (one thread, then the context's threads) and compares the JSON results.
MatrixRow replayRow(const PlaybookContext& context, const sim::Scenario& scenario,
                    const std::string& what)
{
    MatrixRow row{"correctness",
                  what,
                  "bit-identical replay",
                  "",
                  "",
                  "",
                  "two runs (1 thread, then all threads) give the same result JSON",
                  "fail"};
    sim::SimOptions single = context.simOptions;
    single.threads = 1;
    single.pool = nullptr;
    auto first = sim::simulate(scenario, single, Progress::null(), context.cancel);
    auto second = context.simulate(scenario);
    if (!first || !second) {
        row.candidate = "simulation failed: " + (!first ? first.error() : second.error()).message;
        return row;
    }
    const bool same = sim::resultToJson(*first).dump() == sim::resultToJson(*second).dump();
    row.candidate = same ? "identical" : "differs";
    row.result = same ? "pass" : "fail";
    return row;
}

void addQualityRows(const PlaybookContext& context, MatrixFindings& findings)
{
    const auto& q = context.state.quality;
    if (!q) {
        findings.rows.push_back({"quality", "precision delta", "quality metric", "", "", "",
                                 "|candidate − baseline| ≤ tolerance", "not run"});
        return;
    }
    auto within = [&q](double value) { return std::fabs(value - q->baseline) <= q->tolerance; };
    const std::string criterion = "|x − baseline| ≤ " + formatNumber(q->tolerance);
    findings.rows.push_back({"quality", "candidate", q->metric, formatNumber(q->baseline, 4),
                             formatNumber(q->candidate, 4), "", criterion,
                             within(q->candidate) ? "pass" : "fail"});
    findings.rows.push_back({"quality", "fixed", q->metric, formatNumber(q->baseline, 4), "",
                             q->fixed ? formatNumber(*q->fixed, 4) : "not measured", criterion,
                             q->fixed ? (within(*q->fixed) ? "pass" : "fail") : "not run"});
}

void addBatchRows(const PlaybookContext& context, const FixFindings& fix, MatrixFindings& findings)
{
    findings.rows.push_back(replayRow(context, *fix.reproducer, "reproducer"));
    findings.rows.push_back(replayRow(context, *fix.fixed, "fixed scenario"));
    findings.replayIdentical =
        findings.rows[0].result == "pass" && findings.rows[1].result == "pass";
    addQualityRows(context, findings);
    for (const auto& slice : slicesFor(*fix.reproducer)) {
        if (context.cancel.isCancelled())
            break;
        const Cell b = simulateCell(context, context.scenarios.baseline, slice, std::nullopt);
        const Cell c = simulateCell(context, fix.reproducer, slice, std::nullopt);
        const Cell f = simulateCell(context, fix.fixed, slice, fix.chosen);
        addPerformanceRows(context, slice, b, c, f, findings);
    }
}

EvidenceTable matrixTable(const MatrixFindings& findings)
{
    EvidenceTable table{
        "Re-run matrix: baseline vs candidate vs fixed",
        {"Area", "Slice", "Metric", "Baseline", "Candidate", "Fixed", "Criterion", "Result"},
        {},
        "Performance cells are simulations of the target traffic (scaled, or "
        "with another batch cap), each with the scenario's replications."};
    for (const auto& r : findings.rows)
        table.rows.push_back(
            {r.area, r.slice, r.metric, r.baseline, r.candidate, r.fixed, r.criterion, r.result});
    return table;
}

} // namespace

StepResult matrixStep(const PlaybookContext& context, const FixFindings& fix,
                      MatrixFindings& findings)
{
    StepResult step;
    step.number = 5;
    step.title = "Re-run the full matrix";
    const auto llm = llmPair(context.inputs);
    if (llm && !fix.chosen) {
        step.status = StepStatus::NotStarted;
        step.summary = "Not run: step 4 chose no fix to compare with the candidate.";
        return step;
    }
    if (llm) {
        addLlmMatrixRows(context, *llm, fix, findings);
        addQualityRows(context, findings);
    } else if (!fix.reproducer) {
        // Nothing was replayed, so nothing can be called (not) bit-identical.
        step.status = StepStatus::NotStarted;
        step.summary = "Not run: the reproducer is missing (step 4 built none), so there is "
                       "nothing to replay or compare.";
        step.missingEvidence.push_back("a reproducer: a project scenario of the target traffic, "
                                       "or a candidate sweep to derive one");
        return step;
    }
    if (!llm && !fix.fixed) {
        step.status = StepStatus::NotStarted;
        step.summary = "Not run: step 4 chose no fix to compare with the reproducer.";
        return step;
    }
    if (!llm)
        addBatchRows(context, fix, findings);
    for (const auto& row : findings.rows) {
        findings.passed += row.result == "pass";
        findings.failed += row.result == "fail";
        findings.notRun += row.result == "not run";
    }
    step.tables.push_back(matrixTable(findings));
    step.numbers.push_back({"passed", double(findings.passed), "", kNoValue, kNoValue, "matrix"});
    step.numbers.push_back({"failed", double(findings.failed), "", kNoValue, kNoValue, "matrix"});
    // A failed row is a failed matrix: the fix is not shown to hold, whatever else passed.
    step.status = findings.failed > 0 ? StepStatus::Blocker : StepStatus::Ok;
    step.summary = std::string(findings.failed > 0 ? "FAILED: " : "") +
                   std::to_string(findings.passed) + " passed, " + std::to_string(findings.failed) +
                   " failed, " + std::to_string(findings.notRun) + " not run. Reproducer replay " +
                   (findings.replayIdentical    ? "is bit-identical."
                    : llm && !fix.llmReproducer ? "was not run (no simulatable reproducer)."
                                                : "is NOT bit-identical.");
    std::string failedRows;
    for (const auto& row : findings.rows) {
        if (row.result == "fail")
            failedRows += (failedRows.empty() ? "" : "; ") + row.slice + ": " + row.metric;
    }
    if (!failedRows.empty())
        step.warnings.push_back("failed rows: " + failedRows);
    if (!context.scenarios.baseline && !llm)
        step.missingEvidence.push_back("a baseline scenario (a run-tag difference that maps to a "
                                       "scenario knob, or sweeps of both runs): fixed is "
                                       "compared with the candidate instead");
    if (!context.state.quality)
        step.missingEvidence.push_back("quality evidence (metric, baseline, candidate, "
                                       "tolerance) for the quality rows");
    return step;
}

} // namespace bs::playbook
