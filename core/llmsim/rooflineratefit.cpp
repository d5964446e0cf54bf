// The roofline step calibrated on a measured rate sweep (README.md: "Calibrating the roofline
// on a rate sweep").
#include "llmsim/rooflineratefit.h"

#include "llmsim/llmsimulator.h"
#include "util/neldermead.h"
#include "util/numbertext.h"
#include "util/threadpool.h"

#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

namespace bs::llmsim {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double meanTokens(const TokenLengthSpec& spec)
{
    switch (spec.kind) {
    case TokenLengthSpec::Kind::Fixed:
        return spec.tokens;
    case TokenLengthSpec::Kind::Uniform:
        return 0.5 * (spec.min + spec.max);
    case TokenLengthSpec::Kind::Lognormal:
        return spec.mean;
    }
    return kNaN;
}

double metricMs(const data::LlmRun& run, const char* name, bool median)
{
    const auto it = run.metrics.find(name);
    if (it == run.metrics.end())
        return kNaN;
    const auto& value = median ? it->second.medianS : it->second.meanS;
    return value ? *value * 1e3 : kNaN;
}

/// Mean tokens per request: the run's total over its completed count, or, for a file that keeps
/// rates and no totals (vLLM's CI result table), the token rate over the request rate (both over
/// the same duration, so the ratio is the same mean).
double perRequest(const std::optional<std::int64_t>& total, std::int64_t completed,
                  const std::optional<double>& tokensPerS,
                  const std::optional<double>& requestsPerS)
{
    if (total && completed > 0)
        return double(*total) / double(completed);
    if (tokensPerS && requestsPerS && *requestsPerS > 0.0)
        return *tokensPerS / *requestsPerS;
    return kNaN;
}

/// Empty when the run's mean length is within 25% of the scenario's (or unknown), else why not.
std::string lengthMismatch(const char* what, double measured, double stated)
{
    if (!std::isfinite(measured) || std::abs(measured / stated - 1.0) <= 0.25)
        return {};
    return std::string("mean ") + what + " " + significant(measured, 4) +
           " tokens against the scenario's " + significant(stated, 4);
}

RateSweepFigures figuresOf(const ReplicationMetrics& m)
{
    return {m.ttft.p50S * 1e3, m.itl.p50S * 1e3, m.e2e.meanS * 1e3, m.outputTokensPerS};
}

} // namespace

Status canCalibrateOnRateSweep(const LlmScenario& scenario)
{
    if (scenario.step.kind != StepSpec::Kind::Roofline)
        return makeError(ErrorCode::Value,
                         "the rate-sweep fit calibrates a roofline step; this scenario's step is "
                         "not \"roofline\"");
    if (scenario.arrivals.kind != LlmArrivalSpec::Kind::Poisson)
        return makeError(ErrorCode::Value,
                         "the rate-sweep fit replays each rate with Poisson arrivals and the "
                         "scenario's lengths; this scenario's arrivals are not \"poisson\"");
    if (scenario.arrivals.replicas != 1)
        return makeError(ErrorCode::Value,
                         "the rate-sweep fit compares one server's figures with the sweep's; "
                         "this scenario splits its arrivals over " +
                             std::to_string(scenario.arrivals.replicas) + " replicas");
    return {};
}

namespace {

/// The logistic map keeps each fraction in (0, 1) whatever the search proposes.
double fraction(double logit)
{
    return 1.0 / (1.0 + std::exp(-logit));
}

double logit(double fraction)
{
    const double p = std::clamp(fraction, 1e-4, 1.0 - 1e-4);
    return std::log(p / (1.0 - p));
}

/// The calibrated parameters: three the search moves, and the time outside the server, which
/// shifts the TTFT and E2E figures alone and is solved for at each step of the search.
struct Calibration
{
    double etaCompute = 0.0, etaMemory = 0.0, perSeqMs = 0.0;
    double clientMs = 0.0;
};

/// Sweeps one Nelder-Mead pass may simulate.
constexpr int kSearchBudget = 50;

/// A per-sequence time below this is no time at all (the search works on its logarithm).
constexpr double kNoPerSeqMs = 1e-4;

LlmScenario calibrated(LlmScenario scenario, const Calibration& c)
{
    scenario.step.accelerator.etaCompute = c.etaCompute;
    scenario.step.accelerator.etaMemory = c.etaMemory;
    scenario.step.overheadPerSeqMs = c.perSeqMs > kNoPerSeqMs ? c.perSeqMs : 0.0;
    scenario.step.clientOverheadMs = c.clientMs;
    return scenario;
}

Calibration calibrationAt(const std::array<double, 3>& x)
{
    return {fraction(x[0]), fraction(x[1]), std::exp(x[2])};
}

/// Sum over every figure both sides have of rho(ln(simulated / measured)); rho(r) = r^2 for
/// the RMS, the soft-L1 loss 2 (sqrt(1 + r^2) - 1) for the fit: quadratic near 0, linear beyond
/// a factor of e, so one figure the step's structure cannot reproduce (an overloaded run's TTFT
/// hangs on scheduler details) does not drag the fit away from every other figure.
double sumOfLosses(const std::vector<RateSweepComparison>& comparisons, bool robust,
                   std::size_t* count = nullptr)
{
    double sum = 0.0;
    std::size_t n = 0;
    for (const auto& c : comparisons) {
        const std::array<std::pair<double, double>, 4> pairs{
            {{c.simulated.ttftP50Ms, c.point.measured.ttftP50Ms},
             {c.simulated.itlP50Ms, c.point.measured.itlP50Ms},
             {c.simulated.e2eMeanMs, c.point.measured.e2eMeanMs},
             {c.simulated.outputTokensPerS, c.point.measured.outputTokensPerS}}};
        for (const auto& [simulated, measured] : pairs) {
            if (!(measured > 0.0) || !std::isfinite(measured))
                continue;
            // A figure the run could not produce (no token at all) counts as a large miss.
            const double ratio = simulated > 0.0 ? std::log(simulated / measured) : 10.0;
            sum += robust ? 2.0 * (std::sqrt(1.0 + ratio * ratio) - 1.0) : ratio * ratio;
            ++n;
        }
    }
    if (count)
        *count = n;
    return sum;
}

/// The figures with `clientMs` more outside the server: TTFT p50 and mean E2E move by exactly
/// that (a constant shift moves a median and a mean by itself), ITL and throughput not at all.
std::vector<RateSweepComparison> withClientTime(std::vector<RateSweepComparison> comparisons,
                                                double clientMs)
{
    for (auto& c : comparisons) {
        c.simulated.ttftP50Ms += clientMs;
        c.simulated.e2eMeanMs += clientMs;
    }
    return comparisons;
}

/// The time outside the server that fits the TTFT and E2E figures of `comparisons` (simulated
/// without it) best, in [0, the smallest measured TTFT p50 or mean E2E]: a grid, then a golden
/// section around its best cell. No simulation: the figures move by the shift alone. Empty
/// when no run has either figure.
std::optional<double> bestClientMs(const std::vector<RateSweepComparison>& comparisons)
{
    double upperMs = std::numeric_limits<double>::infinity();
    for (const auto& c : comparisons)
        for (double measured : {c.point.measured.ttftP50Ms, c.point.measured.e2eMeanMs})
            if (measured > 0.0 && std::isfinite(measured))
                upperMs = std::min(upperMs, measured);
    if (!std::isfinite(upperMs))
        return std::nullopt;
    const auto loss = [&](double ms) { return sumOfLosses(withClientTime(comparisons, ms), true); };
    constexpr int kCells = 200;
    const double cellMs = upperMs / kCells;
    int best = 0;
    double bestLoss = loss(0.0);
    for (int i = 1; i <= kCells; ++i) {
        const double l = loss(i * cellMs);
        if (l < bestLoss) {
            bestLoss = l;
            best = i;
        }
    }
    double lo = std::max(0.0, (best - 1) * cellMs), hi = std::min(upperMs, (best + 1) * cellMs);
    const double golden = 0.5 * (std::sqrt(5.0) - 1.0);
    for (int i = 0; i < 40; ++i) {
        const double a = hi - golden * (hi - lo), b = lo + golden * (hi - lo);
        if (loss(a) <= loss(b))
            hi = b;
        else
            lo = a;
    }
    const double refined = 0.5 * (lo + hi);
    return loss(refined) < bestLoss ? refined : best * cellMs;
}

/// Largest |ln| change of any figure between two simulations of the same points.
double largestMove(const std::vector<RateSweepComparison>& a,
                   const std::vector<RateSweepComparison>& b)
{
    double most = 0.0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        const std::array<std::pair<double, double>, 4> pairs{
            {{a[i].simulated.ttftP50Ms, b[i].simulated.ttftP50Ms},
             {a[i].simulated.itlP50Ms, b[i].simulated.itlP50Ms},
             {a[i].simulated.e2eMeanMs, b[i].simulated.e2eMeanMs},
             {a[i].simulated.outputTokensPerS, b[i].simulated.outputTokensPerS}}};
        for (const auto& [x, y] : pairs)
            if (x > 0.0 && y > 0.0)
                most = std::max(most, std::abs(std::log(x / y)));
    }
    return most;
}

} // namespace

std::vector<RateSweepPoint> rateSweepPoints(const data::LlmRunSet& runs,
                                            const LlmScenario& scenario,
                                            std::vector<RateSweepOmission>& omitted)
{
    std::vector<RateSweepPoint> out;
    const double statedPrompt = meanTokens(scenario.arrivals.promptTokens);
    const double statedOutput = meanTokens(scenario.arrivals.outputTokens);
    for (const auto& run : runs.runs) {
        RateSweepPoint p;
        const std::string dataset = data::llmKnob(run, {"dataset_name", "dataset"});
        p.ratePerS = run.requestRatePerS.value_or(0.0);
        p.label =
            significant(p.ratePerS, 4) + " req/s" + (dataset.empty() ? "" : " (" + dataset + ")");
        if (!run.requestRatePerS || !(p.ratePerS > 0.0) || !std::isfinite(p.ratePerS) ||
            !run.completed || *run.completed < 1) {
            omitted.push_back({run.requestRatePerS ? p.label : "a run without a request rate",
                               "no request rate above 0 or no completed count (an "
                               "unlimited-rate run is not a point of a rate sweep)"});
            continue;
        }
        if (run.maxConcurrency) {
            omitted.push_back({p.label, "capped at " + significant(*run.maxConcurrency, 4) +
                                            " concurrent requests: not the open-loop arrivals "
                                            "the fit replays"});
            continue;
        }
        p.requests = *run.completed;
        p.meanPromptTokens =
            perRequest(run.promptTokensTotal, p.requests, run.promptTokensPerS, run.requestsPerS);
        p.meanOutputTokens =
            perRequest(run.outputTokensTotal, p.requests, run.outputTokensPerS, run.requestsPerS);
        std::string mismatch = lengthMismatch("prompt", p.meanPromptTokens, statedPrompt);
        if (mismatch.empty())
            mismatch = lengthMismatch("output", p.meanOutputTokens, statedOutput);
        if (!mismatch.empty()) {
            omitted.push_back({p.label, mismatch});
            continue;
        }
        p.measured = {metricMs(run, "ttft", true), metricMs(run, "itl", true),
                      metricMs(run, "e2e", false), run.outputTokensPerS.value_or(kNaN)};
        const auto& m = p.measured;
        if (!(m.ttftP50Ms > 0.0) && !(m.itlP50Ms > 0.0) && !(m.e2eMeanMs > 0.0) &&
            !(m.outputTokensPerS > 0.0)) {
            omitted.push_back({p.label, "no median TTFT, median ITL, mean E2E or output "
                                        "tokens/s to compare"});
            continue;
        }
        out.push_back(std::move(p));
    }
    return out;
}

Expected<std::vector<RateSweepComparison>>
predictRateSweep(const LlmScenario& scenario, const std::vector<RateSweepPoint>& points,
                 const std::string& baseDirectory, CancelToken cancel, ThreadPool* pool)
{
    if (auto status = canCalibrateOnRateSweep(scenario); !status)
        return status.error();
    std::vector<Expected<LlmResult>> results(points.size(),
                                             makeError(ErrorCode::Cancelled, "not run"));
    std::optional<ThreadPool> ownPool;
    if (!pool)
        pool = &ownPool.emplace();
    // Each point is one single-threaded simulation: the points run side by side.
    pool->parallelFor(
        points.size(),
        [&](std::size_t i) {
            LlmScenario at = scenario;
            at.replications = 1;
            at.arrivals.ratePerS = points[i].ratePerS;
            at.arrivals.rateMultiplier = 1.0;
            at.arrivals.count = points[i].requests;
            results[i] = simulateLlm(at, {baseDirectory, 1}, cancel);
        },
        cancel);
    std::vector<RateSweepComparison> out;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!results[i]) {
            Error error = results[i].error();
            error.message = points[i].label + ": " + error.message;
            return error;
        }
        out.push_back({points[i], figuresOf(results[i]->replications.front())});
    }
    return out;
}

double rateSweepLogRms(const std::vector<RateSweepComparison>& comparisons)
{
    std::size_t n = 0;
    const double sum = sumOfLosses(comparisons, false, &n);
    return n ? std::sqrt(sum / double(n)) : kNaN;
}

namespace {

using SimulateAt = std::function<Expected<std::vector<RateSweepComparison>>(const Calibration&)>;

/// Two Nelder-Mead passes from the stated values, the second from the first's answer with a
/// finer simplex: a parameter that tips a scheduling decision moves many requests at once, so
/// one pass can stall on a kink. At each point the time outside the server is the one that
/// fits best there (the stated one where no run has a TTFT or E2E figure).
Expected<Calibration> searchCalibration(const SimulateAt& simulateAt, const Calibration& stated)
{
    double lowestLoss = std::numeric_limits<double>::infinity();
    double clientMsAtLowest = stated.clientMs;
    const auto objective = [&](const std::array<double, 3>& x) -> Expected<double> {
        auto comparisons = simulateAt(calibrationAt(x));
        if (!comparisons)
            return comparisons.error();
        const double clientMs = bestClientMs(*comparisons).value_or(stated.clientMs);
        const double loss = sumOfLosses(withClientTime(std::move(*comparisons), clientMs), true);
        // Nelder-Mead keeps the lowest point it evaluated, so this is the answer's client time.
        if (loss < lowestLoss) {
            lowestLoss = loss;
            clientMsAtLowest = clientMs;
        }
        return loss;
    };
    std::array<double, 3> best{logit(stated.etaCompute), logit(stated.etaMemory),
                               std::log(std::max(stated.perSeqMs, 0.01))};
    for (double step : {1.0, 0.25}) {
        auto next = nelderMead(objective, best, step, kSearchBudget);
        if (!next)
            return next.error();
        best = *next;
    }
    Calibration found = calibrationAt(best);
    found.clientMs = clientMsAtLowest;
    return found;
}

/// Identifiability: each parameter is moved 10% from `c`; one that moves no figure of `atFit`
/// by 1% is not pinned by the sweep, goes back to its stated value, and a warning says so.
Status keepUnpinnedAsStated(const SimulateAt& simulateAt,
                            const std::vector<RateSweepComparison>& atFit,
                            const Calibration& stated, Calibration& c, RooflineRateFit& fit)
{
    struct Parameter
    {
        double Calibration::*value;
        bool RooflineRateFit::*pinned;
        const char* name;
        const char* why;
    };
    const Parameter parameters[] = {{&Calibration::etaCompute, &RooflineRateFit::etaComputePinned,
                                     "eta_compute", "no run loads the accelerator's compute"},
                                    {&Calibration::etaMemory, &RooflineRateFit::etaMemoryPinned,
                                     "eta_memory", "no run is bound by memory traffic"},
                                    {&Calibration::perSeqMs, &RooflineRateFit::perSeqPinned,
                                     "overhead_per_seq_ms", "the batches stay too small"}};
    const Calibration fitted = c;
    for (const Parameter& p : parameters) {
        Calibration moved = fitted;
        moved.*p.value *= 0.9;
        auto m = simulateAt(moved);
        if (!m)
            return m.error();
        fit.*p.pinned = largestMove(atFit, *m) >= 0.01;
        if (fit.*p.pinned)
            continue;
        c.*p.value = stated.*p.value;
        fit.warnings.push_back(std::string("the sweep does not pin ") + p.name + " (" + p.why +
                               "; 10% less moves no figure by 1%): kept at the stated " +
                               significant(stated.*p.value, 4));
    }
    return {};
}

} // namespace

Expected<RooflineRateFit> fitRooflineOnRateSweep(const LlmScenario& scenario,
                                                 const std::vector<RateSweepPoint>& points,
                                                 const std::string& baseDirectory,
                                                 CancelToken cancel, Progress& progress)
{
    if (auto status = canCalibrateOnRateSweep(scenario); !status)
        return status.error();
    if (points.size() < 2)
        return makeError(ErrorCode::Value,
                         "the rate-sweep fit needs two runs or more that the scenario's lengths "
                         "stand for; " +
                             std::to_string(points.size()) + " found");
    RooflineRateFit fit;
    const Calibration stated{scenario.step.accelerator.etaCompute,
                             scenario.step.accelerator.etaMemory, scenario.step.overheadPerSeqMs,
                             scenario.step.clientOverheadMs};
    fit.statedEtaCompute = stated.etaCompute;
    fit.statedEtaMemory = stated.etaMemory;
    fit.statedPerSeqMs = stated.perSeqMs;
    fit.statedClientMs = stated.clientMs;
    // The sweeps a fit takes: the stated one, two searches' budgets, the fitted one and three
    // moved for identifiability (an unpinned parameter adds one more).
    // A Nelder-Mead pass may pass its budget by one shrink (N + 1 more) before it stops.
    const auto sweeps = std::uint64_t(1 + 2 * (kSearchBudget + 4) + 4);
    progress.setPhase("calibrating the roofline on the sweep", sweeps);
    ThreadPool pool;
    const SimulateAt simulateAt = [&](const Calibration& c) {
        ++fit.evaluations;
        progress.advanceTo(std::min(std::uint64_t(fit.evaluations), sweeps));
        return predictRateSweep(calibrated(scenario, c), points, baseDirectory, cancel, &pool);
    };
    auto atStated = simulateAt(stated);
    if (!atStated)
        return atStated.error();
    fit.statedLogRms = rateSweepLogRms(*atStated);
    auto c = searchCalibration(simulateAt, stated);
    if (!c)
        return c.error();
    fit.clientPinned = bestClientMs(*atStated).has_value();
    if (!fit.clientPinned)
        fit.warnings.push_back("no run has a TTFT p50 or a mean E2E, so the sweep does not pin "
                               "client_overhead_ms: kept at the stated " +
                               significant(stated.clientMs, 4));
    auto atFit = simulateAt(*c);
    if (!atFit)
        return atFit.error();
    if (auto status = keepUnpinnedAsStated(simulateAt, *atFit, stated, *c, fit); !status)
        return status.error();
    fit.step = calibrated(scenario, *c).step;
    if (fit.warnings.empty()) {
        fit.comparisons = std::move(*atFit);
    } else {
        auto kept = simulateAt(*c);
        if (!kept)
            return kept.error();
        fit.comparisons = std::move(*kept);
    }
    fit.logRms = rateSweepLogRms(fit.comparisons);
    progress.finish();
    return fit;
}

} // namespace bs::llmsim
