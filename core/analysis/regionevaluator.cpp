#include "analysis/regionevaluator.h"

#include "sim/estimate.h"
#include "sim/runlength.h"
#include "sim/simulator.h"

#include <algorithm>
#include <cmath>

namespace bs::analysis {

namespace {

/// Each screening stage runs this many times the requests of the one before.
constexpr std::uint64_t kStageGrowth = 8;
/// Run a little past the predicted replications: the prediction is itself an estimate.
constexpr double kReplicationMargin = 1.25;

/// Requests the simulator will run for `s`, warm-up included, after it has raised the run to
/// cover the traffic's time scale (sim/runlength.h).
std::uint64_t runRequests(const sim::Scenario& s)
{
    const sim::RunPlan plan = sim::plannedRun(s);
    return std::uint64_t(s.replications) * (plan.requests + plan.warmupRequests);
}

/// Fills a cell from a finished simulation and its verdict.
RegionCell cellFrom(const sim::Result& result, const ConstraintVerdict& verdict, CellMethod method)
{
    RegionCell cell;
    cell.metrics = metricsOf(result);
    cell.checks = verdict.checks;
    cell.binding = verdict.binding;
    cell.requests = result.scenario.requests;
    cell.replications = result.scenario.replications;
    cell.seed = result.scenario.seed;
    if (!result.stability.stable) {
        cell.status = CellStatus::Unstable;
        // rho >= 1 is the capacity check before any simulation; otherwise the run found it.
        cell.method = result.stability.rho >= 1.0 ? CellMethod::Analytic : method;
        if (cell.method == CellMethod::Analytic) {
            cell.requests = 0; // nothing was run
            cell.replications = 0;
        }
        cell.confident = true;
        cell.note = result.stability.reason;
        return cell;
    }
    cell.status = verdict.feasible ? CellStatus::Feasible : CellStatus::Infeasible;
    cell.method = method;
    cell.confident = verdict.decided;
    if (!result.coverage.sufficient) {
        // Too short for the traffic's time scale: its tail says nothing, whatever the interval.
        cell.confident = false;
        cell.note = result.coverage.note;
    }
    return cell;
}

/// A simulation error that is the cell's (its scenario is bad), not the whole job's.
RegionCell errorCell(const sim::Scenario& scenario, const Error& error)
{
    RegionCell cell;
    cell.status = CellStatus::Error;
    cell.method = CellMethod::Analytic;
    cell.seed = scenario.seed;
    cell.note = error.toString();
    return cell;
}

Expected<sim::Result> run(const sim::Scenario& scenario, ThreadPool* pool,
                          const std::string& baseDirectory, const CancelToken& cancel)
{
    sim::SimOptions options;
    options.threads = 1;
    options.pool = pool;
    options.baseDirectory = baseDirectory;
    options.seriesLatencyPercentiles = false; // cells are judged on the summary alone
    return sim::simulate(scenario, options, Progress::null(), cancel);
}

const sim::Estimate& estimateOf(const CellMetrics& m, ConstraintKind kind)
{
    switch (kind) {
    case ConstraintKind::Throughput:
        return m.throughputPerS;
    case ConstraintKind::Power:
        return m.powerPerServerW;
    case ConstraintKind::Temperature:
        return m.peakTemperatureC;
    case ConstraintKind::Energy:
        return m.energyPerInferenceJ;
    default:
        return m.p99S;
    }
}

/// The fewest replications (n0 < n <= max) at which the check would be decided, assuming its
/// mean stays and its half-width shrinks as hw(n) = hw0 sqrt(n0 / n) t(n-1) / t(n0-1); 0 when
/// none would (the mean on the limit, or too close for max replications).
int replicationsFor(const ConstraintCheck& check, const CellMetrics& m, bool robust, int n0,
                    int max)
{
    const sim::Estimate& e = estimateOf(m, check.kind);
    const double hw0 = e.halfWidth();
    const bool upper = check.kind != ConstraintKind::Throughput;
    // Decided means |value - limit| > hw, value being the mean or (robust) the pessimistic
    // interval end: on the met side that needs hw < gap / 2, a violation is decided at once.
    const double met = upper ? check.limit - e.value : e.value - check.limit;
    const double gap = robust ? 0.5 * met : std::abs(e.value - check.limit);
    if (!(hw0 > 0.0) || !(gap > 0.0))
        return 0;
    for (int n = n0 + 1; n <= max; ++n) {
        const double hw =
            hw0 * std::sqrt(double(n0) / n) * sim::studentT975(n - 1) / sim::studentT975(n0 - 1);
        if (hw < gap)
            return n;
    }
    return 0;
}

/// The replications of the next refinement run of an undecided cell: feasible needs every
/// undecided check settled, infeasible one violated check; 0 = no run within max would do.
int nextReplications(const RegionCell& cell, const RegionConstraints& c, int n0, int max)
{
    if (n0 < 2)
        return std::min(2 * n0, max); // no interval yet: nothing to predict from
    const bool feasible = cell.status == CellStatus::Feasible;
    int need = feasible ? n0 : 0;
    for (const auto& check : cell.checks) {
        if (check.decided || (!feasible && check.satisfied))
            continue;
        const int n = replicationsFor(check, cell.metrics, c.robust, n0, max);
        if (feasible && n == 0)
            return 0;
        need = feasible ? std::max(need, n) : (n > 0 && (need == 0 || n < need) ? n : need);
    }
    if (need <= n0)
        return 0;
    return std::min(max, int(std::ceil(need * kReplicationMargin)));
}

} // namespace

RegionEvaluator::RegionEvaluator(const RegionSpec& spec, std::string baseDirectory)
    : m_constraints(spec.constraints)
    , m_refinement(spec.refinement)
    , m_baseDirectory(std::move(baseDirectory))
{}

sim::Scenario RegionEvaluator::stageScenario(const sim::Scenario& scenario, int stage) const
{
    std::uint64_t factor = 1;
    for (int k = 0; k < stage; ++k)
        factor *= kStageGrowth;
    sim::Scenario out = scenario;
    out.output.records = false;
    out.requests = std::min(m_refinement.screenRequests * factor, scenario.requests);
    out.warmupRequests =
        std::min(m_refinement.screenWarmupRequests * factor, scenario.warmupRequests);
    out.replications = m_refinement.screenReplications;
    // A short run still covers its share of the traffic's cycles (the simulator raises it to
    // these): one that never leaves a burst-free stretch would decide on a fraction of it.
    if (out.runLength.minCycles > 0.0)
        out.runLength.minCycles =
            std::min(scenario.runLength.minCycles, m_refinement.screenMinCycles * double(factor));
    return out;
}

int RegionEvaluator::stagesFor(const sim::Scenario& scenario) const
{
    const std::uint64_t full = runRequests(scenario);
    int stages = 0;
    while (stages < m_refinement.screenStages &&
           2 * runRequests(stageScenario(scenario, stages)) < full)
        ++stages;
    return stages;
}

Expected<RegionCell> RegionEvaluator::screen(const sim::Scenario& scenario,
                                             const CancelToken& cancel, bool withThroughput,
                                             int stage) const
{
    const sim::Scenario shortRun = stageScenario(scenario, stage);
    auto result = run(shortRun, nullptr, m_baseDirectory, cancel);
    if (!result) {
        if (result.error().code == ErrorCode::Cancelled)
            return result.error();
        return errorCell(scenario, result.error());
    }
    const CellMetrics metrics = metricsOf(*result);
    const auto verdict =
        checkConstraints(m_constraints, metrics, m_refinement.screenHalfWidths, withThroughput);
    RegionCell cell = cellFrom(*result, verdict, CellMethod::ShortRun);
    cell.simulatedRequests = result->stability.rho >= 1.0 ? 0 : runRequests(shortRun);
    if (cell.status == CellStatus::Feasible && !(metrics.rho <= m_refinement.screenMaxRho))
        cell.confident = false;
    cell.pending = cell.status != CellStatus::Error && !cell.confident;
    return cell;
}

Expected<RegionCell> RegionEvaluator::simulate(const sim::Scenario& scenario, bool refine,
                                               ThreadPool* pool, const CancelToken& cancel,
                                               bool withThroughput) const
{
    sim::Scenario full = scenario;
    full.output.records = false;
    std::uint64_t simulated = 0;
    for (;;) {
        auto result = run(full, pool, m_baseDirectory, cancel);
        if (!result) {
            if (result.error().code == ErrorCode::Cancelled)
                return result.error();
            return errorCell(scenario, result.error());
        }
        if (result->stability.rho < 1.0)
            simulated += runRequests(full);
        const auto verdict =
            checkConstraints(m_constraints, metricsOf(*result), 1.0, withThroughput);
        RegionCell cell = cellFrom(*result, verdict, CellMethod::Simulated);
        cell.simulatedRequests = simulated;
        // More replications of a run too short for the traffic would not make it longer.
        if (cell.confident || !refine || full.replications >= m_refinement.maxReplications ||
            !result->coverage.sufficient)
            return cell;
        const int next =
            nextReplications(cell, m_constraints, full.replications, m_refinement.maxReplications);
        if (next <= full.replications)
            return cell; // even max_replications would not settle it: not confident
        full.replications = next;
    }
}

Expected<RegionCell> RegionEvaluator::estimate(const sim::Scenario& scenario,
                                               const CancelToken& cancel, bool withThroughput) const
{
    const int stages = m_refinement.screen ? stagesFor(scenario) : 0;
    if (stages == 0)
        return simulate(scenario, false, nullptr, cancel, withThroughput);
    std::uint64_t screened = 0;
    for (int stage = 0;; ++stage) {
        auto cell = screen(scenario, cancel, withThroughput, stage);
        if (!cell)
            return cell;
        cell->simulatedRequests += screened;
        if (!cell->pending || stage + 1 == stages)
            return cell;
        screened = cell->simulatedRequests;
    }
}

Expected<RegionCell> RegionEvaluator::evaluate(const sim::Scenario& scenario, bool refine,
                                               ThreadPool* pool, const CancelToken& cancel,
                                               bool withThroughput, int firstStage) const
{
    std::uint64_t screened = 0;
    const int stages = m_refinement.screen ? stagesFor(scenario) : 0;
    for (int stage = firstStage; stage < stages; ++stage) {
        auto cell = screen(scenario, cancel, withThroughput, stage);
        if (!cell)
            return cell;
        cell->simulatedRequests += screened;
        if (!cell->pending)
            return cell;
        screened = cell->simulatedRequests;
    }
    auto cell = simulate(scenario, refine, pool, cancel, withThroughput);
    if (cell)
        cell->simulatedRequests += screened;
    return cell;
}

} // namespace bs::analysis
